#include "core/analysis/profile_summary.h"

#include <fmt/format.h>

#include "core/analysis/peak.h"
#include "core/analysis/profile_totals.h"
#include "core/analysis/working_set.h"

#include <algorithm>
#include <numeric>

namespace spillway {

ProfileSummary summarizeProfile(const Profile& profile, size_t largestCount) {
    // The sums below (footprint, per kind, per phase, total time) are parts of the checked totals.
    const ProfileTotals totals = checkedProfileTotals(profile);
    ProfileSummary s;
    s.footprintBytes = totals.tensorBytes;
    s.totalTime = totals.duration;
    s.kernelCount = static_cast<std::int64_t>(profile.kernels.size());
    s.tensorCount = static_cast<std::int64_t>(profile.tensors.size());
    s.jobCount = static_cast<std::int64_t>(profile.jobs.size());
    for (const auto& t : profile.tensors) {
        if (t.persistent) s.persistentBytes += t.bytes;
        auto& kind = s.kinds[t.kind];
        ++kind.tensors;
        kind.bytes += t.bytes;
    }
    for (const auto& k : profile.kernels) {
        s.maxWorkspaceBytes = std::max(s.maxWorkspaceBytes, k.workspaceBytes);
        auto& phase = s.phases[k.phase];
        ++phase.kernels;
        phase.time += k.duration;
    }
    const auto peak = theoreticalPeak(profile, computeLiveness(profile));
    s.peakBytes = peak.peakBytes;
    s.peakKernelPos = peak.kernelPos;
    const auto workingSets = computeWorkingSets(profile);
    s.largestWorkingSetKernelPos = largestWorkingSet(workingSets);
    if (s.largestWorkingSetKernelPos >= 0)
        s.largestWorkingSetBytes = workingSets[s.largestWorkingSetKernelPos].totalBytes();
    std::vector<std::int64_t> order(profile.tensors.size());
    std::iota(order.begin(), order.end(), 0);
    const auto count = std::min(largestCount, order.size());
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(count), order.end(),
                      [&](auto a, auto b) {
                          const auto& ta = profile.tensors[a];
                          const auto& tb = profile.tensors[b];
                          return ta.bytes != tb.bytes ? ta.bytes > tb.bytes : a < b;
                      });
    order.resize(count);
    s.largestTensors = std::move(order);
    return s;
}

std::string footprintMeaning(const std::map<std::string, std::string>& notes, std::int64_t tensorCount) {
    std::string which = fmt::format("all {} tensors", tensorCount);
    const auto found = notes.find("iterations.found");
    const auto imported = notes.find("iterations.imported");
    if (found != notes.end() && imported != notes.end())
        which += imported->second == "all" ? fmt::format(" of all {} iterations", found->second)
                                           : fmt::format(" of iteration {} ({} found)", imported->second, found->second);
    return which + " added up, each once, as if none were freed";
}

}  // namespace spillway
