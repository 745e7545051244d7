#include "core/analysis/peak.h"

#include "core/analysis/profile_totals.h"

namespace spillway {

MemoryPeak theoreticalPeak(const Profile& profile, const Liveness& liveness) {
    const auto n = static_cast<std::int64_t>(profile.kernels.size());
    // Every sum below (the persistent bytes, the running live bytes plus a workspace) is part
    // of the profile's total, checked here once.
    checkedProfileTotals(profile);
    MemoryPeak peak;
    peak.liveBytes.assign(static_cast<size_t>(n), 0);
    for (size_t t = 0; t < profile.tensors.size(); ++t)
        if (liveness.tensors[t].persistent) peak.persistentBytes += profile.tensors[t].bytes;
    if (n == 0) return peak;
    // Difference array: +bytes at the first use, -bytes after the last; one pass instead of
    // kernels x tensors.
    std::vector<Bytes> delta(static_cast<size_t>(n) + 1, 0);
    for (size_t t = 0; t < profile.tensors.size(); ++t) {
        const auto& l = liveness.tensors[t];
        if (!l.persistent && l.used()) {
            delta[l.firstUse] += profile.tensors[t].bytes;
            delta[l.lastUse + 1] -= profile.tensors[t].bytes;
        }
    }
    Bytes running = peak.persistentBytes;
    for (std::int64_t k = 0; k < n; ++k) {
        running += delta[k];
        peak.liveBytes[k] = running + profile.kernels[k].workspaceBytes;
        // Strictly greater: the first kernel reaching the maximum is reported.
        if (peak.kernelPos < 0 || peak.liveBytes[k] > peak.peakBytes) {
            peak.peakBytes = peak.liveBytes[k];
            peak.kernelPos = k;
        }
    }
    peak.workspaceAtPeak = profile.kernels[peak.kernelPos].workspaceBytes;
    for (size_t t = 0; t < profile.tensors.size(); ++t)
        if (liveness.tensors[t].liveAt(peak.kernelPos))
            peak.liveTensorsAtPeak.push_back(static_cast<std::int64_t>(t));
    return peak;
}

}  // namespace spillway
