#include "core/io/torch_snapshot/torch_snapshot_steps.h"

#include "core/io/base/import_error.h"
#include "core/io/torch_snapshot/snapshot_window.h"
#include "core/io/torch_snapshot/torch_snapshot_kinds.h"
#include "core/trace/kind_evidence.h"
#include "core/trace/number_limits.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <unordered_map>

namespace spillway {

namespace {

constexpr Nanoseconds kUntimedStep = 1000;

// Where each trace event falls in the steps of one device.
struct DeviceSteps {
    std::vector<std::int64_t> allocStep;   // per event; -1 when the event allocates nothing
    std::vector<std::int64_t> freeStep;    // per event; -1 when the event frees nothing
    std::vector<std::int64_t> firstEvent;  // per step
    std::vector<std::int64_t> lastEvent;   // per step
    std::int64_t count() const { return static_cast<std::int64_t>(firstEvent.size()); }
};

DeviceSteps formSteps(size_t eventCount, const std::vector<const SnapshotAllocation*>& allocations) {
    DeviceSteps s;
    std::vector<char> allocs(eventCount, 0), frees(eventCount, 0);
    for (const auto* a : allocations) {
        if (a->allocEvent >= 0) allocs[static_cast<size_t>(a->allocEvent)] = 1;
        if (a->freeEvent >= 0) frees[static_cast<size_t>(a->freeEvent)] = 1;
    }
    s.allocStep.assign(eventCount, -1);
    s.freeStep.assign(eventCount, -1);
    std::int64_t step = -1;
    bool freedSinceAlloc = false;
    auto touch = [&](size_t i) {
        const auto at = static_cast<std::int64_t>(i);
        if (step >= s.count()) {
            s.firstEvent.push_back(at);
            s.lastEvent.push_back(at);
        }
        s.lastEvent.back() = at;
    };
    for (size_t i = 0; i < eventCount; ++i) {
        if (!allocs[i] && !frees[i]) continue;
        if (step < 0) step = 0;
        // An event can close a lost allocation and open a new one at the same address: the
        // free comes first.
        if (frees[i]) {
            touch(i);
            s.freeStep[i] = step;
            freedSinceAlloc = true;
        }
        if (allocs[i]) {
            if (freedSinceAlloc) ++step;
            freedSinceAlloc = false;
            touch(i);
            s.allocStep[i] = step;
        }
    }
    return s;
}

std::string tensorName(const SnapshotAllocation& a) {
    // The viewer at pytorch.org/memory_viz names blocks b<hex address>_<version> the same way.
    if (a.device == 0) return fmt::format("b{:x}_{}", a.address, a.reuse);
    return fmt::format("cuda{}:b{:x}_{}", a.device, a.address, a.reuse);
}

class Builder {
public:
    Builder(const MemorySnapshot& snapshot, const std::string& file, SnapshotFrameBudget& budget,
            std::int64_t iteration)
        : snap_(snapshot), file_(file), budget_(budget), iteration_(iteration) {}

    Profile build() {
        const auto found = collectAllocations(snap_);
        if (found.allocations.empty())
            throw ImportError(file_, "the snapshot holds no allocations (no active blocks and no "
                                     "alloc/free events); record history with "
                                     "torch.cuda.memory._record_memory_history() before "
                                     "torch.cuda.memory._dump_snapshot()");
        chargeStackCopies(found);
        findTimeOrigin();
        std::map<std::int64_t, std::vector<const SnapshotAllocation*>> byDevice;
        for (const auto& a : found.allocations) byDevice[a.device].push_back(&a);
        for (const auto& [device, allocations] : byDevice) addDevice(device, allocations);
        addNotes(found);
        return std::move(profile_);
    }

private:
    const MemorySnapshot& snap_;
    const std::string& file_;
    SnapshotFrameBudget& budget_;
    Profile profile_;
    std::int64_t iteration_ = ImportOptions::kSteadyIteration;
    bool timed_ = false;
    std::int64_t originUs_ = 0;
    std::int64_t eventBase_ = 0;  // the chosen window's first event in the device trace
    std::string imported_ = "1";
    KindEvidence evidence_;

    // Every tensor gets its own copy of its stack (Tensor::frames), however many allocations
    // share it in the file: price all the copies before making any.
    void chargeStackCopies(const SnapshotAllocations& found) {
        std::unordered_map<const void*, std::int64_t> bytesOfStack;
        std::int64_t frames = 0, bytes = 0;
        for (const auto& a : found.allocations) {
            if (!a.frames) continue;
            auto [it, fresh] = bytesOfStack.try_emplace(a.frames.get(), 0);
            if (fresh)
                for (const auto& f : *a.frames) it->second = SnapshotFrameBudget::add(it->second, SnapshotFrameBudget::cost(f));
            frames = SnapshotFrameBudget::add(frames, static_cast<std::int64_t>(a.frames->size()));
            bytes = SnapshotFrameBudget::add(bytes, it->second);
        }
        budget_.charge(frames, bytes, SourceLocation{file_, 0, 0, -1, {}});
    }

    // Times are used only when every event that matters has one; they are then relative to the
    // earliest event of any device.
    void findTimeOrigin() {
        bool any = false, all = true;
        originUs_ = std::numeric_limits<std::int64_t>::max();
        for (const auto& trace : snap_.deviceTraces)
            for (const auto& e : trace) {
                if (e.action != SnapshotAction::Alloc && e.action != SnapshotAction::FreeCompleted) continue;
                if (!e.timeUs) {
                    all = false;
                    continue;
                }
                any = true;
                originUs_ = std::min(originUs_, *e.timeUs);
            }
        timed_ = any && all;
        if (!timed_) originUs_ = 0;
        if (timed_) checkTimeSpan();
    }

    // A time from the origin is a native profile's alloc_time_ns / free_time_ns, bounded to
    // 2^50 ns (number_limits.h); a snapshot spanning longer is refused here, at its event, rather
    // than converted into a profile that does not read back (found by fuzz_torch_snapshot).
    void checkTimeSpan() const {
        constexpr std::int64_t kMaxSpanUs = kMaxDurationNs / 1000;
        for (const auto& trace : snap_.deviceTraces)
            for (const auto& e : trace) {
                if (!e.timeUs || (e.action != SnapshotAction::Alloc && e.action != SnapshotAction::FreeCompleted)) continue;
                // Both within +-INT64_MAX/1000 (the reader's check): the difference cannot overflow.
                if (*e.timeUs - originUs_ > kMaxSpanUs)
                    throw ImportError(SourceLocation{file_, 0, 0, e.byteOffset, {}},
                                      fmt::format("this event is {} us after the snapshot's earliest one; a snapshot "
                                                  "may span at most the 13-day (2^50 ns) limit",
                                                  *e.timeUs - originUs_));
            }
    }

    const std::vector<SnapshotEvent>& events(std::int64_t device) const {
        static const std::vector<SnapshotEvent> kNone;
        return device < static_cast<std::int64_t>(snap_.deviceTraces.size())
                   ? snap_.deviceTraces[static_cast<size_t>(device)]
                   : kNone;
    }

    Nanoseconds sinceOrigin(std::int64_t device, std::int64_t event) const {
        return (*events(device)[static_cast<size_t>(event)].timeUs - originUs_) * 1000;
    }

    // The allocations the profile gets (events local to `window`) and the rule that decided
    // each one's kind, with the shape of every iteration for the phases.
    struct DeviceSelection {
        SnapshotWindow window;
        WindowAllocations selected;
        std::vector<const SnapshotKindRule*> rules;        // parallel to selected.allocations
        std::vector<std::pair<SnapshotWindow, SnapshotIterationShape>> shapes;  // local to `window`
    };

    DeviceSelection select(const std::vector<const SnapshotAllocation*>& allocations, std::int64_t eventCount) {
        const auto iterations = findDeviceIterations(allocations, eventCount);
        noteIterations(iterations);
        DeviceSelection s;
        const auto found = static_cast<std::int64_t>(iterations.windows.size());
        if (iteration_ == ImportOptions::kAllIterations) {
            s.window = {0, eventCount};
            s.selected = sliceToWindow(allocations, s.window);
            s.rules.assign(s.selected.allocations.size(), nullptr);
            classifyEachIteration(allocations, iterations.windows, s);
            for (size_t i = 0; i < s.rules.size(); ++i)
                if (!s.rules[i]) {
                    const auto& a = s.selected.allocations[i];
                    s.rules[i] = &unplacedSnapshotRule(a.allocEvent < 0 && a.freeEvent < 0);
                }
            return s;
        }
        auto k = iteration_ == ImportOptions::kSteadyIteration ? (found >= 2 ? 2 : 1) : iteration_;
        if (k < 1 || k > found)
            throw ImportError(file_, fmt::format("--iteration {}: the snapshot holds {} complete iteration{} "
                                                 "(use 1 to {}, or all)",
                                                 k, found, found == 1 ? "" : "s", found));
        s.window = iterations.windows[static_cast<size_t>(k - 1)];
        s.selected = sliceToWindow(allocations, s.window);
        auto kinds = classifySnapshotIteration(s.selected.allocations, s.window.eventCount());
        s.rules = std::move(kinds.rules);
        s.shapes.push_back({{0, s.window.eventCount()}, kinds.shape});
        imported_ = std::to_string(k);
        return s;
    }

    // With every iteration kept, each allocation made in an iteration gets that iteration's
    // rule, and the persistent ones the first iteration's. `s.selected` is the whole trace, so
    // its positions are the allocations' own.
    static void classifyEachIteration(const std::vector<const SnapshotAllocation*>& allocations,
                                      const std::vector<SnapshotWindow>& windows, DeviceSelection& s) {
        const auto slices = sliceToWindows(allocations, windows);
        for (size_t k = 0; k < windows.size(); ++k) {
            const auto& local = slices[k];
            const auto kinds = classifySnapshotIteration(local.allocations, windows[k].eventCount());
            for (size_t i = 0; i < local.allocations.size(); ++i) {
                const auto& a = local.allocations[i];
                auto& rule = s.rules[local.source[i]];
                if (!rule && (a.allocEvent >= 0 || (a.allocEvent < 0 && a.freeEvent < 0))) rule = kinds.rules[i];
            }
            s.shapes.push_back({windows[k], kinds.shape});
        }
    }

    void addDevice(std::int64_t device, const std::vector<const SnapshotAllocation*>& allocations) {
        profile_.jobs.push_back({device, fmt::format("cuda:{}", device)});
        const auto& trace = events(device);
        const auto selection = select(allocations, static_cast<std::int64_t>(trace.size()));
        eventBase_ = selection.window.firstEvent;
        const auto& chosen = selection.selected.allocations;
        std::vector<const SnapshotAllocation*> pointers;
        for (const auto& a : chosen) pointers.push_back(&a);
        auto steps = formSteps(static_cast<size_t>(selection.window.eventCount()), pointers);
        const bool stateOnly = steps.count() == 0;  // no events: one step holds the state
        const auto stepCount = stateOnly ? std::int64_t{1} : steps.count();
        const auto firstKernel = static_cast<std::int64_t>(profile_.kernels.size());
        for (std::int64_t s = 0; s < stepCount; ++s) {
            profile_.kernels.push_back(makeKernel(device, steps, s, stateOnly));
            if (!stateOnly) profile_.kernels.back().phase = phaseOf(steps.firstEvent[static_cast<size_t>(s)], selection);
        }
        auto kernelAt = [&](std::int64_t step) -> Kernel& {
            return profile_.kernels[static_cast<size_t>(firstKernel + step)];
        };
        const auto lastStep = stepCount - 1;
        for (size_t i = 0; i < chosen.size(); ++i) {
            const auto& a = chosen[i];
            Tensor t = makeTensor(device, a, *selection.rules[i]);
            if (t.persistent) {
                kernelAt(0).inputs.push_back(t.id);
                if (lastStep != 0) kernelAt(lastStep).inputs.push_back(t.id);
            } else {
                const auto made = a.allocEvent >= 0 ? steps.allocStep[static_cast<size_t>(a.allocEvent)] : 0;
                const auto freed = a.freeEvent >= 0 ? steps.freeStep[static_cast<size_t>(a.freeEvent)] : lastStep;
                kernelAt(made).outputs.push_back(t.id);
                if (freed != made) kernelAt(freed).inputs.push_back(t.id);
            }
            profile_.tensors.push_back(std::move(t));
        }
    }

    Tensor makeTensor(std::int64_t device, const SnapshotAllocation& a, const SnapshotKindRule& rule) {
        Tensor t;
        t.id = static_cast<TensorId>(profile_.tensors.size());
        t.name = tensorName(a);
        t.bytes = a.bytes;
        t.job = device;
        t.address = a.address;
        if (a.frames) t.frames = a.frames;  // shared: one copy per distinct stack
        t.persistent = a.allocEvent < 0 && a.freeEvent < 0;
        t.kind = rule.kind;
        evidence_.add(rule.id, rule.text, rule.kind, a.bytes, rule.unclassified);
        if (timed_ && a.allocEvent >= 0) t.allocTime = sinceOrigin(device, eventBase_ + a.allocEvent);
        if (timed_ && a.freeEvent >= 0) t.freeTime = sinceOrigin(device, eventBase_ + a.freeEvent);
        return t;
    }

    // Forward up to the peak, backward to the optimizer step, the optimizer step to the end of
    // the iteration; "other" outside every iteration and in iterations without a backward pass.
    static KernelPhase phaseOf(std::int64_t event, const DeviceSelection& s) {
        for (const auto& [w, shape] : s.shapes) {
            if (event < w.firstEvent || event >= w.endEvent) continue;
            if (!shape.training) return KernelPhase::Other;
            const auto local = event - w.firstEvent;
            if (local <= shape.forwardEnd) return KernelPhase::Forward;
            return local < shape.optimizerStart ? KernelPhase::Backward : KernelPhase::Optimizer;
        }
        return KernelPhase::Other;
    }

    Kernel makeKernel(std::int64_t device, const DeviceSteps& steps, std::int64_t s, bool stateOnly) const {
        Kernel k;
        k.id = static_cast<KernelId>(profile_.kernels.size());
        k.name = stateOnly ? "snapshot state" : fmt::format("step {}", s);
        k.op = "torch-snapshot-step";
        k.phase = KernelPhase::Other;
        k.job = device;
        k.duration = kUntimedStep;
        if (stateOnly || !timed_) return k;
        const auto start = sinceOrigin(device, eventBase_ + steps.firstEvent[static_cast<size_t>(s)]);
        const auto end = s + 1 < steps.count()
                             ? sinceOrigin(device, eventBase_ + steps.firstEvent[static_cast<size_t>(s + 1)])
                             : sinceOrigin(device, eventBase_ + steps.lastEvent[static_cast<size_t>(s)]);
        k.capturedStart = start;
        k.duration = std::max<Nanoseconds>(1, end - start);
        return k;
    }

    void noteIterations(const DeviceIterations& d) {
        auto& n = profile_.metadata.notes;
        n["iterations.found"] = std::to_string(d.windows.size());
        n["iterations.rule"] =
            d.found.period == 0
                ? "no repetition found in the allocation sizes: the whole trace is one iteration"
                : fmt::format("the allocation sizes repeat every {} allocations ({:.1f}% of them match one period "
                              "later); iterations begin where live bytes are lowest; {} allocations belong to "
                              "partial iterations at the trace's start or end",
                              d.found.period, 100.0 * d.found.matched, d.allocationsOutside);
    }

    void addNotes(const SnapshotAllocations& found) {
        auto& m = profile_.metadata;
        m.source = "torch-snapshot";
        m.sourcePath = file_;
        for (const auto& job : profile_.jobs) m.device += (m.device.empty() ? "" : ",") + job.name;
        auto& n = m.notes;
        n["snapshot_layout"] = snap_.layout;
        n["iterations.imported"] = iteration_ == ImportOptions::kAllIterations ? "all" : imported_;
        evidence_.writeNotes(n);
        n["tensor_bytes"] = "requested bytes of each allocation (the trace entry's size, or the block's "
                            "requested size); the allocator rounds blocks up";
        n["kernels"] = "one step per run of allocations and the frees that follow it; an allocation is "
                       "an output of the step that made it and an input of the step that frees it";
        n["kernel_durations"] = timed_ ? "from the step's first event to the next step's first event "
                                         "(time_us), at least 1 ns"
                                       : "1 us per step: the trace records no times";
        if (timed_) n["time_origin_us"] = std::to_string(originUs_);
        std::int64_t events = 0, before = 0;
        for (const auto& t : snap_.deviceTraces) events += static_cast<std::int64_t>(t.size());
        for (const auto& a : found.allocations) before += a.allocEvent < 0 ? 1 : 0;
        n["trace_events"] = std::to_string(events);
        n["allocations_before_recording"] = std::to_string(before);
        Bytes reserved = 0;
        for (const auto& s : snap_.segments) reserved += s.totalSize;
        n["reserved_bytes_at_snapshot"] = std::to_string(reserved);
        n["segments_at_snapshot"] = std::to_string(snap_.segments.size());
        auto count = [&](const char* key, std::int64_t v) {
            if (v != 0) n[key] = std::to_string(v);
        };
        count("oom_events", found.oomEvents);
        count("zero_size_allocations_skipped", found.zeroSizedSkipped);
        count("alloc_without_free_repaired", found.reallocWithoutFree);
        count("pending_free_blocks_skipped", found.pendingFreeBlocksSkipped);
        count("open_allocations_without_block", found.openNotInSegments);
        count("unknown_trace_actions_skipped", snap_.unknownActions);
        for (const auto& [k, v] : snap_.allocatorSettings) n["allocator." + k] = v;
    }
};

}  // namespace

Profile profileFromSnapshot(const MemorySnapshot& snapshot, const std::string& file,
                            SnapshotFrameBudget& budget, std::int64_t iteration) {
    return Builder(snapshot, file, budget, iteration).build();
}

}  // namespace spillway
