#pragma once
// What a real machine measured: how long one transfer between host and GPU takes as a function
// of its size, per mechanism (managed prefetch, fault-driven migration, pinned copy) and per
// direction, and whether the two directions of a mechanism overlap. A machine without
// measurements (every preset but h200) leaves these empty and keeps its links' one bandwidth
// and latency, so G10's and MOST's presets behave exactly as before.
#include "core/trace/units.h"

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace spillway {

// How bytes cross the host <-> GPU link. Real hardware moves them at very different rates:
// on the H200 of ../shared/data/h200, a 2 MiB managed prefetch to the GPU ran at 11 GB/s, a
// pinned copy at 34 GB/s, fault-driven migration at 4.6 GB/s.
// DiscardedFault is the odd one: GPU faults on managed pages that cudaMemDiscardBatchAsync
// dropped. Nothing crosses the link (the driver gives them back zero-filled), yet on the H200
// they ran at 1.2 to 1.5 GB/s alone, a fifth of a fault that migrates, and at ~150 us per 64 KiB
// inside a replay (docs/validation.md, "Real GPU"). Only its host_to_gpu curve exists; without
// one it costs what FaultMigration does.
enum class TransferMechanism { ManagedPrefetch, FaultMigration, PinnedCopy, DiscardedFault };
inline constexpr std::array kTransferMechanisms{TransferMechanism::ManagedPrefetch, TransferMechanism::FaultMigration,
                                                TransferMechanism::PinnedCopy, TransferMechanism::DiscardedFault};
// "managed_prefetch", "fault_migration", "pinned_copy", "discarded_fault" (the JSON keys)
std::string_view toString(TransferMechanism mechanism);

enum class TransferDirection { ToGpu, ToHost };
std::string_view toString(TransferDirection direction);  // "host_to_gpu", "gpu_to_host"

// One measurement: a transfer of `bytes` ran at `bytesPerSecond` (its bytes over its whole time).
struct CurvePoint {
    Bytes bytes = 0;
    std::int64_t bytesPerSecond = 0;
    bool operator==(const CurvePoint&) const = default;
};

// A transfer's time as a function of its size, through measured points (ascending, distinct
// sizes, positive rates). Between two points the time is linear in the size; below the first
// point the first point's rate holds, above the last the last's. No transfer takes less than
// `floor` (what one call costs however small it is). Empty = not measured.
struct TransferCurve {
    std::vector<CurvePoint> points;
    Nanoseconds floor = 0;
    bool empty() const { return points.empty(); }
    bool operator==(const TransferCurve&) const = default;
};

// Throws NumberOverflow past 2^63 ns; an empty curve has no time (std::logic_error).
Nanoseconds curveTime(const TransferCurve& curve, Bytes bytes);
// Why the curve cannot be used ("" when it can): unsorted or repeated sizes, a zero rate.
std::string curveProblem(const TransferCurve& curve);

struct MeasuredTransfers {
    std::array<TransferCurve, kTransferMechanisms.size()> hostToGpu;
    std::array<TransferCurve, kTransferMechanisms.size()> gpuToHost;
    // Whether a mechanism's transfers in opposite directions run at the same time (PCIe is
    // duplex; on the H200 managed prefetches to the host and to the GPU did not overlap).
    std::array<bool, kTransferMechanisms.size()> duplex{true, true, true, true};

    const TransferCurve& curve(TransferDirection direction, TransferMechanism mechanism) const;
    TransferCurve& curve(TransferDirection direction, TransferMechanism mechanism);
    bool isDuplex(TransferMechanism mechanism) const { return duplex[static_cast<std::size_t>(mechanism)]; }
    bool empty() const;
    bool operator==(const MeasuredTransfers&) const = default;
};

// Throws std::invalid_argument naming the curve ("transfers.host_to_gpu.managed_prefetch: point
// 1: ...") when one cannot be used (curveProblem) or its floor is past 2^50 ns. Every engine
// checks a machine with it before it prices a transfer.
void checkMeasuredTransfers(const MeasuredTransfers& measured);

}  // namespace spillway
