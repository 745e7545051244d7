#pragma once
// The machine a profile is replayed on: tier capacities, links, UVM fault handling, and the
// fault-cost model. All integers (bytes, bytes per second, nanoseconds) so simulations are
// repeatable bit for bit. Presets live in resources/hardware/*.json (see hardware_presets.h);
// every field can be overridden by name with --set key=value (see hardware_keys.h).
#include "core/hardware/discard_cost.h"
#include "core/hardware/transfer_curve.h"
#include "core/trace/units.h"

#include <string>
#include <string_view>

namespace spillway {

enum class Tier { Gpu, Host, Ssd };
std::string_view toString(Tier tier);

// One direction of one link: a FIFO queue, each transfer pays the latency once and then moves
// its bytes at the bandwidth.
struct LinkSpec {
    std::int64_t bytesPerSecond = 0;  // 0 = link absent
    Nanoseconds latency = 0;
    bool operator==(const LinkSpec&) const = default;
};

enum class FaultModel {
    // latency per fault batch + bytes over the link
    Analytic,
    // G10's per-kernel model from the measured PF / InputPF kernel times (see the G10 data
    // README, "How G10's simulator charges faults")
    G10Calibrated,
};
std::string_view toString(FaultModel model);

struct HardwareConfig {
    std::string id;
    std::string description;

    Bytes gpuCapacity = 0;
    Bytes hostCapacity = 0;   // host memory available for evicted data
    Bytes ssdCapacity = 0;

    LinkSpec hostToGpu;       // PCIe
    LinkSpec gpuToHost;
    LinkSpec ssdToGpu;        // direct (GPUDirect Storage style)
    LinkSpec gpuToSsd;
    LinkSpec ssdToHost;
    LinkSpec hostToSsd;
    LinkSpec nvlink;          // between GPUs, per direction
    int gpuCount = 1;

    // UVM demand paging
    Bytes pageSize = 4096;
    Bytes blockSize = 2 * kMiB;          // residency granule (UVM VABlock)
    std::int64_t faultBatchPages = 256;  // pages handled per fault batch
    Nanoseconds faultLatency = 45'000;   // per fault batch
    // GPU-side allocation cost of first-touch pages, in femtoseconds per byte
    // (G10: 0.000000814 us per byte = 814 fs/B).
    std::int64_t allocFemtosecondsPerByte = 0;
    FaultModel faultModel = FaultModel::Analytic;
    // UVM Discard (eager): one call's cost (PTE clear + TLB invalidation, acknowledged by the
    // GPU) on the critical path of the next kernel, read off `discardCost` at the size it
    // unmaps (Table 2 of the paper by default). `discardUnmapPerBlock` above 0 is the older
    // flat price per GPU-resident block and wins over the curve (files and --set that give
    // discard_unmap_ns keep their meaning; setting it to 0 clears the curve: discards are free).
    // The lazy variant only flips a software dirty bit and is charged nothing.
    Nanoseconds discardUnmapPerBlock = 0;
    std::vector<DiscardCostPoint> discardCost = uvmDiscardTable2();
    // What every kernel costs besides its profiled time: launch and, in a replay, the events
    // timed around it (H200: 4.59 us per empty kernel, 7.70 us with two events). 0 = free.
    Nanoseconds kernelLaunch = 0;
    // What every directive of a replay costs on its side stream besides its CUDA call: the
    // events around it and the waits before it (H200: about 3 us, half of it between its
    // events). Only the replay model (runtime/replay/model_backend.h) uses it. 0 = free.
    Nanoseconds directiveOverhead = 0;
    // Measured transfer times by size, mechanism and direction (transfer_curve.h); empty for a
    // machine described by one bandwidth and latency per link.
    MeasuredTransfers measured;

    // Where persistent tensors (weights) are at the start of the first simulated iteration.
    Tier weightsStartOn = Tier::Host;
    // Iterations simulated; the last one is reported (G10 simulates 2, reports the second).
    int iterations = 2;
    // Planner safety margin in permille (G10: 0.5 -> 500): how much of a link's bandwidth a
    // planner may budget.
    std::int64_t plannerSafetyPermille = 500;

    bool operator==(const HardwareConfig&) const = default;
};

// Time to move `bytes` over `link` excluding latency, rounded up; a link with no bandwidth
// returns a very large value (the transfer never completes in practice); a time past 2^63 ns
// throws NumberOverflow (core/trace/number_limits.h).
Nanoseconds transferTime(const LinkSpec& link, Bytes bytes);

// The one rule for what a host <-> GPU transfer costs: the machine's measured curve for that
// direction and mechanism when it has one, else the link's latency + bytes / bandwidth.
Nanoseconds hostLinkTime(const HardwareConfig& hardware, TransferDirection direction, TransferMechanism mechanism,
                         Bytes bytes);

// What an eager discard that unmaps `blocks` GPU-resident blocks holding `bytes` costs: the
// per-block price when one is set, else the machine's discard cost curve (discard_cost.h).
Nanoseconds discardUnmapTime(const HardwareConfig& hardware, std::int64_t blocks, Bytes bytes);

}  // namespace spillway
