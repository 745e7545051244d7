#include "core/policy/tensile/tensor_access_sequence.h"

#include <algorithm>
#include <stdexcept>

namespace spillway::tensile {

namespace {

std::string jobLabel(const JobIterationView& view, size_t index) {
    return "job " + std::to_string(index) + (view.name.empty() ? "" : " (" + view.name + ")");
}

JobAccessTimes jobTimes(const JobIterationView& view, size_t index) {
    if (!view.profile) throw std::invalid_argument(jobLabel(view, index) + ": no profile");
    const auto& kernels = view.profile->kernels;
    JobAccessTimes times;
    times.job = view.job;
    times.name = view.name;
    times.profile = view.profile;
    times.maxSwapRatio = view.maxSwapRatio;
    times.completedIterations = view.completedIterations;
    const size_t n = kernels.size();
    if (view.kernelStart.empty() && view.kernelDuration.empty()) {
        Nanoseconds t = 0;
        for (const auto& k : kernels) {
            times.kernelStart.push_back(t);
            t += std::max<Nanoseconds>(0, k.duration);
            times.kernelEnd.push_back(t);
        }
    } else {
        if (view.kernelStart.size() != n || view.kernelDuration.size() != n)
            throw std::invalid_argument(jobLabel(view, index) + ": kernelStart has " +
                                        std::to_string(view.kernelStart.size()) + " and kernelDuration " +
                                        std::to_string(view.kernelDuration.size()) + " entries; expected one per kernel (" +
                                        std::to_string(n) + ")");
        for (size_t k = 0; k < n; ++k) {
            if (view.kernelDuration[k] < 0)
                throw std::invalid_argument(jobLabel(view, index) + ": kernelDuration[" + std::to_string(k) +
                                            "] is negative");
            times.kernelStart.push_back(view.kernelStart[k]);
            times.kernelEnd.push_back(view.kernelStart[k] + view.kernelDuration[k]);
        }
    }
    times.endsInOrder = std::is_sorted(times.kernelEnd.begin(), times.kernelEnd.end());
    if (n > 0) {
        times.windowStart = *std::min_element(times.kernelStart.begin(), times.kernelStart.end());
        times.windowEnd = *std::max_element(times.kernelEnd.begin(), times.kernelEnd.end());
    }
    return times;
}

}  // namespace

TensorAccessSequence buildTensorAccessSequence(const std::vector<JobIterationView>& views) {
    TensorAccessSequence tas;
    bool first = true;
    for (size_t j = 0; j < views.size(); ++j) {
        tas.jobs.push_back(jobTimes(views[j], j));
        const auto& times = tas.jobs.back();
        const Profile& profile = *times.profile;
        const ProfileIndex index(profile);
        const size_t base = tas.tensors.size();
        tas.jobs.back().firstTensor = base;
        for (size_t t = 0; t < profile.tensors.size(); ++t) {
            const auto& tensor = profile.tensors[t];
            AccessTensor a;
            a.job = static_cast<std::int32_t>(j);
            a.tensorPos = static_cast<std::int64_t>(t);
            a.id = tensor.id;
            a.bytes = tensor.bytes;
            a.persistent = tensor.persistent;
            tas.tensors.push_back(std::move(a));
        }
        // Accesses in program order; a kernel that lists a tensor as input and output (an
        // in-place op) makes one access that reads and writes it.
        for (size_t k = 0; k < profile.kernels.size(); ++k) {
            const Kernel& kernel = profile.kernels[k];
            auto touch = [&](TensorId id, bool writes) {
                const auto pos = index.tensorPos(id);
                if (pos < 0) return;  // unknown ids: validateProfile reports them
                auto& accesses = tas.tensors[base + static_cast<size_t>(pos)].accesses;
                if (!accesses.empty() && accesses.back().kernelPos == static_cast<std::int64_t>(k)) {
                    accesses.back().writes = accesses.back().writes || writes;
                    return;
                }
                accesses.push_back({.kernelPos = static_cast<std::int64_t>(k), .start = times.kernelStart[k],
                                    .end = times.kernelEnd[k], .kind = AccessKind::Input, .writes = writes,
                                    .phase = kernel.phase});
            };
            for (TensorId id : kernel.inputs) touch(id, false);
            for (TensorId id : kernel.outputs) touch(id, true);
        }
        for (size_t t = base; t < tas.tensors.size(); ++t) {
            auto& a = tas.tensors[t];
            // Estimated starts may be out of program order; the sequence is by time.
            std::stable_sort(a.accesses.begin(), a.accesses.end(),
                             [](const TensorAccess& x, const TensorAccess& y) { return x.start < y.start; });
            if (a.accesses.empty()) {
                a.residentAtStart = a.persistent;
                continue;
            }
            const auto& firstAccess = a.accesses.front();
            const Kernel& producer = profile.kernels[static_cast<size_t>(firstAccess.kernelPos)];
            const bool readsFirst = std::find(producer.inputs.begin(), producer.inputs.end(), a.id) != producer.inputs.end();
            a.residentAtStart = a.persistent || readsFirst || !firstAccess.writes;
            if (!a.residentAtStart) a.accesses.front().kind = AccessKind::Output;
            // Updated in the optimizer phase (a parameter, Adam's moments): the gap after its last
            // access (the update, or a later read in the same step) wraps to the next iteration.
            a.updatedParameter = a.persistent && std::any_of(a.accesses.begin(), a.accesses.end(), [](const TensorAccess& x) {
                                     return x.writes && x.phase == KernelPhase::Optimizer;
                                 });
        }
        if (!profile.kernels.empty()) {
            tas.start = first ? times.windowStart : std::min(tas.start, times.windowStart);
            tas.end = first ? times.windowEnd : std::max(tas.end, times.windowEnd);
            first = false;
        }
    }
    return tas;
}

}  // namespace spillway::tensile
