#pragma once
// The multi-job simulator's state and event loop (private to core/sim/workload_*.cpp).
// workload_engine.cpp: the loop, processor sharing and each job's kernel steps;
// workload_engine_memory.cpp: allocation, passive swap, releases, the link and the directives;
// workload_replan.cpp: the planner calls, EWMA estimates and drift.
#include "core/workload/workload.h"
#include "core/plan/multi_job_plan.h"
#include "core/sim/workload_result.h"

#include <cstdint>
#include <memory>
#include <queue>
#include <string>
#include <vector>

namespace spillway::wl {

enum class Where { Absent, Gpu, Arriving };
// What a release leaves behind: nothing (dead until written again), a tensor to rebuild by
// re-running its producer, or the host copy (swapped out).
enum class ReleaseMode { Dead, Recompute, Swapped };

struct TensorRun {
    Bytes bytes = 0;
    bool persistent = false;
    std::int64_t producer = -1;     // first kernel position writing it (-1: none, e.g. input data)
    Where where = Where::Absent;
    bool hostValid = false;         // a current copy is in host memory
    bool recomputePending = false;  // released by Recompute: its producer re-runs before the next read
    bool releaseAfterUse = false;   // release when the kernel using it ends
    ReleaseMode releaseMode = ReleaseMode::Dead;
    bool releaseWhenCopied = false; // a swap-out: release the GPU copy once the copy has landed
    std::uint64_t outTask = 0;      // the swap-out in flight (event seq), 0 = none
    int pins = 0;                   // > 0 while a started kernel uses it
    Nanoseconds readyAt = 0;        // Arriving: when the swap-in lands
    Nanoseconds lastUse = 0;        // for LRU passive swap
    std::uint64_t version = 0;      // bumped by every write and release: stale completions are ignored
};

// HostTime and Sync follow Compute when the workload synchronises every operator: the
// operator's host-side time, then the wait for the transfers its job had queued (Workload::
// syncEveryOperator).
enum class Phase { NotArrived, IterationStart, Inputs, WaitInput, WaitRoom, Recompute, Compute, HostTime, Sync, Done };

// A kernel's tensors by index into the job's profile: inputs (unique), then outputs not read.
struct KernelTensors {
    std::vector<std::int64_t> inputs;
    std::vector<std::int64_t> outputsOnly;
};

struct JobRun {
    const WorkloadJob* spec = nullptr;
    std::shared_ptr<const ProfileIndex> profileIndex;
    int index = 0;
    std::vector<TensorRun> tensors;
    std::vector<KernelTensors> kernelTensors;  // per kernel position

    Plan plan;
    // Bumped at every plan switch. A delayed directive of an older plan that has not fired by then
    // belongs to an iteration the new plan does not know about: it is dropped, except a swap-out
    // of a tensor the new plan also expects off the GPU at its start (restoreAtPlanSwitch).
    std::uint64_t planGeneration = 0;
    // Per tensor: the plan swaps it in before its first access (it expects it off the GPU at
    // the iteration start: an updated parameter whose wrap gap it swaps).
    std::vector<char> absentAtStart;
    Plan pendingPlan;
    bool hasPendingPlan = false;
    std::vector<std::int64_t> runOrder;                 // kernel positions
    std::vector<std::vector<Directive>> before, after;  // per kernel position
    std::vector<std::vector<std::int64_t>> freeAfterStep;  // per run step: tensors whose last use it is

    std::vector<Nanoseconds> estimates;      // EWMA kernel durations, per position
    std::vector<Nanoseconds> planEstimates;  // the estimates the current plan was made with
    std::vector<Nanoseconds> measured;       // this iteration's compute wall time per position
    bool planned = false;
    // Its plan (note "replan_after_iteration") asks for a new one once the iteration it was made
    // before has run: Capuchin plans only after observing one passive iteration.
    bool replanAfterIteration = false;
    int plannedAtIteration = 0;

    Phase phase = Phase::NotArrived;
    Nanoseconds phaseSince = 0;
    int iteration = 0;
    std::size_t step = 0;      // index into runOrder
    std::size_t cursor = 0;    // inputs then outputs then workspace of the current kernel
    Nanoseconds iterationStart = 0;
    Nanoseconds computeStart = 0;
    Nanoseconds remaining = 0; // work left in the Compute/Recompute phase, ns at full speed
    std::int64_t recomputing = -1;  // tensor being rebuilt in Recompute
    Bytes reserved = 0;        // room being made for this job by passive swap-outs
    // Its kernel's tensors were unpinned so another waiting job could swap them out (breaking
    // a deadlock); it starts its kernel's allocations again once no other job makes room.
    bool suspended = false;
    int suspendedFor = -1;                 // the job it makes room for
    std::int64_t suspendedAtAllocation = 0;  // that job's allocation count then
    std::int64_t allocations = 0;          // successful allocations so far
    Bytes gpuBytes = 0;
    Nanoseconds transfersUntil = 0;  // when the last transfer this job queued lands
    Nanoseconds waitUntil = 0;       // HostTime / Sync: when that phase ends
    std::string roomProblem;   // why the last allocation had to wait (for an impossible run)
    WorkloadKernelRun current;
    WorkloadJobResult result;
};

enum class EventKind { Arrive, Issue, SwapOutDone, SwapInDone, Wake };  // Wake: a HostTime / Sync wait ends

struct Event {
    Nanoseconds time = 0;
    std::uint64_t seq = 0;
    EventKind kind = EventKind::Arrive;
    int job = 0;
    std::int64_t tensor = -1;  // index into the job's tensors
    std::uint64_t version = 0;
    std::uint64_t planGeneration = 0;  // Issue: the plan the directive belongs to
    Directive directive;
    bool operator>(const Event& o) const { return time != o.time ? time > o.time : seq > o.seq; }
};

class Engine {
public:
    Engine(const Workload& workload, const MultiJobPlannerInfo& planner);
    WorkloadResult run();

private:
    // workload_engine.cpp
    bool stepJob(JobRun& job);
    bool startIteration(JobRun& job);
    void startKernel(JobRun& job);
    bool ensureTensors(JobRun& job);
    void finishCompute(JobRun& job);
    bool waitEnded(JobRun& job);
    void waitFor(JobRun& job, Phase phase, Nanoseconds until);
    void endKernel(JobRun& job);
    void finishJob(JobRun& job);
    bool breakDeadlock();
    void pinKernel(JobRun& job, int delta);
    void setPhase(JobRun& job, Phase phase);
    void processEvents();
    void schedule(Event event);
    std::int64_t kernelAt(const JobRun& job) const { return job.runOrder[job.step]; }

    // workload_engine_memory.cpp
    enum class Room { Ok, Wait, Impossible };
    Room allocate(JobRun& job, Bytes bytes, const std::string& what);
    Room makeRoom(JobRun& job, Bytes bytes, const std::string& what);
    void addGpuBytes(JobRun& job, Bytes delta);
    void release(JobRun& job, std::int64_t tensor, ReleaseMode mode);
    void releaseOrDefer(JobRun& job, std::int64_t tensor, ReleaseMode mode);
    Nanoseconds enqueueSwap(JobRun& job, std::int64_t tensor, SwapDirection direction, SwapCause cause,
                            std::uint64_t* seqOut);
    void swapOut(JobRun& job, std::int64_t tensor, SwapCause cause);
    void issueDirective(JobRun& job, const Directive& d);
    void issueDirectives(JobRun& job, const std::vector<Directive>& list);
    void restoreAtPlanSwitch(JobRun& job);
    bool staleSwapOutAgrees(const JobRun& job, const Directive& d) const;
    void onSwapOutDone(const Event& e);
    void onSwapInDone(const Event& e);
    void setImpossible(const std::string& why);

    // workload_replan.cpp
    void maybeReplan(JobRun& job);
    void adoptPlan(JobRun& job, Plan plan);
    MultiJobPlanInput planInput(const std::vector<int>& active, int trigger) const;

    const Workload& workload_;
    const MultiJobPlannerInfo& planner_;
    std::vector<JobRun> jobs_;
    std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events_;
    std::uint64_t nextSeq_ = 1;
    Nanoseconds now_ = 0;
    Bytes gpuUsed_ = 0;
    Nanoseconds linkBusyUntil_[2] = {0, 0};  // single: [0] only; duplex: [0] out, [1] in
    // Swaps in and out overlap: the workload's link mode is duplex and so are the machine's
    // pinned copies (MeasuredTransfers::duplex).
    bool duplexLink() const {
        return workload_.linkMode == LinkMode::Duplex && workload_.hardware.measured.isDuplex(TransferMechanism::PinnedCopy);
    }
    std::vector<int> lastPlanned_;           // jobs in the last plan
    WorkloadResult result_;
};

}  // namespace spillway::wl
