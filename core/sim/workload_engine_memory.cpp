// GPU memory and the link of the multi-job simulator: allocations (with passive LRU swap-out
// when they do not fit), releases, swap tasks on the FIFO link(s), and the plan directives as
// core/policy/multi_job_planner.h defines them.
#include "core/sim/workload_engine.h"

#include "core/trace/format_units.h"
#include "core/trace/number_limits.h"

#include <algorithm>
#include <limits>
#include <string_view>

namespace spillway::wl {

namespace {
std::string bytesText(Bytes b) { return readableBytes(b) + " (" + std::to_string(b) + " B)"; }
constexpr std::string_view kSwap = "a swap's end time";
}  // namespace

void Engine::setImpossible(const std::string& why) {
    if (result_.cannotRun.empty()) result_.cannotRun = why;
}

void Engine::addGpuBytes(JobRun& job, Bytes delta) {
    job.gpuBytes += delta;
    gpuUsed_ += delta;
    job.result.peakGpuBytes = std::max(job.result.peakGpuBytes, job.gpuBytes);
    result_.peakGpuBytes = std::max(result_.peakGpuBytes, gpuUsed_);
    const auto note = [this](std::vector<MemorySample>& samples, Bytes bytes) {
        if (!samples.empty() && samples.back().time == now_) samples.back().bytes = bytes;
        else if (samples.empty() || samples.back().bytes != bytes) samples.push_back({now_, bytes});
    };
    note(job.result.memory, job.gpuBytes);
    note(result_.memory, gpuUsed_);
}

// Room for `bytes` of this job (a tensor or a workspace). Ok: counted as
// allocated. Wait: the job waits (phase WaitRoom) for passive swap-outs or for others to free
// memory. Impossible: it can never fit (more than the whole GPU).
Engine::Room Engine::allocate(JobRun& job, Bytes bytes, const std::string& what) {
    const Room room = makeRoom(job, bytes, what);
    if (room == Room::Ok) {
        addGpuBytes(job, bytes);
        job.reserved = 0;
        ++job.allocations;
        if (job.phase == Phase::WaitRoom) setPhase(job, Phase::Inputs);
    } else if (room == Room::Wait && job.phase != Phase::WaitRoom) {
        setPhase(job, Phase::WaitRoom);
    }
    return room;
}

Engine::Room Engine::makeRoom(JobRun& job, Bytes bytes, const std::string& what) {
    const Bytes capacity = workload_.hardware.gpuCapacity;
    if (bytes > capacity) {
        setImpossible("does not fit: " + what + " needs " + bytesText(bytes) + "; the GPU holds " +
                      bytesText(capacity));
        return Room::Impossible;
    }
    Bytes reservedByOthers = 0;
    for (const auto& other : jobs_)
        if (other.index != job.index) reservedByOthers += other.reserved;
    const Bytes free = capacity - gpuUsed_ - reservedByOthers;
    if (bytes <= free) return Room::Ok;

    // Room already being made for this job (its passive swap-outs are still on the link).
    if (job.reserved > 0) {
        for (const auto& other : jobs_)
            for (const auto& t : other.tensors)
                if (t.outTask != 0 && t.releaseWhenCopied) return Room::Wait;
    }
    // Passive swap: least recently used tensors of any job that no started kernel uses and
    // that are not already leaving, swapped out synchronously (the job waits for the copies).
    struct Victim {
        Nanoseconds lastUse;
        int job;
        std::int64_t tensor;
    };
    std::vector<Victim> candidates;
    Bytes pinned = 0;
    for (const auto& other : jobs_)
        for (std::size_t t = 0; t < other.tensors.size(); ++t) {
            const TensorRun& run = other.tensors[t];
            if (run.where != Where::Gpu) continue;
            if (run.pins > 0) pinned += run.bytes;
            if (run.pins > 0 || run.outTask != 0) continue;
            candidates.push_back({run.lastUse, other.index, static_cast<std::int64_t>(t)});
        }
    std::sort(candidates.begin(), candidates.end(), [](const Victim& a, const Victim& b) {
        return a.lastUse != b.lastUse ? a.lastUse < b.lastUse
                                      : (a.job != b.job ? a.job < b.job : a.tensor < b.tensor);
    });
    const Bytes need = bytes - free;
    Bytes found = 0;
    std::size_t count = 0;
    for (; count < candidates.size() && found < need; ++count)
        found += jobs_[candidates[count].job].tensors[candidates[count].tensor].bytes;
    if (found < need) {
        // Not enough now; running kernels and transfers may still free some. If nothing is
        // under way the main loop reports this as the reason the run is impossible.
        job.roomProblem = "does not fit: " + what + " needs " + bytesText(bytes) + "; the GPU holds " +
                          bytesText(capacity) + ", " + bytesText(gpuUsed_) + " in use, " + bytesText(pinned) +
                          " of it by tensors of running kernels, and nothing else can be swapped out";
        return Room::Wait;
    }
    for (std::size_t i = 0; i < count; ++i) {
        JobRun& owner = jobs_[candidates[i].job];
        const auto ti = candidates[i].tensor;
        if (owner.tensors[ti].hostValid) release(owner, ti, ReleaseMode::Swapped);  // the host copy is current
        else swapOut(owner, ti, SwapCause::Passive);
    }
    job.reserved = bytes;
    job.roomProblem = "waiting for passive swap-outs to make room for " + what;
    return capacity - gpuUsed_ - reservedByOthers >= bytes ? Room::Ok : Room::Wait;
}

void Engine::release(JobRun& job, std::int64_t ti, ReleaseMode mode) {
    TensorRun& t = job.tensors[ti];
    if (t.where != Where::Absent) {
        addGpuBytes(job, -t.bytes);
        t.where = Where::Absent;
    }
    ++t.version;
    t.releaseAfterUse = false;
    t.releaseWhenCopied = false;
    t.hostValid = mode == ReleaseMode::Swapped && t.hostValid;
    t.recomputePending = mode == ReleaseMode::Recompute;
}

// "After the access": a tensor a started kernel uses goes when that kernel ends.
void Engine::releaseOrDefer(JobRun& job, std::int64_t ti, ReleaseMode mode) {
    TensorRun& t = job.tensors[ti];
    if (t.pins > 0) {
        t.releaseAfterUse = true;
        t.releaseMode = mode;
    } else {
        release(job, ti, mode);
    }
}

// Queues a copy on the link: `single` mode has one FIFO for both directions, `duplex` one per
// direction unless the machine measured pinned copies in opposite directions as not
// overlapping (then they share one). A swap is a pinned copy: hostLinkTime prices it. Returns
// when it lands.
Nanoseconds Engine::enqueueSwap(JobRun& job, std::int64_t ti, SwapDirection direction, SwapCause cause,
                                std::uint64_t* seqOut) {
    const LinkSpec& spec = direction == SwapDirection::Out ? workload_.hardware.gpuToHost : workload_.hardware.hostToGpu;
    SwapTask task;
    task.job = job.index;
    task.tensor = job.spec->profile.tensors[ti].id;
    task.direction = direction;
    task.cause = cause;
    task.issue = now_;
    task.bytes = job.tensors[ti].bytes;
    if (spec.bytesPerSecond <= 0) {
        setImpossible(std::string("cannot swap: the ") + (direction == SwapDirection::Out ? "gpu_to_host" : "host_to_gpu") +
                      " link of " + workload_.hardware.id + " has no bandwidth");
        return now_;
    }
    const HardwareConfig& hw = workload_.hardware;
    const bool ownQueue = direction == SwapDirection::In && duplexLink();
    Nanoseconds& busy = linkBusyUntil_[ownQueue ? 1 : 0];
    task.start = std::max(now_, busy);
    const TransferDirection way = direction == SwapDirection::Out ? TransferDirection::ToHost : TransferDirection::ToGpu;
    // An empty swap still pays the link latency, as it always did (hostLinkTime: 0 for 0 bytes).
    const Nanoseconds duration =
        task.bytes > 0 ? hostLinkTime(hw, way, TransferMechanism::PinnedCopy, task.bytes) : spec.latency;
    task.end = checkedAdd(task.start, duration, kSwap);
    busy = task.end;
    job.transfersUntil = std::max(job.transfersUntil, task.end);
    result_.transfers.push_back(task);
    if (direction == SwapDirection::Out) {
        ++job.result.swapOuts;
        job.result.swapOutBytes = checkedAdd(job.result.swapOutBytes, task.bytes, "a job's swapped-out bytes");
    } else {
        ++job.result.swapIns;
        job.result.swapInBytes = checkedAdd(job.result.swapInBytes, task.bytes, "a job's swapped-in bytes");
    }
    if (seqOut) *seqOut = nextSeq_;  // the seq its completion event will get
    return task.end;
}

void Engine::swapOut(JobRun& job, std::int64_t ti, SwapCause cause) {
    TensorRun& t = job.tensors[ti];
    Event e;
    e.kind = EventKind::SwapOutDone;
    e.job = job.index;
    e.tensor = ti;
    e.version = t.version;
    e.time = enqueueSwap(job, ti, SwapDirection::Out, cause, &t.outTask);
    t.releaseWhenCopied = true;
    schedule(e);
}

void Engine::onSwapOutDone(const Event& e) {
    JobRun& job = jobs_[e.job];
    TensorRun& t = job.tensors[e.tensor];
    if (t.outTask == e.seq) t.outTask = 0;
    if (t.version != e.version || job.phase == Phase::Done) return;  // written or released meanwhile
    t.hostValid = true;
    if (t.releaseWhenCopied) releaseOrDefer(job, e.tensor, ReleaseMode::Swapped);
}

void Engine::onSwapInDone(const Event& e) {
    JobRun& job = jobs_[e.job];
    TensorRun& t = job.tensors[e.tensor];
    if (t.version != e.version || t.where != Where::Arriving) return;
    t.where = Where::Gpu;
    t.lastUse = now_;
}

void Engine::issueDirectives(JobRun& job, const std::vector<Directive>& list) {
    for (const auto& d : list) {
        if (d.delay <= 0) {
            issueDirective(job, d);
            continue;
        }
        Event e;
        e.kind = EventKind::Issue;
        e.time = checkedAdd(now_, d.delay, "a delayed directive's time");
        e.job = job.index;
        e.planGeneration = job.planGeneration;
        e.directive = d;
        schedule(e);
    }
}

// A new plan starts from the state it was made for: every persistent tensor on the GPU at the
// iteration start, except those it swaps in itself before their first access (an updated
// parameter whose wrap gap it swaps). The old plan may have left some on the host, or leaving
// (its swap-out of a wrap gap, whose swap-in was in the old plan's next iteration): those are
// prefetched now, at the switch, so the first read does not swap them in on demand.
void Engine::restoreAtPlanSwitch(JobRun& job) {
    const ProfileIndex& index = *job.profileIndex;
    // Per tensor: 0 not used, 1 its first access comes first, 2 the plan prefetches it before.
    std::vector<char> first(job.tensors.size(), 0);
    const auto mark = [&](const std::vector<Directive>& list) {
        for (const auto& d : list) {
            const auto ti = index.tensorPos(d.tensor);
            if (d.kind == DirectiveKind::Prefetch && ti >= 0 && first[ti] == 0) first[ti] = 2;
        }
    };
    for (auto pos : job.runOrder) {
        mark(job.before[pos]);
        const auto& kt = job.kernelTensors[pos];
        for (const auto* list : {&kt.inputs, &kt.outputsOnly})
            for (auto ti : *list)
                if (first[ti] == 0) first[ti] = 1;
        mark(job.after[pos]);
    }
    job.absentAtStart.assign(job.tensors.size(), 0);
    for (std::size_t t = 0; t < job.tensors.size(); ++t) {
        const TensorRun& run = job.tensors[t];
        job.absentAtStart[t] = first[t] == 2;
        if (!run.persistent || first[t] != 1) continue;
        const bool onHost = run.where == Where::Absent && run.hostValid;
        const bool leaving = run.where == Where::Gpu && (run.outTask != 0 || run.releaseAfterUse);
        if (!onHost && !leaving) continue;
        Directive d;
        d.kind = DirectiveKind::Prefetch;
        d.tensor = job.spec->profile.tensors[t].id;
        d.target = Tier::Gpu;
        issueDirective(job, d);
    }
}

// An old plan's swap-out still pending at the switch (its wrap-gap swap-out, issued as the
// iteration ends) goes ahead when the new plan also swaps the tensor in before its first access.
bool Engine::staleSwapOutAgrees(const JobRun& job, const Directive& d) const {
    if (d.kind != DirectiveKind::PreEvict) return false;
    const auto ti = job.profileIndex->tensorPos(d.tensor);
    return ti >= 0 && static_cast<std::size_t>(ti) < job.absentAtStart.size() && job.absentAtStart[ti] != 0;
}

void Engine::issueDirective(JobRun& job, const Directive& d) {
    const ProfileIndex& index = *job.profileIndex;
    const auto ti = index.tensorPos(d.tensor);
    TensorRun& t = job.tensors[ti];
    if (ti == job.recomputing) {  // being rebuilt for the running kernel: leave it alone
        ++job.result.droppedDirectives;
        return;
    }
    switch (d.kind) {
        case DirectiveKind::PreEvict:
            // Swap out: copy to host, release once copied and the current access has ended.
            if (t.where != Where::Gpu || t.outTask != 0) {
                if (t.outTask == 0) ++job.result.droppedDirectives;
                return;
            }
            if (t.hostValid) releaseOrDefer(job, ti, ReleaseMode::Swapped);  // the host copy is current
            else swapOut(job, ti, SwapCause::Planned);
            return;
        case DirectiveKind::Prefetch: {
            if (t.where == Where::Gpu) {  // still here (its swap-out not landed): keep it
                t.releaseWhenCopied = false;
                if (t.releaseMode == ReleaseMode::Swapped) t.releaseAfterUse = false;
                return;
            }
            if (t.where == Where::Arriving) return;
            Bytes reservedByOthers = 0;
            for (const auto& other : jobs_)
                if (other.index != job.index) reservedByOthers += other.reserved;
            // A prefetch never forces room: if it does not fit, the read swaps in on demand.
            if (!t.hostValid || t.recomputePending ||
                t.bytes > workload_.hardware.gpuCapacity - gpuUsed_ - reservedByOthers) {
                ++job.result.droppedDirectives;
                return;
            }
            addGpuBytes(job, t.bytes);
            t.where = Where::Arriving;
            Event e;
            e.kind = EventKind::SwapInDone;
            e.job = job.index;
            e.tensor = ti;
            e.version = t.version;
            e.time = enqueueSwap(job, ti, SwapDirection::In, SwapCause::Planned, nullptr);
            t.readyAt = e.time;
            schedule(e);
            return;
        }
        case DirectiveKind::Recompute:
            if (t.where != Where::Gpu || t.producer < 0) {
                ++job.result.droppedDirectives;
                return;
            }
            releaseOrDefer(job, ti, ReleaseMode::Recompute);
            return;
        case DirectiveKind::Free:
        case DirectiveKind::Discard:
        case DirectiveKind::DiscardLazy:
            // Already gone with no host copy: the engine released it after its last use (the
            // framework's reference counting, modelled for every policy), which is what the
            // planner's free after that use asks for. Done, not refused: not counted as dropped.
            if (t.where == Where::Absent && !t.hostValid) return;
            releaseOrDefer(job, ti, ReleaseMode::Dead);
            return;
        case DirectiveKind::Advise:  // a hint to the UVM driver: nothing moves at tensor granularity
            return;
    }
}

}  // namespace spillway::wl
