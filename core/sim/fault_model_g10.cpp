#include "core/sim/fault_model_g10.h"

#include "core/trace/number_limits.h"

#include <algorithm>

namespace spillway::sim {
namespace {

// G10 uses this when two measured times coincide (1063004400 B/ms).
constexpr std::int64_t kG10UnboundedBytesPerSecond = 1'063'004'400'000;

std::int64_t bandwidthOver(Bytes bytes, Nanoseconds time) {
    if (time <= 0) return kG10UnboundedBytesPerSecond;
    const __int128 bps = static_cast<__int128>(bytes) * 1'000'000'000 / time;
    return std::max<std::int64_t>(1, static_cast<std::int64_t>(bps));
}

Nanoseconds timeAt(Bytes bytes, std::int64_t bytesPerSecond) {
    return transferTime(LinkSpec{std::max<std::int64_t>(1, bytesPerSecond), 0}, bytes);
}

Nanoseconds sumOf(Nanoseconds a, Nanoseconds b) { return checkedAdd(a, b, "a kernel's G10 fault time"); }

}  // namespace

G10KernelBandwidth g10KernelBandwidth(const Kernel& kernel, Bytes inputBytes, Bytes outputBytes,
                                      const HardwareConfig& hw) {
    G10KernelBandwidth bw;
    if (!kernel.timeAllFaulted || !kernel.timeOutputsFaulted) return bw;
    bw.calibrated = true;
    // G10 converts cycles to milliseconds as `cycles / GPU_frequency_Hz * 1000` with integer
    // operands, so each time is truncated to whole seconds before use. For every kernel shorter
    // than 1 s the three times coincide and both bandwidths fall back to G10's constant, capped
    // by the link below. We reproduce that, since G10's published numbers depend on it.
    auto wholeSeconds = [](Nanoseconds t) { return t / 1'000'000'000 * 1'000'000'000; };
    // G10 clamps the three times into order before using them.
    const Nanoseconds tIdeal = wholeSeconds(kernel.duration);
    const Nanoseconds tAll = std::max(wholeSeconds(*kernel.timeAllFaulted), tIdeal);
    const Nanoseconds tOut = std::clamp(wholeSeconds(*kernel.timeOutputsFaulted), tIdeal, tAll);
    bw.hostIn = bandwidthOver(inputBytes, tAll - tOut);
    bw.hostOut = bandwidthOver(outputBytes, tOut - tIdeal);
    const Nanoseconds ssdLatency = hw.ssdToGpu.latency;
    const std::int64_t ssdLink = hw.ssdToGpu.bytesPerSecond;
    auto ssdShare = [&](std::int64_t host) {
        const __int128 scaled = static_cast<__int128>(host) * hw.faultLatency /
                                std::max<Nanoseconds>(1, hw.faultLatency + ssdLatency);
        return std::min<std::int64_t>(static_cast<std::int64_t>(scaled), ssdLink);
    };
    bw.ssdIn = ssdShare(bw.hostIn);
    bw.ssdOut = ssdShare(bw.hostOut);
    return bw;
}

Nanoseconds g10FaultTime(const G10KernelBandwidth& bw, const FaultDemand& d, const HardwareConfig& hw) {
    const std::int64_t ssdIn = d.inputs.fromSsd > 0 ? bw.ssdIn : 0;
    const std::int64_t ssdOut = d.outputs.fromSsd > 0 ? bw.ssdOut : 0;
    const std::int64_t hostRest = hw.hostToGpu.bytesPerSecond - std::max(ssdIn, ssdOut);
    const Bytes hostInBytes = d.inputs.fromHost + d.inputs.zeroFill;
    const Bytes hostOutBytes = d.outputs.fromHost + d.outputs.zeroFill;
    if (hostRest <= 0) {
        // The SSD share leaves host faults no bandwidth (SSD as fast as PCIe, as in G10's
        // 32 GB/s sweep point). G10 computes in doubles: a side without host faults gives
        // 0/0 = NaN, which std::max then ignores (deltaT = the SSD part); host faults on both
        // sides give +inf, which its conversion to unsigned cycles turns into 0 on x86-64. We
        // reproduce both outcomes, since G10's published sweep depends on them.
        const Nanoseconds ssdOnly = sumOf(d.inputs.fromSsd > 0 ? timeAt(d.inputs.fromSsd, ssdIn) : 0,
                                          d.outputs.fromSsd > 0 ? timeAt(d.outputs.fromSsd, ssdOut) : 0);
        return hostInBytes > 0 && hostOutBytes > 0 ? 0 : ssdOnly;
    }
    const std::int64_t hostCap = hostRest;
    const std::int64_t hostIn = std::min(bw.hostIn, hostCap);
    const std::int64_t hostOut = std::min(bw.hostOut, hostCap);
    const Nanoseconds ssdTime = sumOf(d.inputs.fromSsd > 0 ? timeAt(d.inputs.fromSsd, ssdIn) : 0,
                                      d.outputs.fromSsd > 0 ? timeAt(d.outputs.fromSsd, ssdOut) : 0);
    const Nanoseconds hostTime = sumOf(hostInBytes > 0 ? timeAt(hostInBytes, hostIn) : 0,
                                       hostOutBytes > 0 ? timeAt(hostOutBytes, hostOut) : 0);
    return std::max(ssdTime, hostTime);
}

}  // namespace spillway::sim
