// The multi-job event loop. Time advances to the next event (a job arriving, a delayed
// directive, a transfer landing) or the next kernel to finish under processor sharing: with k
// jobs computing, each progresses at 1/k speed, so the first to finish does so at
// now + min(remaining) * k (exact), and the others lose dt / k of work (rounded down, at most
// 1 ns per change of k). Between time steps every job moves as far as it can, in workload order,
// until none can: that order breaks every tie, so runs are repeatable bit for bit.
#include "core/sim/workload_engine.h"

#include "core/analysis/liveness.h"
#include "core/analysis/profile_totals.h"
#include "core/sim/checked_time.h"
#include "core/sim/workload_sim.h"
#include "core/trace/number_limits.h"

#include <algorithm>
#include <limits>

namespace spillway::wl {

namespace {
constexpr std::string_view kClock = "the simulated time";
}  // namespace

Engine::Engine(const Workload& workload, const MultiJobPlannerInfo& planner)
    : workload_(workload), planner_(planner) {
    result_.policy = planner.id;
    result_.hardware = workload.hardware.id;
    result_.linkMode = workload.linkMode;
    checkMeasuredTransfers(workload.hardware.measured);  // before a curve prices a swap
    // What the GPU holds is a sum of the jobs' tensors and workspaces: within this checked total,
    // so gpuUsed_ and each job's bytes are added unchecked. The clock is checked where it grows
    // (a swap's end, a delayed directive, processor sharing); a job's phase times are disjoint
    // spans of it.
    Bytes allJobs = 0;
    for (const WorkloadJob& spec : workload.jobs)
        allJobs = checkedAdd(allJobs, checkedProfileTotals(spec.profile).allBytes, "the total size of the workload's jobs");
    jobs_.resize(workload.jobs.size());
    for (std::size_t j = 0; j < jobs_.size(); ++j) {
        JobRun& job = jobs_[j];
        const WorkloadJob& spec = workload.jobs[j];
        const Profile& profile = spec.profile;
        job.spec = &spec;
        job.index = static_cast<int>(j);
        job.result.name = spec.name;
        job.result.start = spec.start;
        job.profileIndex = std::make_shared<const ProfileIndex>(profile);
        const ProfileIndex& index = *job.profileIndex;
        const Liveness live = computeLiveness(profile);
        job.tensors.resize(profile.tensors.size());
        for (std::size_t t = 0; t < profile.tensors.size(); ++t) {
            job.tensors[t].bytes = profile.tensors[t].bytes;
            job.tensors[t].persistent = profile.tensors[t].persistent;
            job.tensors[t].producer = live.tensors[t].producer;
        }
        job.kernelTensors.resize(profile.kernels.size());
        for (std::size_t k = 0; k < profile.kernels.size(); ++k) {
            auto& kt = job.kernelTensors[k];
            for (TensorId id : profile.kernels[k].inputs) {
                const auto pos = index.tensorPos(id);
                if (pos >= 0 && std::find(kt.inputs.begin(), kt.inputs.end(), pos) == kt.inputs.end())
                    kt.inputs.push_back(pos);
            }
            for (TensorId id : profile.kernels[k].outputs) {
                const auto pos = index.tensorPos(id);
                if (pos >= 0 && std::find(kt.inputs.begin(), kt.inputs.end(), pos) == kt.inputs.end() &&
                    std::find(kt.outputsOnly.begin(), kt.outputsOnly.end(), pos) == kt.outputsOnly.end())
                    kt.outputsOnly.push_back(pos);
            }
            // Under per-operator sync the first estimate is the operator as the CPU sees it.
            const Nanoseconds host = workload.syncEveryOperator ? workload.operatorHostTime : 0;
            job.estimates.push_back(checkedAdd(sim::launchedDuration(profile.kernels[k].duration, workload.hardware),
                                               host, kClock));
        }
        job.measured.assign(profile.kernels.size(), 0);
        adoptPlan(job, Plan{});  // program order, no directives, until the first plan
        Event arrive;
        arrive.time = spec.start;
        arrive.kind = EventKind::Arrive;
        arrive.job = job.index;
        schedule(arrive);
    }
}

void Engine::schedule(Event event) {
    event.seq = nextSeq_++;
    events_.push(std::move(event));
}

void Engine::setPhase(JobRun& job, Phase phase) {
    const Nanoseconds spent = now_ - job.phaseSince;
    switch (job.phase) {
        case Phase::WaitInput: job.current.swapStall += spent; break;
        case Phase::WaitRoom: job.current.passiveSwapStall += spent; break;
        case Phase::Recompute: job.current.recompute += spent; break;
        case Phase::Compute: job.current.compute += spent; break;
        case Phase::HostTime: job.current.compute += spent; break;  // the operator's CPU-side time
        case Phase::Sync: job.current.swapStall += spent; break;    // waiting for its transfers
        default: break;
    }
    job.phase = phase;
    job.phaseSince = now_;
}

void Engine::processEvents() {
    while (!events_.empty() && events_.top().time <= now_) {
        const Event e = events_.top();
        events_.pop();
        JobRun& job = jobs_[e.job];
        switch (e.kind) {
            case EventKind::Arrive:
                job.phase = Phase::IterationStart;
                job.phaseSince = now_;
                break;
            case EventKind::Issue:
                if (job.phase == Phase::Done) break;
                if (e.planGeneration == job.planGeneration || staleSwapOutAgrees(job, e.directive))
                    issueDirective(job, e.directive);
                else
                    ++job.result.droppedDirectives;  // its plan was replaced
                break;
            case EventKind::SwapOutDone: onSwapOutDone(e); break;
            case EventKind::SwapInDone: onSwapInDone(e); break;
            case EventKind::Wake: break;  // the job moves in stepJob
        }
    }
}

WorkloadResult Engine::run() {
    result_.start = std::numeric_limits<Nanoseconds>::max();
    for (const auto& job : jobs_) result_.start = std::min(result_.start, job.spec->start);
    now_ = result_.start;
    while (result_.cannotRun.empty()) {
        processEvents();
        // Every kernel that ends now ends before any job starts its next iteration, so a re-plan
        // sees all the measurements and all the jobs that finished at this time.
        for (auto& job : jobs_)
            if (job.phase == Phase::Compute && job.remaining == 0) finishCompute(job);
        for (bool moved = true; moved && result_.cannotRun.empty();) {
            moved = false;
            for (auto& job : jobs_) moved = stepJob(job) || moved;
        }
        if (!result_.cannotRun.empty()) break;
        if (std::all_of(jobs_.begin(), jobs_.end(), [](const JobRun& j) { return j.phase == Phase::Done; })) break;

        Nanoseconds next = events_.empty() ? std::numeric_limits<Nanoseconds>::max() : events_.top().time;
        std::int64_t sharers = 0;
        Nanoseconds least = std::numeric_limits<Nanoseconds>::max();
        for (const auto& job : jobs_)
            if ((job.phase == Phase::Compute || job.phase == Phase::Recompute) && job.remaining > 0) {
                ++sharers;
                least = std::min(least, job.remaining);
            }
        if (sharers > 0) next = std::min(next, checkedAdd(now_, checkedMul(least, sharers, kClock), kClock));
        if (next == std::numeric_limits<Nanoseconds>::max() && breakDeadlock()) continue;
        if (next == std::numeric_limits<Nanoseconds>::max()) {
            // Nothing computes and nothing is under way: every unfinished job waits for room
            // that no one will free.
            std::string why;
            for (const auto& job : jobs_)
                if (job.phase == Phase::WaitRoom && why.empty()) why = job.roomProblem;
            setImpossible(why.empty() ? "every job is waiting and nothing is under way" : why);
            break;
        }
        const Nanoseconds dt = next - now_;
        if (sharers > 0)
            for (auto& job : jobs_)
                if ((job.phase == Phase::Compute || job.phase == Phase::Recompute) && job.remaining > 0)
                    job.remaining = job.remaining * sharers <= dt ? 0 : job.remaining - dt / sharers;
        now_ = next;
    }
    result_.end = result_.start;
    for (auto& job : jobs_) {
        if (job.phase != Phase::Done) job.result.end = now_;
        job.result.estimates = job.estimates;
        result_.end = std::max(result_.end, job.result.end);
        result_.jobs.push_back(std::move(job.result));
    }
    return std::move(result_);
}

// Moves the job as far as it can at now_; false when it could not move at all.
bool Engine::stepJob(JobRun& job) {
    bool moved = false;
    while (result_.cannotRun.empty()) {
        switch (job.phase) {
            case Phase::NotArrived:
            case Phase::Done:
                return moved;
            case Phase::IterationStart:
                if (!startIteration(job)) return true;  // finished
                moved = true;
                continue;
            case Phase::Compute:
            case Phase::Recompute:
                if (job.remaining > 0) return moved;
                if (job.phase == Phase::Recompute) {
                    TensorRun& t = job.tensors[job.recomputing];
                    t.where = Where::Gpu;
                    t.recomputePending = false;
                    t.lastUse = now_;
                    ++t.version;
                    job.recomputing = -1;
                    setPhase(job, Phase::Inputs);
                    moved = true;
                    continue;
                }
                finishCompute(job);
                moved = true;
                continue;
            case Phase::HostTime:
            case Phase::Sync:
                if (!waitEnded(job)) return moved;
                moved = true;
                continue;
            case Phase::WaitInput:
            case Phase::WaitRoom:
            case Phase::Inputs: {
                if (job.suspended) {
                    // Until the job it makes room for got an allocation (or ended).
                    const JobRun& taker = jobs_[job.suspendedFor];
                    if (taker.phase != Phase::Done && taker.allocations == job.suspendedAtAllocation) return moved;
                    job.suspended = false;
                    pinKernel(job, +1);
                }
                const Phase before = job.phase;
                const auto cursor = job.cursor;
                if (!ensureTensors(job)) return moved || job.phase != before || job.cursor != cursor;
                moved = true;
                continue;
            }
        }
    }
    return moved;
}

// Returns false when the job has run all its iterations (it is then Done).
bool Engine::startIteration(JobRun& job) {
    if (job.iteration == job.spec->iterations) {
        finishJob(job);
        return false;
    }
    maybeReplan(job);
    if (!result_.cannotRun.empty()) return true;
    if (job.hasPendingPlan) {
        adoptPlan(job, std::move(job.pendingPlan));
        job.hasPendingPlan = false;
        restoreAtPlanSwitch(job);
    }
    job.iterationStart = now_;
    job.step = 0;
    startKernel(job);
    return true;
}

void Engine::startKernel(JobRun& job) {
    const auto pos = kernelAt(job);
    job.current = WorkloadKernelRun{};
    job.current.iteration = job.iteration;
    job.current.position = pos;
    job.current.start = now_;
    job.phase = Phase::Inputs;
    job.phaseSince = now_;
    job.cursor = 0;
    pinKernel(job, +1);
    issueDirectives(job, job.before[pos]);
}

// A started kernel's tensors are pinned: no passive swap takes them. Unpinning releases what
// was waiting for the kernel to end.
void Engine::pinKernel(JobRun& job, int delta) {
    const auto& kt = job.kernelTensors[kernelAt(job)];
    for (const auto* list : {&kt.inputs, &kt.outputsOnly})
        for (auto ti : *list) {
            TensorRun& t = job.tensors[ti];
            t.pins += delta;
            if (t.pins == 0 && t.releaseAfterUse) release(job, ti, t.releaseMode);
        }
}

// Nothing computes, nothing is under way, and jobs wait for room, each holding its own
// kernel's tensors. The first of them (workload order) may now swap out the others' tensors:
// they are unpinned and start their kernels' allocations again once it got an allocation, so the
// jobs take turns instead of failing. False when there is no one to take from (then the run is
// impossible).
bool Engine::breakDeadlock() {
    JobRun* first = nullptr;
    bool suspended = false;
    for (auto& job : jobs_) {
        if (job.phase != Phase::WaitRoom) continue;
        if (!first && !job.suspended) {
            first = &job;
            continue;
        }
        if (job.suspended) continue;
        pinKernel(job, -1);
        job.suspended = true;
        job.suspendedFor = first->index;
        job.suspendedAtAllocation = first->allocations;
        job.reserved = 0;  // what its own passive swap-outs free goes to whoever needs it
        job.cursor = 0;  // its inputs may be gone when it resumes (the workspace comes last: not taken yet)
        suspended = true;
    }
    return suspended;
}

// Brings the kernel's inputs onto the GPU, allocates its outputs and workspace, then starts
// its compute. False when it has to wait (phase WaitInput / WaitRoom / Recompute).
bool Engine::ensureTensors(JobRun& job) {
    const auto pos = kernelAt(job);
    const Kernel& kernel = job.spec->profile.kernels[pos];
    const auto& kt = job.kernelTensors[pos];
    const auto label = [&](std::int64_t t) {
        return "tensor " + std::to_string(job.spec->profile.tensors[t].id) + " (" + job.spec->profile.tensors[t].name +
               ") of job " + job.spec->name + " at kernel " + std::to_string(pos) + " (" + kernel.name + ")";
    };
    while (job.cursor < kt.inputs.size()) {
        const auto ti = kt.inputs[job.cursor];
        TensorRun& t = job.tensors[ti];
        if (t.where == Where::Gpu) {
            t.lastUse = now_;
            ++job.cursor;
            if (job.phase != Phase::Inputs) setPhase(job, Phase::Inputs);
            continue;
        }
        if (t.where == Where::Arriving) {  // lands at t.readyAt (its event)
            if (job.phase != Phase::WaitInput) setPhase(job, Phase::WaitInput);
            return false;
        }
        const Room room = allocate(job, t.bytes, label(ti));
        if (room != Room::Ok) return false;
        if (t.recomputePending && t.producer >= 0) {
            // Its producer re-runs now, sharing the processor like any kernel.
            t.where = Where::Arriving;  // holds its room; nothing reads it until rebuilt
            t.readyAt = std::numeric_limits<Nanoseconds>::max();
            job.recomputing = ti;
            job.remaining = sim::launchedDuration(job.spec->profile.kernels[t.producer].duration, workload_.hardware);
            setPhase(job, Phase::Recompute);
            return false;
        }
        if (t.hostValid) {
            t.where = Where::Arriving;
            Event e;
            e.kind = EventKind::SwapInDone;
            e.time = enqueueSwap(job, ti, SwapDirection::In, SwapCause::Demand, nullptr);
            e.job = job.index;
            e.tensor = ti;
            e.version = t.version;
            t.readyAt = e.time;
            schedule(e);
            setPhase(job, Phase::WaitInput);
            return false;
        }
        // Never written (input data), or dead: a fresh allocation.
        t.where = Where::Gpu;
        t.recomputePending = false;
        t.lastUse = now_;
        ++job.cursor;
    }
    const auto outputsEnd = kt.inputs.size() + kt.outputsOnly.size();
    while (job.cursor < outputsEnd) {
        const auto ti = kt.outputsOnly[job.cursor - kt.inputs.size()];
        TensorRun& t = job.tensors[ti];
        if (t.where == Where::Absent) {
            if (allocate(job, t.bytes, label(ti)) != Room::Ok) return false;
            t.where = Where::Gpu;
        } else if (t.where == Where::Arriving) {
            // A swap-in or rebuild of a tensor this kernel overwrites: wait for its room to settle.
            if (job.phase != Phase::WaitInput) setPhase(job, Phase::WaitInput);
            return false;
        }
        t.lastUse = now_;
        ++job.cursor;
    }
    if (job.cursor == outputsEnd) {
        if (kernel.workspaceBytes > 0 &&
            allocate(job, kernel.workspaceBytes, "the workspace of kernel " + std::to_string(pos) + " (" +
                                                         kernel.name + ") of job " + job.spec->name) != Room::Ok)
            return false;
        ++job.cursor;
    }
    // Everything it writes is new: a host copy or a swap-out in flight is stale now.
    for (auto ti : kt.outputsOnly) {
        ++job.tensors[ti].version;
        job.tensors[ti].hostValid = false;
        job.tensors[ti].recomputePending = false;
    }
    for (TensorId id : kernel.outputs)
        for (auto ti : kt.inputs)
            if (job.spec->profile.tensors[ti].id == id) {
                ++job.tensors[ti].version;
                job.tensors[ti].hostValid = false;
            }
    // The launch overhead is part of the kernel's compute (docs/simulator.md).
    job.remaining = sim::launchedDuration(kernel.duration, workload_.hardware);
    job.computeStart = now_;
    setPhase(job, Phase::Compute);
    return true;
}

// A kernel's compute is done. Asynchronously the operator ends now; synchronised, it ends after
// its host-side time and once every transfer its job had queued by then has landed
// (cudaDeviceSynchronize waits for the job's copy stream too, not for later copies).
void Engine::finishCompute(JobRun& job) {
    if (!workload_.syncEveryOperator) {
        endKernel(job);
        return;
    }
    if (workload_.operatorHostTime > 0) {
        waitFor(job, Phase::HostTime, checkedAdd(now_, workload_.operatorHostTime, kClock));
        return;
    }
    waitEnded(job);  // from Compute straight to the sync
}

void Engine::waitFor(JobRun& job, Phase phase, Nanoseconds until) {
    setPhase(job, phase);
    job.waitUntil = until;
    Event wake;
    wake.time = until;
    wake.kind = EventKind::Wake;
    wake.job = job.index;
    schedule(wake);
}

// HostTime or Sync (or Compute just done, synchronised without host time): moves on when its
// wait is over; false while it lasts.
bool Engine::waitEnded(JobRun& job) {
    if ((job.phase == Phase::HostTime || job.phase == Phase::Sync) && now_ < job.waitUntil) return false;
    if (job.phase != Phase::Sync && job.transfersUntil > now_) {
        waitFor(job, Phase::Sync, job.transfersUntil);
        return true;
    }
    endKernel(job);
    return true;
}

void Engine::endKernel(JobRun& job) {
    const auto pos = kernelAt(job);
    setPhase(job, Phase::Inputs);
    job.measured[pos] = now_ - job.computeStart;
    job.current.end = now_;
    job.result.compute += job.current.compute;
    job.result.recompute += job.current.recompute;
    job.result.swapStall += job.current.swapStall;
    job.result.passiveSwapStall += job.current.passiveSwapStall;
    job.result.kernels.push_back(job.current);
    const Kernel& kernel = job.spec->profile.kernels[pos];
    if (kernel.workspaceBytes > 0) addGpuBytes(job, -kernel.workspaceBytes);
    pinKernel(job, -1);
    // The framework frees what no later kernel of the iteration uses (reference counting).
    for (auto ti : job.freeAfterStep[job.step])
        if (job.tensors[ti].where != Where::Absent || job.tensors[ti].hostValid) release(job, ti, ReleaseMode::Dead);
    issueDirectives(job, job.after[pos]);
    ++job.step;
    if (job.step < job.runOrder.size()) {
        startKernel(job);
        return;
    }
    // End of the iteration: measured times correct the estimates (TENSILE section 4.3).
    job.result.iterationTimes.push_back(now_ - job.iterationStart);
    for (std::size_t k = 0; k < job.estimates.size(); ++k)
        job.estimates[k] = ewmaEstimate(job.estimates[k], job.measured[k], workload_.ewmaBetaPpm);
    ++job.iteration;
    job.phase = Phase::IterationStart;
    job.phaseSince = now_;
    if (job.iteration == job.spec->iterations) finishJob(job);
}

void Engine::finishJob(JobRun& job) {
    for (std::size_t t = 0; t < job.tensors.size(); ++t) {
        job.tensors[t].pins = 0;
        release(job, static_cast<std::int64_t>(t), ReleaseMode::Dead);
    }
    job.reserved = 0;
    job.phase = Phase::Done;
    job.result.end = now_;
}

}  // namespace spillway::wl
