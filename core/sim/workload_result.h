#pragma once
// What a multi-job run (core/sim/workload_sim.h) tells: per job and for the system, peak GPU
// memory, iteration and total times, where each kernel window went (compute, swap stall,
// passive swap, recompute), every swap task on the link, memory over time, and every re-plan.
// Jobs are numbered by their place in the workload (0, 1, ...). Integer ns and bytes.
#include "core/workload/workload.h"
#include "core/trace/units.h"

#include <string>
#include <vector>

namespace spillway {

struct MemorySample {
    Nanoseconds time = 0;
    Bytes bytes = 0;  // from this time on, until the next sample
    bool operator==(const MemorySample&) const = default;
};

enum class SwapDirection { Out, In };   // GPU -> host, host -> GPU
enum class SwapCause {
    Planned,  // a plan's PreEvict or Prefetch
    Demand,   // a kernel read a tensor that was on the host only: swapped in while it waited
    Passive,  // an allocation did not fit: a least recently used tensor swapped out while it waited
};
std::string_view toString(SwapDirection direction);
std::string_view toString(SwapCause cause);

// One swap task: queued at `issue`, on the link from `start` to `end` (latency included).
struct SwapTask {
    int job = 0;
    TensorId tensor = 0;
    SwapDirection direction = SwapDirection::Out;
    SwapCause cause = SwapCause::Planned;
    Nanoseconds issue = 0;
    Nanoseconds start = 0;
    Nanoseconds end = 0;
    Bytes bytes = 0;
    bool operator==(const SwapTask&) const = default;
};

// One kernel of one iteration. Its window [start, end) is exactly
// compute + recompute + swapStall + passiveSwapStall (end - start); under processor sharing
// compute is wall time, longer than the profiled duration when other jobs compute too.
struct WorkloadKernelRun {
    int iteration = 0;
    std::int64_t position = 0;  // kernel position in the job's profile
    Nanoseconds start = 0;
    Nanoseconds end = 0;
    Nanoseconds compute = 0;
    Nanoseconds recompute = 0;         // producers re-run for Recompute directives
    Nanoseconds swapStall = 0;         // waiting for an input that was not on the GPU
    Nanoseconds passiveSwapStall = 0;  // waiting for a passive swap-out to make room
    bool operator==(const WorkloadKernelRun&) const = default;
};

struct WorkloadJobResult {
    std::string name;
    Nanoseconds start = 0;                    // the job's start time
    Nanoseconds end = 0;                      // when its last iteration ended
    std::vector<Nanoseconds> iterationTimes;  // one per iteration
    Bytes peakGpuBytes = 0;                   // this job's tensors and workspaces on the GPU
    Nanoseconds compute = 0;
    Nanoseconds recompute = 0;
    Nanoseconds swapStall = 0;
    Nanoseconds passiveSwapStall = 0;
    std::int64_t swapOuts = 0;
    std::int64_t swapIns = 0;
    Bytes swapOutBytes = 0;
    Bytes swapInBytes = 0;
    // Directives that could not act: a prefetch that did not fit (the read then swaps in on
    // demand), a swap-out or release of a tensor that was not on the GPU.
    std::int64_t droppedDirectives = 0;
    std::vector<MemorySample> memory;         // this job's GPU bytes at every change
    std::vector<WorkloadKernelRun> kernels;   // every iteration, in run order
    // Per kernel position: the corrected (EWMA) duration estimate at the end of the run.
    std::vector<Nanoseconds> estimates;
    Nanoseconds totalTime() const { return end - start; }
    bool operator==(const WorkloadJobResult&) const = default;
};

// Why the planner was asked again.
// Observed: a job whose plan asked to be re-planned once its iteration had been observed (plan
// note "replan_after_iteration", Capuchin's passive first iteration) completed that iteration.
enum class ReplanReason { JobsChanged, Drift, Observed };
std::string_view toString(ReplanReason reason);

struct ReplanEvent {
    Nanoseconds time = 0;
    ReplanReason reason = ReplanReason::JobsChanged;
    int triggeringJob = 0;           // the job about to start an iteration
    std::vector<int> jobs;           // the jobs planned (all running), in workload order
    std::vector<int> started;        // JobsChanged: jobs new since the last plan
    std::vector<int> ended;          // JobsChanged: jobs gone since the last plan
    // Per planned job: how far its estimates had drifted from its previous plan's, in millionths
    // (0 for a job planned for the first time).
    std::vector<std::int64_t> driftPpm;
    bool operator==(const ReplanEvent&) const = default;
};

struct WorkloadResult {
    std::string policy;
    std::string hardware;
    LinkMode linkMode = LinkMode::Single;
    // Non-empty when the run is impossible (an allocation nothing can make room for): what, where
    // and the numbers. The other fields then hold what happened until then.
    std::string cannotRun;
    std::vector<WorkloadJobResult> jobs;      // workload order
    Bytes peakGpuBytes = 0;                   // all jobs together
    Nanoseconds start = 0;                    // first job's start
    Nanoseconds end = 0;                      // last job's end
    std::vector<MemorySample> memory;         // all jobs' GPU bytes at every change
    std::vector<SwapTask> transfers;          // in issue order
    std::vector<ReplanEvent> replans;
    Nanoseconds makespan() const { return end - start; }
    bool operator==(const WorkloadResult&) const = default;
};

}  // namespace spillway
