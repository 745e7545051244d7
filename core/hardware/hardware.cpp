#include "core/hardware/hardware.h"

#include "core/trace/number_limits.h"

#include <fmt/format.h>

#include <limits>

namespace spillway {

std::string_view toString(Tier tier) {
    switch (tier) {
        case Tier::Gpu: return "gpu";
        case Tier::Host: return "host";
        case Tier::Ssd: return "ssd";
    }
    return "?";
}

std::string_view toString(FaultModel model) {
    switch (model) {
        case FaultModel::Analytic: return "analytic";
        case FaultModel::G10Calibrated: return "g10-calibrated";
    }
    return "?";
}

Nanoseconds transferTime(const LinkSpec& link, Bytes bytes) {
    if (bytes <= 0) return 0;
    if (link.bytesPerSecond <= 0) return std::numeric_limits<Nanoseconds>::max() / 4;
    // Wide, then checked into 64 bits: each size is bounded (number_limits.h), but 2^50 bytes
    // over a link of 1 byte/s take 2^80 ns.
    __extension__ using Wide = __int128;
    const Wide num = static_cast<Wide>(bytes) * 1'000'000'000;
    const Wide ns = (num + link.bytesPerSecond - 1) / link.bytesPerSecond;
    if (ns > std::numeric_limits<Nanoseconds>::max())
        throw NumberOverflow(fmt::format("moving {} bytes at {} bytes/s takes more than 2^63 ns", bytes,
                                         link.bytesPerSecond));
    return static_cast<Nanoseconds>(ns);
}

Nanoseconds hostLinkTime(const HardwareConfig& hardware, TransferDirection direction, TransferMechanism mechanism,
                         Bytes bytes) {
    if (bytes <= 0) return 0;
    if (const TransferCurve& curve = hardware.measured.curve(direction, mechanism); !curve.empty())
        return curveTime(curve, bytes);
    const LinkSpec& link = direction == TransferDirection::ToGpu ? hardware.hostToGpu : hardware.gpuToHost;
    return checkedAdd(link.latency, transferTime(link, bytes), "a transfer's duration");
}

Nanoseconds discardUnmapTime(const HardwareConfig& hardware, std::int64_t blocks, Bytes bytes) {
    if (blocks <= 0) return 0;
    if (hardware.discardUnmapPerBlock > 0)
        return checkedMul(blocks, hardware.discardUnmapPerBlock, "a discard's unmapping time");
    return discardCurveTime(hardware.discardCost, bytes);
}

}  // namespace spillway
