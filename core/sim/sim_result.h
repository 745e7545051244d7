#pragma once
// What a simulation tells: per kernel where its window went, traffic per link and direction,
// resident bytes per tier over time, and per tensor where it lived. Immutable once made; the
// app hands it to the views as is.
#include "core/hardware/hardware.h"
#include "core/trace/units.h"

#include <algorithm>
#include <string>
#include <vector>

namespace spillway {

// Every nanosecond of [start, end) is exactly one of compute, faultStall, oversubStall,
// latePrefetchStall or nvlinkStall:
// compute + faultStall + oversubStall + latePrefetchStall + nvlinkStall == end - start.
// `overlap` is transfer time that ran beside the kernel (hidden), reported, not part of the sum.
struct KernelTiming {
    Nanoseconds start = 0;
    Nanoseconds end = 0;
    Nanoseconds compute = 0;
    Nanoseconds faultStall = 0;         // waiting for demand-paged data (UVM faults)
    Nanoseconds oversubStall = 0;       // evicting on the critical path because the GPU was full
    Nanoseconds latePrefetchStall = 0;  // waiting for a prefetch that was issued but not done
    Nanoseconds nvlinkStall = 0;        // several GPUs: the NVLink scatter before and reduce after (0 on one GPU)
    Nanoseconds overlap = 0;
    Bytes faultedBytes = 0;
    bool operator==(const KernelTiming&) const = default;
};

enum class LinkId { HostToGpu, GpuToHost, SsdToGpu, GpuToSsd, SsdToHost, HostToSsd, NvLink };
inline constexpr int kLinkCount = 7;
std::string_view toString(LinkId link);

// One transfer on one link: queued behind earlier ones, it occupies the link from start to end
// (latency included).
struct TransferRecord {
    LinkId link = LinkId::HostToGpu;
    Nanoseconds start = 0;
    Nanoseconds end = 0;
    Bytes bytes = 0;
    bool operator==(const TransferRecord&) const = default;
};

struct ResidencySample {
    Nanoseconds time = 0;
    Bytes gpu = 0;
    Bytes host = 0;
    Bytes ssd = 0;
    Bytes inFlight = 0;
    bool operator==(const ResidencySample&) const = default;
};

// Discarded: no copy anywhere because a discard directive dropped the data (UVM Discard), as
// opposed to Absent (never written yet, or freed). Appended last: stored results keep their codes.
enum class Residence { Gpu, Host, Ssd, InFlight, Absent, Discarded };

struct ResidencyInterval {
    Nanoseconds start = 0;
    Nanoseconds end = 0;
    Residence where = Residence::Absent;
    bool operator==(const ResidencyInterval&) const = default;
};

// A use of a tensor whose data had to be fetched on demand: when its kernel started, some of
// it was on the host or SSD, neither on the GPU nor on its way there (a UVM fault under paging;
// a synchronous read in the tensor-level replay). First touches (zero-fill) are not counted.
struct DemandFetch {
    std::int64_t runIndex = 0;   // the kernel's place in the run order (KernelTiming index)
    std::int64_t tensorPos = 0;  // position in Profile::tensors
    Residence from = Residence::Host;  // Host or Ssd: where (most of) the data was
    Bytes bytes = 0;             // of the tensor, fetched
    bool operator==(const DemandFetch&) const = default;
};

struct StallTotals {
    Nanoseconds compute = 0;
    Nanoseconds faultStall = 0;
    Nanoseconds oversubStall = 0;
    Nanoseconds latePrefetchStall = 0;
    Nanoseconds nvlinkStall = 0;
    Nanoseconds overlap = 0;
    bool operator==(const StallTotals&) const = default;
};

// Several GPUs (HardwareConfig::gpuCount > 1): what one GPU did. GPU 0 is the home GPU that
// moves every tensor to and from host/SSD and stores it; the others hold the running kernel's
// shards, scattered to them and reduced back over NVLink (docs/simulator.md, "Several GPUs
// over NVLink").
struct GpuSummary {
    Nanoseconds iterationTime = 0;  // lock-step: the same on every GPU
    Bytes pcieBytes = 0;            // host<->GPU, both directions, over this GPU's own PCIe link
    Bytes ssdBytes = 0;             // SSD<->GPU direct, both directions
    Bytes nvlinkOutBytes = 0;       // sent over this GPU's NVLink port
    Bytes nvlinkInBytes = 0;        // received over it
    Bytes peakGpuBytes = 0;
    bool operator==(const GpuSummary&) const = default;
};

struct SimulationResult {
    std::string policy;
    std::string hardware;
    // Non-empty when the run is impossible (a contiguous allocation that no transfer can make
    // room for, or a plan its planner refused): what did not fit, where. The rest is then empty.
    std::string cannotRun;
    Nanoseconds iterationTime = 0;           // the reported (last) iteration
    // Every simulated iteration's time, the warm-up ones first (the last is iterationTime).
    // G10's artifact scripts publish the shorter of its two iterations (gatherKernelInfo.py),
    // so comparisons with G10 use shortestIterationTime(); see docs/validation.md.
    std::vector<Nanoseconds> iterationTimes;
    Nanoseconds shortestIterationTime() const {
        Nanoseconds best = iterationTime;
        for (Nanoseconds t : iterationTimes) best = std::min(best, t);
        return best;
    }
    Nanoseconds idealTime = 0;               // sum of kernel durations
    StallTotals totals;                      // over the reported iteration
    std::vector<KernelTiming> kernels;       // the reported iteration, in run order
    Bytes traffic[kLinkCount] = {};          // bytes moved per link and direction (reported iteration)
    // Write-backs and copies UVM Discard avoided: all-link traffic of the same plan without its
    // discard directives minus this run's (0 when nothing would have moved; see simulator.cpp).
    Bytes discardSavedBytes = 0;
    std::int64_t faultBatches = 0;
    std::vector<ResidencySample> residency;  // over the reported iteration, at every change
    // Every transfer issued during the reported iteration, in issue order per link (with
    // SimulationOptions::recordTransfers).
    std::vector<TransferRecord> transfers;
    std::vector<std::vector<ResidencyInterval>> tensorResidency;  // parallel to Profile::tensors
    Bytes peakGpuBytes = 0;
    // Conservation over the reported iteration, block by block (workspace excluded: it lives
    // inside one kernel): gpuBytesAtStart + gpuBytesIn - gpuBytesOut == gpuBytesAtEnd.
    Bytes gpuBytesAtStart = 0;
    Bytes gpuBytesAtEnd = 0;
    Bytes gpuBytesIn = 0;                    // copied in or zero-filled onto the GPU
    Bytes gpuBytesOut = 0;                   // copied out or dropped (discard, free, recompute)
    Bytes zeroFilledBytes = 0;               // of gpuBytesIn: allocated without a copy
    Nanoseconds recomputeTime = 0;           // of totals.compute: producers re-run for Recompute
    // Checked independently at each kernel: required blocks not on the GPU when it computes.
    // The model guarantees 0; the tests hold it to that.
    std::int64_t kernelsWithAbsentBlocks = 0;
    // With SimulationOptions::recordDemandFetches: every demand fetch of the reported iteration,
    // in run order (the plan verifier's "used while absent"). Not stored with kept runs.
    std::vector<DemandFetch> demandFetches;
    // Several GPUs only (empty on one GPU): per GPU, GPU 0 first. allReducedBytes: 0 since
    // issue 18 split each kernel (no replicas, no all-reduce); kept for stored results.
    std::vector<GpuSummary> gpus;
    Bytes allReducedBytes = 0;
    bool operator==(const SimulationResult&) const = default;
};

}  // namespace spillway
