#include "core/hardware/transfer_curve.h"

#include "core/trace/number_limits.h"

#include <fmt/format.h>

#include <limits>
#include <stdexcept>

namespace spillway {

namespace {

__extension__ using Wide = __int128;

Nanoseconds narrow(Wide ns, Bytes bytes) {
    if (ns > std::numeric_limits<Nanoseconds>::max())
        throw NumberOverflow(fmt::format("moving {} bytes takes more than 2^63 ns on the measured curve", bytes));
    return static_cast<Nanoseconds>(ns);
}

// bytes at a rate, rounded up
Wide atRate(Bytes bytes, std::int64_t bytesPerSecond) {
    return (static_cast<Wide>(bytes) * 1'000'000'000 + bytesPerSecond - 1) / bytesPerSecond;
}

}  // namespace

std::string_view toString(TransferMechanism mechanism) {
    switch (mechanism) {
        case TransferMechanism::ManagedPrefetch: return "managed_prefetch";
        case TransferMechanism::FaultMigration: return "fault_migration";
        case TransferMechanism::PinnedCopy: return "pinned_copy";
        case TransferMechanism::DiscardedFault: return "discarded_fault";
    }
    return "?";
}

std::string_view toString(TransferDirection direction) {
    return direction == TransferDirection::ToGpu ? "host_to_gpu" : "gpu_to_host";
}

Nanoseconds curveTime(const TransferCurve& curve, Bytes bytes) {
    if (curve.empty()) throw std::logic_error("curveTime on a curve with no points");
    if (bytes <= 0) return 0;
    const auto& p = curve.points;
    Wide ns = 0;
    if (bytes <= p.front().bytes) {
        ns = atRate(bytes, p.front().bytesPerSecond);
    } else if (bytes >= p.back().bytes) {
        ns = atRate(bytes, p.back().bytesPerSecond);
    } else {
        std::size_t i = 1;
        while (p[i].bytes < bytes) ++i;
        const Wide t0 = atRate(p[i - 1].bytes, p[i - 1].bytesPerSecond);
        const Wide t1 = atRate(p[i].bytes, p[i].bytesPerSecond);
        const Wide span = p[i].bytes - p[i - 1].bytes;
        ns = t0 + ((t1 - t0) * (bytes - p[i - 1].bytes)) / span;
    }
    return std::max(curve.floor, narrow(ns, bytes));
}

std::string curveProblem(const TransferCurve& curve) {
    for (std::size_t i = 0; i < curve.points.size(); ++i) {
        const auto& point = curve.points[i];
        if (point.bytes <= 0) return fmt::format("point {}: the size must be positive", i);
        if (point.bytesPerSecond <= 0) return fmt::format("point {}: the rate must be positive", i);
        if (i > 0 && point.bytes <= curve.points[i - 1].bytes)
            return fmt::format("point {}: sizes must ascend ({} after {})", i, point.bytes, curve.points[i - 1].bytes);
    }
    return {};
}

void checkMeasuredTransfers(const MeasuredTransfers& measured) {
    for (TransferDirection direction : {TransferDirection::ToGpu, TransferDirection::ToHost})
        for (TransferMechanism mechanism : kTransferMechanisms) {
            const TransferCurve& curve = measured.curve(direction, mechanism);
            std::string why = curveProblem(curve);
            if (why.empty()) why = outOfDurationRange(curve.floor);
            if (!why.empty())
                throw std::invalid_argument(fmt::format("transfers.{}.{}: {}", toString(direction), toString(mechanism), why));
        }
}

const TransferCurve& MeasuredTransfers::curve(TransferDirection direction, TransferMechanism mechanism) const {
    const auto& side = direction == TransferDirection::ToGpu ? hostToGpu : gpuToHost;
    return side[static_cast<std::size_t>(mechanism)];
}

TransferCurve& MeasuredTransfers::curve(TransferDirection direction, TransferMechanism mechanism) {
    auto& side = direction == TransferDirection::ToGpu ? hostToGpu : gpuToHost;
    return side[static_cast<std::size_t>(mechanism)];
}

bool MeasuredTransfers::empty() const {
    for (const auto& c : hostToGpu)
        if (!c.empty()) return false;
    for (const auto& c : gpuToHost)
        if (!c.empty()) return false;
    for (bool d : duplex)
        if (!d) return false;
    return true;
}

}  // namespace spillway
