#include "core/policy/g10_resident_estimate.h"

namespace spillway {

G10ResidentEstimate estimateG10Residency(const Profile& profile, const Liveness& liveness,
                                         const HardwareConfig& hardware) {
    const auto n = static_cast<std::int64_t>(profile.kernels.size());
    std::vector<Nanoseconds> start(static_cast<size_t>(n) + 1, 0);
    for (std::int64_t k = 0; k < n; ++k) start[k + 1] = start[k] + profile.kernels[k].duration;

    G10ResidentEstimate out;
    out.allocatedAt.assign(profile.tensors.size(), -1);
    out.freedAt.assign(profile.tensors.size(), -1);
    std::vector<Bytes> delta(static_cast<size_t>(n) + 1, 0);
    Bytes always = 0;
    // G10's estimate starts every kernel at the sum of all tensors plus the first tensor once
    // more, and its pre-(de)allocation pass skips that first tensor ("Except for A0"): tensor 0
    // (the input batch of a CNN) counts twice, at every kernel, and gets no allocation or free.
    // Under g10-calibrated we plan as G10 does; the analytic model counts every tensor once.
    const bool g10FirstTensor = hardware.faultModel == FaultModel::G10Calibrated && !profile.tensors.empty();
    if (g10FirstTensor) always += profile.tensors[0].bytes;
    for (size_t t = 0; t < profile.tensors.size(); ++t) {
        const auto& l = liveness.tensors[t];
        const Bytes size = profile.tensors[t].bytes;
        if (g10FirstTensor && t == 0 && !l.persistent) {
            always += size;  // resident all the time; allocatedAt stays -1: no allocation, no free
            continue;
        }
        if (l.persistent) {
            always += size;
            out.allocatedAt[t] = 0;
            out.freedAt[t] = n;
            continue;
        }
        if (!l.used()) continue;
        // Pre-allocation: the kernel running when the allocation must start (G10 rounds the
        // start down to the kernel whose window holds it).
        const Nanoseconds allocTime = static_cast<Nanoseconds>(
            static_cast<__int128>(size) * hardware.allocFemtosecondsPerByte / 1'000'000);
        const Nanoseconds allocStart = start[l.firstUse] - allocTime;
        std::int64_t alloc = l.firstUse;
        if (allocStart < 0) {
            alloc = 0;
        } else {
            for (std::int64_t j = 0; j < l.firstUse; ++j)
                if (start[j] <= allocStart && start[j + 1] > allocStart) { alloc = j; break; }
        }
        // Death: after the last read; a tensor nobody reads dies after its first use. G10 frees
        // at the first kernel with a non-empty window from there on.
        const std::int64_t death = l.lastRead >= 0 ? l.lastRead + 1 : l.firstUse + 1;
        std::int64_t freed = n;
        for (std::int64_t j = death; j < n; ++j)
            if (profile.kernels[j].duration > 0) { freed = j; break; }
        out.allocatedAt[t] = alloc;
        out.freedAt[t] = freed;
        delta[alloc] += size;
        delta[freed] -= size;
    }
    out.bytes.resize(static_cast<size_t>(n));
    Bytes running = always;
    for (std::int64_t k = 0; k < n; ++k) {
        running += delta[k];
        out.bytes[k] = running + profile.kernels[k].workspaceBytes;
    }
    return out;
}

}  // namespace spillway
