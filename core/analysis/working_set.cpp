#include "core/analysis/working_set.h"

#include "core/analysis/profile_totals.h"

#include <algorithm>

namespace spillway {

std::vector<KernelWorkingSet> computeWorkingSets(const Profile& profile) {
    // A working set's bytes are part of the profile's total, checked here once, and so is
    // KernelWorkingSet::totalBytes().
    checkedProfileTotals(profile);
    const ProfileIndex index(profile);
    std::vector<KernelWorkingSet> sets(profile.kernels.size());
    // Tensor positions of the current kernel, deduplicated by sorting: kernels touch a handful
    // of tensors, so this beats a per-kernel hash set.
    std::vector<std::int64_t> touched;
    for (size_t k = 0; k < profile.kernels.size(); ++k) {
        const auto& kernel = profile.kernels[k];
        touched.clear();
        for (auto id : kernel.inputs)
            if (auto pos = index.tensorPos(id); pos >= 0) touched.push_back(pos);
        for (auto id : kernel.outputs)
            if (auto pos = index.tensorPos(id); pos >= 0) touched.push_back(pos);
        std::sort(touched.begin(), touched.end());
        touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
        auto& set = sets[k];
        for (auto pos : touched) set.tensorBytes += profile.tensors[pos].bytes;
        set.tensorCount = static_cast<std::int64_t>(touched.size());
        set.workspaceBytes = kernel.workspaceBytes;
    }
    return sets;
}

std::int64_t largestWorkingSet(const std::vector<KernelWorkingSet>& sets) {
    std::int64_t best = -1;
    for (size_t k = 0; k < sets.size(); ++k)
        if (best < 0 || sets[k].totalBytes() > sets[best].totalBytes()) best = static_cast<std::int64_t>(k);
    return best;
}

}  // namespace spillway
