#include "runtime/replay/replay_program_builder.h"

#include "runtime/replay/replay_slot_order.h"

#include "core/analysis/liveness.h"
#include "core/plan/kernel_order.h"
#include "core/sim/checked_time.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <optional>
#include <stdexcept>

namespace spillway::replay {

namespace {

// Without a planned layout every used tensor gets its own range, one UVM page (4 KiB) aligned,
// so prefetching a tensor moves its own pages.
constexpr Bytes kPackAlignment = 4096;

Bytes alignUp(Bytes v, Bytes a) { return (v + a - 1) / a * a; }

[[noreturn]] void fail(const std::string& message) { throw std::invalid_argument(message); }

std::string directiveLabel(std::size_t index, const Directive& d) {
    return fmt::format("directive {} ({} of tensor {} at kernel {})", index, toString(d.kind), d.tensor, d.kernelPos);
}

// Latency + bytes over one link; a link the hardware lacks has no value.
std::optional<Nanoseconds> overLink(const LinkSpec& link, Bytes bytes) {
    if (link.bytesPerSecond <= 0) return std::nullopt;
    return link.latency + transferTime(link, bytes);
}

struct Modelled {
    Nanoseconds duration = 0;
    std::string path;
};

// What moving `bytes` in or out costs on the plan's hardware. SSD without a direct link goes
// through the host (two hops, one after the other).
Modelled modelMove(const HardwareConfig& hw, bool in, Tier other, Bytes bytes, const std::string& label) {
    if (other == Tier::Ssd) {
        if (auto direct = overLink(in ? hw.ssdToGpu : hw.gpuToSsd, bytes))
            return {*direct, in ? "SSD->GPU" : "GPU->SSD"};
        auto first = overLink(in ? hw.ssdToHost : hw.gpuToHost, bytes);
        auto second = overLink(in ? hw.hostToGpu : hw.hostToSsd, bytes);
        if (first && second) return {*first + *second, in ? "SSD->host->GPU" : "GPU->host->SSD"};
        fail(label + ": the plan's hardware (" + hw.id + ") has no path " + (in ? "from the SSD to the GPU" : "from the GPU to the SSD"));
    }
    if (auto direct = overLink(in ? hw.hostToGpu : hw.gpuToHost, bytes)) return {*direct, in ? "host->GPU" : "GPU->host"};
    fail(label + ": the plan's hardware (" + hw.id + ") has no " + (in ? "host->GPU" : "GPU->host") + " link");
}

// Where a tensor is and whether its contents were dropped, as the directives issue.
struct TensorState {
    Tier where = Tier::Host;
    bool dropped = false;
};

// The steps of buildReplayProgram, in the order build() runs them, over the state they share.
// Each step checks what it reads of the plan and fails naming the directive, kernel or tensor.
class ProgramBuilder {
public:
    ProgramBuilder(const Profile& profile, const ExportedPlan& exported)
        : profile_(profile),
          exported_(exported),
          plan_(exported.plan),
          hw_(exported.hardware),
          n_(static_cast<std::int64_t>(profile.kernels.size())),
          index_(profile) {}

    ReplayProgram build(const ReplayOptions& options) {
        describePlan();
        takeRunOrder();
        markUsedTensors();
        layOutArena(options.arena);
        addKernels();
        orderSlots_ = options.orderSlots && program_.plannedOffsets;
        prefetchesAfterDrops_ = orderSlots_ && options.prefetchesAfterDrops;
        addDirectives();
        modelDirectiveCosts();
        linkCrossStreamWaits();
        addPrefetchWaits();
        if (orderSlots_) addSlotWaits(program_, touched_, overlapping_);
        program_.slotsOrdered = orderSlots_;
        program_.prefetchesAfterDrops = prefetchesAfterDrops_;
        program_.discardAndPrefetchAfterDrop = options.discardAndPrefetchAfterDrop;
        if (options.fenceDiscards && program_.arenaKind != ArenaKind::Managed)
            fail("--fence-discards needs a managed arena (--arena managed): a device arena issues no discards");
        program_.fenceDiscards = options.fenceDiscards;
        program_.discards = checkedSelection(options.discards);
        addRecomputes();
        return std::move(program_);
    }

private:
    void describePlan();
    void takeRunOrder();
    void markUsedTensors();
    void layOutArena(ArenaChoice choice);
    void placeAtPlannedOffsets();
    void packTensors();
    void addKernels();
    void appendRanges(const Kernel& k, const std::vector<TensorId>& ids, std::vector<ArenaRange>& out) const;
    void addDirectives();
    void checkDirectives();
    void moveSlotPrefetches();
    // Plan directive i no longer sits at the plan's anchor: slot reuse moved it.
    bool movedForSlot(std::size_t i) const {
        const Directive& d = plan_.directives[i];
        return keyOf_[i] != 2 * runIndexOf_[d.kernelPos] + (d.afterKernel ? 1 : 0);
    }
    ReplayDirective replayDirectiveFor(std::size_t i) const;
    DiscardSelection checkedSelection(const DiscardSelection& s) const;
    void modelDirectiveCosts();
    void modelCost(ReplayDirective& d, TensorState& s) const;
    void linkCrossStreamWaits();
    void addPrefetchWaits();
    void addRecomputes();
    bool reads(std::int64_t r, std::int32_t t) const;
    bool touches(std::int64_t r, std::int32_t t) const;

    const Profile& profile_;
    const ExportedPlan& exported_;
    const Plan& plan_;
    const HardwareConfig& hw_;
    const std::int64_t n_;
    const ProfileIndex index_;
    ReplayProgram program_;
    std::vector<std::int64_t> order_;       // run index -> kernel position
    std::vector<std::int64_t> runIndexOf_;  // kernel position -> run index
    std::vector<char> used_;                // per tensor: some kernel reads or writes it
    std::vector<ArenaRange> workspaces_;    // per kernel position
    std::vector<std::int64_t> keyOf_;       // per plan directive: its anchor key
    bool orderSlots_ = false;
    bool prefetchesAfterDrops_ = false;
    std::vector<char> lastAtAnchor_;  // per plan directive: a prefetch issued after the drops at its anchor
    std::vector<std::vector<std::int32_t>> touched_;      // per run index: tensor positions read or written
    std::vector<std::vector<std::int32_t>> overlapping_;  // per tensor: others sharing arena bytes
};

void ProgramBuilder::describePlan() {
    program_.profileName = exported_.profileName;
    program_.profileHash = exported_.profileHash;
    program_.policy = plan_.policy;
    program_.hardwareId = hw_.id;
    if (!plan_.cannotRun.empty())
        program_.notes.emplace_back(-1, "the planner found that the plan cannot run on " + hw_.id + " (" +
                                            plan_.cannotRun + "); replayed anyway");
}

// The plan's order (program order when it has none), checked by the rule every reader of a plan
// shares (core/plan/kernel_order.h).
void ProgramBuilder::takeRunOrder() {
    try {
        order_ = runOrder(plan_, profile_.kernels.size());
    } catch (const std::invalid_argument& e) {
        fail(e.what());
    }
    runIndexOf_.assign(n_, -1);
    for (std::int64_t r = 0; r < n_; ++r) runIndexOf_[order_[r]] = r;
}

void ProgramBuilder::markUsedTensors() {
    used_.assign(profile_.tensors.size(), 0);
    for (const Kernel& k : profile_.kernels) {
        for (TensorId id : k.inputs)
            if (const auto p = index_.tensorPos(id); p >= 0) used_[p] = 1;
        for (TensorId id : k.outputs)
            if (const auto p = index_.tensorPos(id); p >= 0) used_[p] = 1;
    }
}

// Which memory the arena is, and where each tensor and workspace lies in it.
void ProgramBuilder::layOutArena(ArenaChoice choice) {
    const bool hasArena = !plan_.arena.empty();
    switch (choice) {
        case ArenaChoice::Auto: program_.arenaKind = hasArena ? ArenaKind::Device : ArenaKind::Managed; break;
        case ArenaChoice::Managed: program_.arenaKind = ArenaKind::Managed; break;
        case ArenaChoice::Device:
            if (!hasArena) fail("a device-memory arena needs a plan with an arena layout (placement); this plan has none");
            program_.arenaKind = ArenaKind::Device;
            break;
    }
    program_.tensors.assign(profile_.tensors.size(), ArenaRange{});
    workspaces_.assign(n_, ArenaRange{});
    if (hasArena) placeAtPlannedOffsets();
    else packTensors();
}

// The plan's arena: every tensor and workspace at its slot; every used tensor must have one.
void ProgramBuilder::placeAtPlannedOffsets() {
    program_.plannedOffsets = true;
    program_.arenaBytes = plan_.arenaBytes;
    for (std::size_t s = 0; s < plan_.arena.size(); ++s) {
        const ArenaSlot& slot = plan_.arena[s];
        if (slot.offset + slot.bytes > plan_.arenaBytes)
            fail(fmt::format("arena slot {} ends at byte {}, past the plan's arena of {} bytes", s,
                             slot.offset + slot.bytes, plan_.arenaBytes));
        if (slot.tensor >= 0) {
            const auto p = index_.tensorPos(slot.tensor);
            if (p < 0) fail(fmt::format("arena slot {} names unknown tensor id {}", s, slot.tensor));
            program_.tensors[p] = {slot.offset, std::min(slot.bytes, profile_.tensors[p].bytes)};
        } else {
            if (slot.workspaceKernelPos < 0 || slot.workspaceKernelPos >= n_)
                fail(fmt::format("arena slot {} is the workspace of kernel position {}, outside the profile", s,
                                 slot.workspaceKernelPos));
            workspaces_[slot.workspaceKernelPos] = {slot.offset, slot.bytes};
        }
    }
    for (std::size_t t = 0; t < profile_.tensors.size(); ++t)
        if (used_[t] && profile_.tensors[t].bytes > 0 && program_.tensors[t].bytes == 0)
            fail(fmt::format("the plan's arena has no slot for tensor {} ('{}'), which the kernels use",
                             profile_.tensors[t].id, profile_.tensors[t].name));
}

// No planned arena: the used tensors one after the other, then one scratch range.
void ProgramBuilder::packTensors() {
    Bytes next = 0;
    for (std::size_t t = 0; t < profile_.tensors.size(); ++t) {
        if (!used_[t] || profile_.tensors[t].bytes <= 0) continue;
        program_.tensors[t] = {next, profile_.tensors[t].bytes};
        next = alignUp(next + profile_.tensors[t].bytes, kPackAlignment);
    }
    // Workspaces live only while their kernel runs: one scratch range serves them all.
    Bytes scratch = 0;
    for (const Kernel& k : profile_.kernels) scratch = std::max(scratch, k.workspaceBytes);
    for (std::int64_t k = 0; k < n_; ++k)
        if (profile_.kernels[k].workspaceBytes > 0) workspaces_[k] = {next, profile_.kernels[k].workspaceBytes};
    program_.arenaBytes = next + alignUp(scratch, kPackAlignment);
}

// The kernels in run order, with the ranges they read and write.
void ProgramBuilder::addKernels() {
    program_.kernels.resize(n_);
    for (std::int64_t r = 0; r < n_; ++r) {
        const Kernel& k = profile_.kernels[order_[r]];
        ReplayKernel& rk = program_.kernels[r];
        rk.runIndex = r;
        rk.position = order_[r];
        rk.id = k.id;
        rk.name = k.name;
        rk.duration = k.duration;
        rk.workspace = workspaces_[order_[r]];
        appendRanges(k, k.inputs, rk.reads);
        appendRanges(k, k.outputs, rk.writes);
    }
}

void ProgramBuilder::appendRanges(const Kernel& k, const std::vector<TensorId>& ids,
                                  std::vector<ArenaRange>& out) const {
    for (TensorId id : ids) {
        const auto p = index_.tensorPos(id);
        if (p < 0) fail(fmt::format("kernel {} ('{}') uses unknown tensor id {}", k.id, k.name, id));
        if (program_.tensors[p].bytes > 0) out.push_back(program_.tensors[p]);
    }
}

// Directives in side-stream order: by anchor (before kernel r = 2r, after it = 2r + 1), then
// as the plan lists them.
void ProgramBuilder::addDirectives() {
    checkDirectives();
    if (orderSlots_) moveSlotPrefetches();
    std::vector<std::size_t> sorted(plan_.directives.size());
    for (std::size_t i = 0; i < sorted.size(); ++i) sorted[i] = i;
    // A prefetch moved for slot reuse, or issued after a drop of its slot's previous tensor,
    // goes last at its anchor: after the drops issued there, which it then waits for.
    std::stable_sort(sorted.begin(), sorted.end(), [&](std::size_t a, std::size_t b) {
        const bool lastA = movedForSlot(a) || (!lastAtAnchor_.empty() && lastAtAnchor_[a]);
        const bool lastB = movedForSlot(b) || (!lastAtAnchor_.empty() && lastAtAnchor_[b]);
        return keyOf_[a] != keyOf_[b] ? keyOf_[a] < keyOf_[b] : (!lastA && lastB);
    });
    program_.anchorBegin.assign(2 * n_ + 1, 0);
    for (std::size_t i : sorted) program_.directives.push_back(replayDirectiveFor(i));
    for (std::size_t j = 0, a = 0; a <= static_cast<std::size_t>(2 * n_); ++a) {
        const auto key = static_cast<std::int64_t>(a);
        while (j < program_.directives.size() && keyOf_[program_.directives[j].planIndex] < key) ++j;
        program_.anchorBegin[a] = j;
    }
}

// Every directive's kernel, tensor and delay, in plan order, and its anchor key.
void ProgramBuilder::checkDirectives() {
    keyOf_.assign(plan_.directives.size(), 0);
    for (std::size_t i = 0; i < plan_.directives.size(); ++i) {
        const Directive& d = plan_.directives[i];
        if (d.kernelPos < 0 || d.kernelPos >= n_)
            fail(directiveLabel(i, d) + ": kernel position outside the profile's " + std::to_string(n_) + " kernels");
        if (index_.tensorPos(d.tensor) < 0) fail(directiveLabel(i, d) + ": unknown tensor id");
        if (d.delay < 0) fail(directiveLabel(i, d) + ": negative delay");
        keyOf_[i] = 2 * runIndexOf_[d.kernelPos] + (d.afterKernel ? 1 : 0);
    }
}

// Prefetches into a shared slot issued only after the slot's previous tensor is done with.
void ProgramBuilder::moveSlotPrefetches() {
    touched_.assign(n_, {});
    for (std::int64_t r = 0; r < n_; ++r) {
        const Kernel& k = profile_.kernels[order_[r]];
        for (const auto* ids : {&k.inputs, &k.outputs})
            for (TensorId id : *ids)
                if (const auto p = index_.tensorPos(id); p >= 0) touched_[r].push_back(static_cast<std::int32_t>(p));
    }
    overlapping_ = overlappingTensors(program_.tensors);
    std::vector<SlotDirective> slots;
    for (std::size_t i = 0; i < plan_.directives.size(); ++i)
        slots.push_back({static_cast<std::int32_t>(index_.tensorPos(plan_.directives[i].tensor)),
                         plan_.directives[i].kind == DirectiveKind::Prefetch, keyOf_[i]});
    std::size_t moved = 0, afterDrops = 0;
    keyOf_ = slotSafeKeys(slots, touched_, overlapping_, moved);
    if (prefetchesAfterDrops_) lastAtAnchor_ = prefetchesAfterDrops(slots, keyOf_, touched_, overlapping_, afterDrops);
    if (moved > 0)
        program_.notes.emplace_back(-1, fmt::format("slot reuse ordered: {} prefetch(es) issued after the last kernel that "
                                                    "uses another tensor at their arena offsets, not at the plan's anchor",
                                                    moved));
    if (afterDrops > 0)
        program_.notes.emplace_back(-1, fmt::format("slot reuse ordered: {} prefetch(es) issued after the drop of another "
                                                    "tensor sharing their arena bytes, before their tensor's next use",
                                                    afterDrops));
}

// --discards names plan directives: each named on its own must be a drop, and none may lie
// beyond the plan (a typo would otherwise select nothing, silently).
DiscardSelection ProgramBuilder::checkedSelection(const DiscardSelection& s) const {
    const auto count = static_cast<std::int64_t>(plan_.directives.size());
    if (s.largestIndex() >= count)
        throw std::invalid_argument(fmt::format("--discards {}: directive {} is beyond the plan's {} directives", s.text(),
                                                s.largestIndex(), count));
    for (const std::int64_t i : s.singles()) {
        const auto kind = plan_.directives[static_cast<std::size_t>(i)].kind;
        if (!dropsContents(replayActionFor(toString(kind))))
            throw std::invalid_argument(fmt::format("--discards {}: directive {} is a {}, not a drop (discard, free, "
                                                    "recompute)", s.text(), i, toString(kind)));
    }
    return s;
}

ReplayDirective ProgramBuilder::replayDirectiveFor(std::size_t i) const {
    const Directive& d = plan_.directives[i];
    ReplayDirective rd;
    rd.planIndex = static_cast<std::int64_t>(i);
    try {
        rd.action = replayActionFor(toString(d.kind));
    } catch (const std::invalid_argument& e) {
        fail(directiveLabel(i, d) + ": " + e.what());
    }
    rd.kind = std::string(toString(d.kind));
    rd.advice = d.advice;
    rd.stream = sideStreamOf(rd.action);
    rd.tensor = static_cast<std::int32_t>(index_.tensorPos(d.tensor));
    rd.tensorId = d.tensor;
    rd.tensorName = profile_.tensors[rd.tensor].name;
    rd.range = program_.tensors[rd.tensor];
    rd.target = d.target;
    rd.anchorRunIndex = keyOf_[i] / 2;  // the plan's anchor, unless slot reuse moved it
    rd.afterKernel = keyOf_[i] % 2 == 1;
    // A prefetch moved for slot reuse is issued as soon as its slot is free: no delay on top.
    rd.delay = movedForSlot(i) ? 0 : d.delay;
    if (rd.action == ReplayAction::PreEvict && d.target == Tier::Gpu)
        fail(directiveLabel(i, d) + ": a pre-evict needs a target of host or ssd, not gpu");
    return rd;
}

// Where each tensor is and whether its contents were dropped, in issue order. Taken over the
// steady state: the second pass starts from where the first one ended (the iteration before).
void ProgramBuilder::modelDirectiveCosts() {
    std::vector<TensorState> state(profile_.tensors.size());
    for (int pass = 0; pass < 2; ++pass)
        for (ReplayDirective& d : program_.directives) modelCost(d, state[d.tensor]);
}

void ProgramBuilder::modelCost(ReplayDirective& d, TensorState& s) const {
    const std::string label = directiveLabel(d.planIndex, plan_.directives[d.planIndex]);
    const Bytes bytes = profile_.tensors[d.tensor].bytes;
    d.modelledDuration = 0;
    d.modelledPath.clear();
    switch (d.action) {
        case ReplayAction::Prefetch: {
            d.source = s.where;
            d.afterDrop = s.dropped;
            if (s.dropped) {
                // Zero-filled on the GPU: only the allocation cost.
                d.modelledDuration = sim::checkedAllocTime(bytes, hw_);
                d.modelledPath = "zero-fill";
            } else {
                const Modelled m = modelMove(hw_, true, s.where, bytes, label);
                d.modelledDuration = m.duration;
                d.modelledPath = m.path;
            }
            s.dropped = false;
            break;
        }
        case ReplayAction::PreEvict: {
            d.source = d.target;
            const Modelled m = modelMove(hw_, false, d.target, bytes, label);
            d.modelledDuration = m.duration;
            d.modelledPath = m.path;
            s.where = d.target;
            s.dropped = false;
            break;
        }
        case ReplayAction::Discard: {
            const Bytes blocks = hw_.blockSize > 0 ? (bytes + hw_.blockSize - 1) / hw_.blockSize : 1;
            d.modelledDuration = discardUnmapTime(hw_, blocks, bytes);
            d.modelledPath = "unmap";
            s.dropped = true;
            break;
        }
        case ReplayAction::DiscardLazy:
        case ReplayAction::Free:
        case ReplayAction::Recompute:
            d.modelledPath = "mark";
            s.dropped = true;
            break;
        case ReplayAction::Advise: d.modelledPath = "advice"; break;
    }
}

// Cross-stream order per tensor: each directive waits for the latest directive on its tensor
// in the other stream (in this iteration, else the iteration before).
void ProgramBuilder::linkCrossStreamWaits() {
    std::vector<std::array<std::int64_t, 2>> last(profile_.tensors.size(), {-1, -1});
    for (std::size_t j = 0; j < program_.directives.size(); ++j)
        last[program_.directives[j].tensor][int(program_.directives[j].stream)] = static_cast<std::int64_t>(j);
    const auto atEnd = last;
    for (auto& l : last) l = {-1, -1};
    for (std::size_t j = 0; j < program_.directives.size(); ++j) {
        ReplayDirective& d = program_.directives[j];
        const int other = d.stream == SideStream::In ? 1 : 0;
        if (last[d.tensor][other] >= 0) {
            d.hasCrossWait = true;
            d.crossWait = {static_cast<std::size_t>(last[d.tensor][other]), false};
        } else if (atEnd[d.tensor][other] >= 0) {
            d.hasCrossWait = true;
            d.crossWait = {static_cast<std::size_t>(atEnd[d.tensor][other]), true};
        }
        last[d.tensor][int(d.stream)] = static_cast<std::int64_t>(j);
    }
}

// Which prefetches each kernel waits for: per tensor it uses, the latest prefetch of that
// tensor issued before it starts (in this iteration, else the iteration before).
void ProgramBuilder::addPrefetchWaits() {
    std::vector<std::int64_t> lastPrefetch(profile_.tensors.size(), -1);
    auto scanAnchor = [&](std::size_t a) {
        for (std::size_t j = program_.anchorBegin[a]; j < program_.anchorBegin[a + 1]; ++j) {
            const ReplayDirective& d = program_.directives[j];
            if (d.action == ReplayAction::Prefetch) lastPrefetch[d.tensor] = j;
        }
    };
    for (std::size_t a = 0; a < static_cast<std::size_t>(2 * n_); ++a) scanAnchor(a);
    const std::vector<std::int64_t> atEnd = lastPrefetch;
    std::fill(lastPrefetch.begin(), lastPrefetch.end(), -1);
    for (std::int64_t r = 0; r < n_; ++r) {
        scanAnchor(2 * r);
        ReplayKernel& rk = program_.kernels[r];
        const Kernel& k = profile_.kernels[rk.position];
        std::vector<TensorId> ids = k.inputs;
        ids.insert(ids.end(), k.outputs.begin(), k.outputs.end());
        for (TensorId id : ids) {
            const auto p = index_.tensorPos(id);
            ReplayDependency dep;
            if (lastPrefetch[p] >= 0) dep = {static_cast<std::size_t>(lastPrefetch[p]), false};
            else if (atEnd[p] >= 0) dep = {static_cast<std::size_t>(atEnd[p]), true};
            else continue;
            const bool seen = std::any_of(rk.waitsFor.begin(), rk.waitsFor.end(), [&](const ReplayDependency& x) {
                return x.directive == dep.directive && x.previousIteration == dep.previousIteration;
            });
            if (!seen) rk.waitsFor.push_back(dep);
        }
        scanAnchor(2 * r + 1);
    }
}

// Recomputes: the producer re-runs before the next kernel that reads the dropped tensor.
void ProgramBuilder::addRecomputes() {
    const Liveness liveness = computeLiveness(profile_);
    for (std::size_t j = 0; j < program_.directives.size(); ++j) {
        const ReplayDirective& d = program_.directives[j];
        if (d.action != ReplayAction::Recompute) continue;
        const std::int64_t producer = liveness.tensors[d.tensor].producer;
        if (producer < 0) {
            program_.notes.emplace_back(d.planIndex, "recompute of tensor " + std::to_string(d.tensorId) +
                                                         ": no kernel produces it, nothing to re-run");
            continue;
        }
        // The next kernel to touch the tensor after the drop, wrapping into the next iteration.
        const std::int64_t key = 2 * d.anchorRunIndex + (d.afterKernel ? 1 : 0);
        std::int64_t consumer = -1;
        bool wrapped = false;
        for (std::int64_t r = (key + 1) / 2; r < n_ && consumer < 0; ++r)
            if (touches(r, d.tensor)) consumer = r;
        for (std::int64_t r = 0; r < n_ && consumer < 0; ++r)
            if (touches(r, d.tensor)) consumer = r, wrapped = true;
        // A next use that only writes the tensor rebuilds it anyway.
        if (consumer < 0 || !reads(consumer, d.tensor)) continue;
        program_.kernels[consumer].recomputes.push_back(
            {d.tensor, producer, profile_.kernels[producer].duration, j, wrapped});
    }
}

bool ProgramBuilder::reads(std::int64_t r, std::int32_t t) const {
    const Kernel& k = profile_.kernels[order_[r]];
    return std::any_of(k.inputs.begin(), k.inputs.end(), [&](TensorId id) { return index_.tensorPos(id) == t; });
}

bool ProgramBuilder::touches(std::int64_t r, std::int32_t t) const {
    const Kernel& k = profile_.kernels[order_[r]];
    return reads(r, t) ||
           std::any_of(k.outputs.begin(), k.outputs.end(), [&](TensorId id) { return index_.tensorPos(id) == t; });
}

}  // namespace

ReplayProgram buildReplayProgram(const Profile& profile, const ExportedPlan& exported, const ReplayOptions& options) {
    return ProgramBuilder(profile, exported).build(options);
}

}  // namespace spillway::replay
