#include "runtime/replay/model_backend.h"

#include "core/sim/checked_time.h"
#include "core/trace/number_limits.h"
#include "runtime/replay/page_residency.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace spillway::replay {

namespace {

// One replay worked out in enqueue order: per iteration, per kernel, the directives anchored
// before it, the kernel, the directives anchored after it.
class ModelRun {
public:
    ModelRun(const HardwareConfig& hw, const ReplayProgram& program, std::vector<ReplayCall> calls, int iterations)
        : hw_(hw),
          p_(program),
          calls_(std::move(calls)),
          n_(program.kernels.size()),
          d_(program.directives.size()),
          iters_(static_cast<std::size_t>(std::max(iterations, 0))),
          managed_(program.arenaKind == ArenaKind::Managed),
          pages_(managed_ ? program.arenaBytes : 0) {}

    BackendRun run() {
        out_.iterations.assign(iters_, IterationTimes{std::vector<KernelTimes>(n_), std::vector<DirectiveTimes>(d_)});
        for (std::size_t it = 0; it < iters_; ++it)
            for (std::size_t r = 0; r < n_; ++r) {
                anchor(it, 2 * r);
                kernel(it, r);
                anchor(it, 2 * r + 1);
                if (managed_ && r % 8 == 7) pages_.forgetBefore(out_.iterations[it].kernels[r].end);
            }
        return std::move(out_);
    }

private:
    Nanoseconds anchorTime(std::size_t it, std::size_t a) const {
        const std::size_t r = a / 2;
        if (a % 2 == 1) return out_.iterations[it].kernels[r].end;
        if (r > 0) return out_.iterations[it].kernels[r - 1].end;
        return it > 0 ? out_.iterations[it - 1].kernels[n_ - 1].end : 0;
    }

    Nanoseconds doneAt(std::size_t it, const ReplayDependency& dep) const {
        if (dep.previousIteration && it == 0) return 0;
        return out_.iterations[dep.previousIteration ? it - 1 : it].directives[dep.directive].end;
    }

    void anchor(std::size_t it, std::size_t a) {
        for (std::size_t j = p_.anchorBegin[a]; j < p_.anchorBegin[a + 1]; ++j) directive(it, j, anchorTime(it, a));
    }

    void directive(std::size_t it, std::size_t j, Nanoseconds anchorAt);
    Nanoseconds cost(ReplayCall call, const ReplayDirective& d, Nanoseconds start);
    void kernel(std::size_t it, std::size_t r);
    Nanoseconds faultTime(const ReplayKernel& k, Nanoseconds at);

    const HardwareConfig& hw_;
    const ReplayProgram& p_;
    const std::vector<ReplayCall> calls_;
    const std::size_t n_, d_, iters_;
    const bool managed_;
    PageResidency pages_;
    BackendRun out_;
    Nanoseconds streamFree_[2] = {0, 0};
    // Per mechanism, when a transfer of either direction ends, for mechanisms whose opposite
    // directions do not overlap.
    Nanoseconds sharedLinkFree_[kTransferMechanisms.size()] = {};
};

std::optional<TransferMechanism> mechanismOf(ReplayCall call) {
    switch (call) {
        case ReplayCall::CopyToDevice:
        case ReplayCall::CopyToHost: return TransferMechanism::PinnedCopy;
        case ReplayCall::PrefetchToDevice:
        case ReplayCall::PrefetchToHost:
        case ReplayCall::DiscardAndPrefetch: return TransferMechanism::ManagedPrefetch;
        default: return std::nullopt;
    }
}

void ModelRun::directive(std::size_t it, std::size_t j, Nanoseconds anchorAt) {
    const ReplayDirective& d = p_.directives[j];
    const ReplayCall call = calls_[j];
    DirectiveTimes& t = out_.iterations[it].directives[j];
    Nanoseconds& streamFree = streamFree_[d.stream == SideStream::In ? 0 : 1];
    t.issue = anchorAt + d.delay;
    Nanoseconds ready = std::max(t.issue, streamFree);
    if (d.hasCrossWait) ready = std::max(ready, doneAt(it, d.crossWait));
    for (const ReplayDependency& dep : d.slotWaits) ready = std::max(ready, doneAt(it, dep));
    const auto mechanism = mechanismOf(call);
    const bool shared = mechanism && !hw_.measured.isDuplex(*mechanism);
    if (shared) ready = std::max(ready, sharedLinkFree_[static_cast<std::size_t>(*mechanism)]);
    // The runtime's waits come before the directive's start event, the events take the rest.
    // A call's measured time (its curve, its floor) was timed between two events too, so the
    // events are inside it: the window is the longer of the two, not their sum.
    const Nanoseconds before = hw_.directiveOverhead / 2;
    t.start = ready + before;
    t.end = t.start + std::max(cost(call, d, t.start), hw_.directiveOverhead - before);
    t.call = callName(call, d);
    streamFree = t.end;
    if (shared) sharedLinkFree_[static_cast<std::size_t>(*mechanism)] = t.end;
}

// What the call costs on the machine; in a managed arena it also moves the pages (at its end).
Nanoseconds ModelRun::cost(ReplayCall call, const ReplayDirective& d, Nanoseconds start) {
    const Bytes bytes = d.range.bytes;
    // A call that finds nothing to move still costs what the smallest transfer does.
    const auto moved = [&](TransferDirection dir, Bytes b) {
        return hostLinkTime(hw_, dir, TransferMechanism::ManagedPrefetch, std::max<Bytes>(b, 1));
    };
    const auto populate = [&](Bytes b) { return sim::checkedAllocTime(b, hw_); };
    switch (call) {
        case ReplayCall::CopyToDevice: return hostLinkTime(hw_, TransferDirection::ToGpu, TransferMechanism::PinnedCopy, bytes);
        case ReplayCall::CopyToHost: return hostLinkTime(hw_, TransferDirection::ToHost, TransferMechanism::PinnedCopy, bytes);
        case ReplayCall::PrefetchToDevice: {
            const RangeResidency r = pages_.at(d.range.offset, bytes, start);
            const Nanoseconds c = moved(TransferDirection::ToGpu, r.host) + populate(r.untouched + r.discarded);
            pages_.set(d.range.offset, bytes, PageState::Gpu, start + c);
            return c;
        }
        case ReplayCall::PrefetchToHost: {
            const RangeResidency r = pages_.at(d.range.offset, bytes, start);
            const Nanoseconds c = moved(TransferDirection::ToHost, r.gpu);
            pages_.set(d.range.offset, bytes, PageState::Host, start + c);
            return c;
        }
        case ReplayCall::DiscardAndPrefetch: {
            const Nanoseconds c = moved(TransferDirection::ToGpu, 0) + populate(bytes);
            pages_.set(d.range.offset, bytes, PageState::Gpu, start + c);
            return c;
        }
        case ReplayCall::Discard:
        case ReplayCall::FencedDiscard: {
            const Bytes blocks = (bytes + hw_.blockSize - 1) / hw_.blockSize;
            // The fence is a prefetch of a page already on the GPU: the smallest transfer's cost.
            const Nanoseconds fence = call == ReplayCall::FencedDiscard ? moved(TransferDirection::ToGpu, 0) : 0;
            const Nanoseconds c = discardUnmapTime(hw_, blocks, bytes) + fence;
            // Only the pages wholly inside the range are dropped: a neighbour's bytes in its end
            // pages are live (on the H200 small tensors sharing such a page never faulted).
            const Bytes first = (d.range.offset + PageResidency::kPage - 1) / PageResidency::kPage * PageResidency::kPage;
            const Bytes end = (d.range.offset + bytes) / PageResidency::kPage * PageResidency::kPage;
            if (end > first) pages_.set(first, end - first, PageState::Discarded, start + c);
            return c;
        }
        case ReplayCall::Advise:
        case ReplayCall::Nothing: return 0;
    }
    return 0;
}

// Pages of the kernel's ranges that are not on the GPU when it starts fault in: on the host
// they migrate, never touched ones are populated; both go through the fault handler, which bounds
// them (4.6 to 6.8 GB/s on the H200 where PCIe copies 55 GB/s), so both are charged the
// fault-driven migration curve. Pages a discard dropped fault back far slower (~150 us per
// 64 KiB on the H200): the discarded_fault curve.
Nanoseconds ModelRun::faultTime(const ReplayKernel& k, Nanoseconds at) {
    Bytes faulted = 0, discarded = 0;
    const auto add = [&](const ArenaRange& range) {
        const RangeResidency r = pages_.at(range.offset, range.bytes, at);
        faulted += r.host + r.untouched;
        discarded += r.discarded;
    };
    for (const ArenaRange& range : k.reads) add(range);
    for (const ArenaRange& range : k.writes) add(range);
    add(k.workspace);
    if (hw_.measured.curve(TransferDirection::ToGpu, TransferMechanism::DiscardedFault).empty()) {
        faulted += discarded;  // not measured: what fault-driven migration costs
        discarded = 0;
    }
    return checkedAdd(hostLinkTime(hw_, TransferDirection::ToGpu, TransferMechanism::FaultMigration, faulted),
                      hostLinkTime(hw_, TransferDirection::ToGpu, TransferMechanism::DiscardedFault, discarded),
                      "a kernel's fault time");
}

void ModelRun::kernel(std::size_t it, std::size_t r) {
    const ReplayKernel& k = p_.kernels[r];
    KernelTimes& t = out_.iterations[it].kernels[r];
    t.ready = anchorTime(it, 2 * r);
    t.start = t.ready;
    for (const ReplayDependency& dep : k.waitsFor) t.start = std::max(t.start, doneAt(it, dep));
    for (const ReplayRecompute& rc : k.recomputes)
        if (!rc.previousIteration || it > 0) t.recompute += rc.duration;
    const Nanoseconds faults = managed_ ? faultTime(k, t.start) : 0;
    t.end = t.start + sim::launchedDuration(k.duration, hw_) + faults + t.recompute;
    if (!managed_) return;
    for (const ArenaRange& range : k.reads) pages_.set(range.offset, range.bytes, PageState::Gpu, t.start);
    for (const ArenaRange& range : k.writes) pages_.set(range.offset, range.bytes, PageState::Gpu, t.start);
    pages_.set(k.workspace.offset, k.workspace.bytes, PageState::Gpu, t.start);
}

}  // namespace

std::string ModelBackend::device() const {
    return "model of " + machine_.id + (machine_.description.empty() ? "" : " (" + machine_.description + ")");
}

void ModelBackend::followCalls(const ReplayProgram& program, const MeasuredTimeline& timeline) {
    if (timeline.iterations.empty()) throw std::invalid_argument("the measured timeline has no iterations");
    const auto& transfers = timeline.iterations.back().transfers;
    if (transfers.size() != program.directives.size())
        throw std::invalid_argument(fmt::format("the measured timeline has {} transfers per iteration, the plan {} directives",
                                                transfers.size(), program.directives.size()));
    followed_.assign(program.directives.size(), std::nullopt);
    for (std::size_t j = 0; j < transfers.size(); ++j) {
        if (transfers[j].directive != program.directives[j].planIndex)
            throw std::invalid_argument(fmt::format("measured transfer {} is plan directive {}, the program's is {}", j,
                                                    transfers[j].directive, program.directives[j].planIndex));
        followed_[j] = replayCallNamed(transfers[j].call);
    }
}

namespace {

bool movesPages(ReplayCall call) {
    return discardsPages(call) || call == ReplayCall::PrefetchToHost;
}

// A page-moving call on another tensor whose bytes overlap a kernel's, while the kernel runs.
std::vector<ModelBackend::SlotRace> findSlotRaces(const ReplayProgram& p, const std::vector<ReplayCall>& calls,
                                                  const BackendRun& run) {
    std::vector<ModelBackend::SlotRace> races;
    for (std::size_t it = 0; it < run.iterations.size(); ++it)
        for (std::size_t j = 0; j < p.directives.size(); ++j) {
            const ReplayDirective& d = p.directives[j];
            const DirectiveTimes& dt = run.iterations[it].directives[j];
            if (!movesPages(calls[j]) || dt.end <= dt.start) continue;
            for (std::size_t r = 0; r < p.kernels.size(); ++r) {
                const KernelTimes& kt = run.iterations[it].kernels[r];
                if (kt.start >= dt.end || kt.end <= dt.start) continue;
                const ReplayKernel& k = p.kernels[r];
                const auto hits = [&](const std::vector<ArenaRange>& ranges) {
                    return std::any_of(ranges.begin(), ranges.end(), [&](const ArenaRange& x) {
                        return overlaps(x, d.range) && !(x.offset == d.range.offset && x.bytes == d.range.bytes);
                    });
                };
                if (hits(k.reads) || hits(k.writes) || (overlaps(k.workspace, d.range))) races.push_back({it, r, j});
            }
        }
    return races;
}

}  // namespace

BackendRun ModelBackend::run(const ReplayProgram& program, int iterations) {
    std::vector<ReplayCall> calls(program.directives.size());
    for (std::size_t j = 0; j < calls.size(); ++j) {
        const bool follow = j < followed_.size() && followed_[j];
        calls[j] = follow ? *followed_[j] : replayCallFor(program, program.directives[j]);
    }
    BackendRun out = ModelRun(machine_, program, calls, iterations).run();
    races_ = findSlotRaces(program, calls, out);
    return out;
}

}  // namespace spillway::replay
