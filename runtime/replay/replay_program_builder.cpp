#include "runtime/replay/replay_program_builder.h"

#include "core/analysis/liveness.h"

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

}  // namespace

ReplayProgram buildReplayProgram(const Profile& profile, const ExportedPlan& exported, const ReplayOptions& options) {
    const Plan& plan = exported.plan;
    const HardwareConfig& hw = exported.hardware;
    const auto n = static_cast<std::int64_t>(profile.kernels.size());
    const ProfileIndex index(profile);

    ReplayProgram program;
    program.profileName = exported.profileName;
    program.profileHash = exported.profileHash;
    program.policy = plan.policy;
    program.hardwareId = hw.id;
    if (!plan.cannotRun.empty())
        program.notes.emplace_back(-1, "the planner found that the plan cannot run on " + hw.id + " (" + plan.cannotRun +
                                           "); replayed anyway");

    // Run order.
    std::vector<std::int64_t> order(n);
    std::vector<std::int64_t> runIndexOf(n, -1);
    if (plan.order.empty()) {
        for (std::int64_t k = 0; k < n; ++k) order[k] = k;
    } else {
        if (static_cast<std::int64_t>(plan.order.size()) != n)
            fail(fmt::format("the plan's order has {} kernels, the profile {}", plan.order.size(), n));
        order = plan.order;
    }
    for (std::int64_t r = 0; r < n; ++r) {
        const std::int64_t k = order[r];
        if (k < 0 || k >= n || runIndexOf[k] >= 0)
            fail(fmt::format("the plan's order is not a permutation of the kernel positions (entry {} is {})", r, k));
        runIndexOf[k] = r;
    }

    // Which tensors the kernels use.
    std::vector<char> used(profile.tensors.size(), 0);
    for (const Kernel& k : profile.kernels) {
        for (TensorId id : k.inputs)
            if (const auto p = index.tensorPos(id); p >= 0) used[p] = 1;
        for (TensorId id : k.outputs)
            if (const auto p = index.tensorPos(id); p >= 0) used[p] = 1;
    }

    // The arena.
    const bool hasArena = !plan.arena.empty();
    switch (options.arena) {
        case ArenaChoice::Auto: program.arenaKind = hasArena ? ArenaKind::Device : ArenaKind::Managed; break;
        case ArenaChoice::Managed: program.arenaKind = ArenaKind::Managed; break;
        case ArenaChoice::Device:
            if (!hasArena) fail("a device-memory arena needs a plan with an arena layout (placement); this plan has none");
            program.arenaKind = ArenaKind::Device;
            break;
    }
    program.tensors.assign(profile.tensors.size(), ArenaRange{});
    std::vector<ArenaRange> workspaces(n);
    if (hasArena) {
        program.plannedOffsets = true;
        program.arenaBytes = plan.arenaBytes;
        for (std::size_t s = 0; s < plan.arena.size(); ++s) {
            const ArenaSlot& slot = plan.arena[s];
            if (slot.offset + slot.bytes > plan.arenaBytes)
                fail(fmt::format("arena slot {} ends at byte {}, past the plan's arena of {} bytes", s,
                                 slot.offset + slot.bytes, plan.arenaBytes));
            if (slot.tensor >= 0) {
                const auto p = index.tensorPos(slot.tensor);
                if (p < 0) fail(fmt::format("arena slot {} names unknown tensor id {}", s, slot.tensor));
                program.tensors[p] = {slot.offset, std::min(slot.bytes, profile.tensors[p].bytes)};
            } else {
                if (slot.workspaceKernelPos < 0 || slot.workspaceKernelPos >= n)
                    fail(fmt::format("arena slot {} is the workspace of kernel position {}, outside the profile", s,
                                     slot.workspaceKernelPos));
                workspaces[slot.workspaceKernelPos] = {slot.offset, slot.bytes};
            }
        }
        for (std::size_t t = 0; t < profile.tensors.size(); ++t)
            if (used[t] && profile.tensors[t].bytes > 0 && program.tensors[t].bytes == 0)
                fail(fmt::format("the plan's arena has no slot for tensor {} ('{}'), which the kernels use",
                                 profile.tensors[t].id, profile.tensors[t].name));
    } else {
        Bytes next = 0;
        for (std::size_t t = 0; t < profile.tensors.size(); ++t) {
            if (!used[t] || profile.tensors[t].bytes <= 0) continue;
            program.tensors[t] = {next, profile.tensors[t].bytes};
            next = alignUp(next + profile.tensors[t].bytes, kPackAlignment);
        }
        // Workspaces live only while their kernel runs: one scratch range serves them all.
        Bytes scratch = 0;
        for (const Kernel& k : profile.kernels) scratch = std::max(scratch, k.workspaceBytes);
        for (std::int64_t k = 0; k < n; ++k)
            if (profile.kernels[k].workspaceBytes > 0) workspaces[k] = {next, profile.kernels[k].workspaceBytes};
        program.arenaBytes = next + alignUp(scratch, kPackAlignment);
    }

    // Kernels in run order.
    program.kernels.resize(n);
    for (std::int64_t r = 0; r < n; ++r) {
        const Kernel& k = profile.kernels[order[r]];
        ReplayKernel& rk = program.kernels[r];
        rk.runIndex = r;
        rk.position = order[r];
        rk.id = k.id;
        rk.name = k.name;
        rk.duration = k.duration;
        rk.workspace = workspaces[order[r]];
        auto add = [&](const std::vector<TensorId>& ids, std::vector<ArenaRange>& out) {
            for (TensorId id : ids) {
                const auto p = index.tensorPos(id);
                if (p < 0) fail(fmt::format("kernel {} ('{}') uses unknown tensor id {}", k.id, k.name, id));
                if (program.tensors[p].bytes > 0) out.push_back(program.tensors[p]);
            }
        };
        add(k.inputs, rk.reads);
        add(k.outputs, rk.writes);
    }

    // Directives in side-stream order: by anchor (before kernel r = 2r, after it = 2r + 1), then
    // as the plan lists them.
    std::vector<std::size_t> sorted(plan.directives.size());
    std::vector<std::int64_t> keyOf(plan.directives.size());
    for (std::size_t i = 0; i < plan.directives.size(); ++i) {
        const Directive& d = plan.directives[i];
        if (d.kernelPos < 0 || d.kernelPos >= n)
            fail(directiveLabel(i, d) + ": kernel position outside the profile's " + std::to_string(n) + " kernels");
        if (index.tensorPos(d.tensor) < 0) fail(directiveLabel(i, d) + ": unknown tensor id");
        if (d.delay < 0) fail(directiveLabel(i, d) + ": negative delay");
        sorted[i] = i;
        keyOf[i] = 2 * runIndexOf[d.kernelPos] + (d.afterKernel ? 1 : 0);
    }
    std::stable_sort(sorted.begin(), sorted.end(), [&](std::size_t a, std::size_t b) { return keyOf[a] < keyOf[b]; });
    program.anchorBegin.assign(2 * n + 1, 0);
    for (std::size_t i : sorted) {
        const Directive& d = plan.directives[i];
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
        rd.tensor = static_cast<std::int32_t>(index.tensorPos(d.tensor));
        rd.tensorId = d.tensor;
        rd.tensorName = profile.tensors[rd.tensor].name;
        rd.range = program.tensors[rd.tensor];
        rd.target = d.target;
        rd.anchorRunIndex = runIndexOf[d.kernelPos];
        rd.afterKernel = d.afterKernel;
        rd.delay = d.delay;
        if (rd.action == ReplayAction::PreEvict && d.target == Tier::Gpu)
            fail(directiveLabel(i, d) + ": a pre-evict needs a target of host or ssd, not gpu");
        program.directives.push_back(std::move(rd));
    }
    for (std::size_t j = 0, a = 0; a <= static_cast<std::size_t>(2 * n); ++a) {
        while (j < program.directives.size() && keyOf[program.directives[j].planIndex] < static_cast<std::int64_t>(a)) ++j;
        program.anchorBegin[a] = j;
    }

    // Where each tensor is and whether its contents were dropped, in issue order. Taken over the
    // steady state: the second pass starts from where the first one ended (the iteration before).
    struct State {
        Tier where = Tier::Host;
        bool dropped = false;
    };
    std::vector<State> state(profile.tensors.size());
    for (int pass = 0; pass < 2; ++pass)
        for (ReplayDirective& d : program.directives) {
            State& s = state[d.tensor];
            const std::string label = directiveLabel(d.planIndex, plan.directives[d.planIndex]);
            const Bytes bytes = profile.tensors[d.tensor].bytes;
            d.modelledDuration = 0;
            d.modelledPath.clear();
            switch (d.action) {
                case ReplayAction::Prefetch: {
                    d.source = s.where;
                    d.afterDrop = s.dropped;
                    if (s.dropped) {
                        // Zero-filled on the GPU: only the allocation cost.
                        const __int128 fs = static_cast<__int128>(bytes) * hw.allocFemtosecondsPerByte;
                        d.modelledDuration = static_cast<Nanoseconds>((fs + 999'999) / 1'000'000);
                        d.modelledPath = "zero-fill";
                    } else {
                        const Modelled m = modelMove(hw, true, s.where, bytes, label);
                        d.modelledDuration = m.duration;
                        d.modelledPath = m.path;
                    }
                    s.dropped = false;
                    break;
                }
                case ReplayAction::PreEvict: {
                    d.source = d.target;
                    const Modelled m = modelMove(hw, false, d.target, bytes, label);
                    d.modelledDuration = m.duration;
                    d.modelledPath = m.path;
                    s.where = d.target;
                    s.dropped = false;
                    break;
                }
                case ReplayAction::Discard: {
                    const Bytes blocks = hw.blockSize > 0 ? (bytes + hw.blockSize - 1) / hw.blockSize : 1;
                    d.modelledDuration = blocks * hw.discardUnmapPerBlock;
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
    {
        std::vector<std::array<std::int64_t, 2>> last(profile.tensors.size(), {-1, -1});
        for (std::size_t j = 0; j < program.directives.size(); ++j)
            last[program.directives[j].tensor][int(program.directives[j].stream)] = static_cast<std::int64_t>(j);
        const auto atEnd = last;
        for (auto& l : last) l = {-1, -1};
        for (std::size_t j = 0; j < program.directives.size(); ++j) {
            ReplayDirective& d = program.directives[j];
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
    std::vector<std::int64_t> lastPrefetch(profile.tensors.size(), -1);
    auto scanAnchor = [&](std::size_t a) {
        for (std::size_t j = program.anchorBegin[a]; j < program.anchorBegin[a + 1]; ++j)
            if (program.directives[j].action == ReplayAction::Prefetch) lastPrefetch[program.directives[j].tensor] = j;
    };
    for (std::size_t a = 0; a < static_cast<std::size_t>(2 * n); ++a) scanAnchor(a);
    const std::vector<std::int64_t> atEnd = lastPrefetch;
    std::fill(lastPrefetch.begin(), lastPrefetch.end(), -1);
    for (std::int64_t r = 0; r < n; ++r) {
        scanAnchor(2 * r);
        ReplayKernel& rk = program.kernels[r];
        const Kernel& k = profile.kernels[rk.position];
        std::vector<TensorId> ids = k.inputs;
        ids.insert(ids.end(), k.outputs.begin(), k.outputs.end());
        for (TensorId id : ids) {
            const auto p = index.tensorPos(id);
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

    // Recomputes: the producer re-runs before the next kernel that reads the dropped tensor.
    const Liveness liveness = computeLiveness(profile);
    auto reads = [&](std::int64_t r, std::int32_t t) {
        const Kernel& k = profile.kernels[order[r]];
        return std::any_of(k.inputs.begin(), k.inputs.end(), [&](TensorId id) { return index.tensorPos(id) == t; });
    };
    auto touches = [&](std::int64_t r, std::int32_t t) {
        const Kernel& k = profile.kernels[order[r]];
        return reads(r, t) ||
               std::any_of(k.outputs.begin(), k.outputs.end(), [&](TensorId id) { return index.tensorPos(id) == t; });
    };
    for (std::size_t j = 0; j < program.directives.size(); ++j) {
        const ReplayDirective& d = program.directives[j];
        if (d.action != ReplayAction::Recompute) continue;
        const std::int64_t producer = liveness.tensors[d.tensor].producer;
        if (producer < 0) {
            program.notes.emplace_back(d.planIndex, "recompute of tensor " + std::to_string(d.tensorId) +
                                                        ": no kernel produces it, nothing to re-run");
            continue;
        }
        const std::int64_t key = 2 * d.anchorRunIndex + (d.afterKernel ? 1 : 0);
        std::int64_t consumer = -1;
        bool wrapped = false;
        for (std::int64_t r = (key + 1) / 2; r < n && consumer < 0; ++r)
            if (touches(r, d.tensor)) consumer = r;
        for (std::int64_t r = 0; r < n && consumer < 0; ++r)
            if (touches(r, d.tensor)) consumer = r, wrapped = true;
        // A next use that only writes the tensor rebuilds it anyway.
        if (consumer < 0 || !reads(consumer, d.tensor)) continue;
        program.kernels[consumer].recomputes.push_back(
            {d.tensor, producer, profile.kernels[producer].duration, j, wrapped});
    }
    return program;
}

}  // namespace spillway::replay
