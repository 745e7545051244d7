#include "core/deploy/plan_verifier.h"

#include "core/analysis/liveness.h"
#include "core/deploy/deployable_plan.h"
#include "core/io/native/profile_hash.h"
#include "core/layout/layout_verifier.h"
#include "core/layout/operator_order.h"
#include "core/sim/simulator.h"
#include "core/trace/dependency_graph.h"
#include "core/trace/format_units.h"
#include "core/trace/number_limits.h"

#include <fmt/format.h>

#include <limits>
#include <map>
#include <stdexcept>

namespace spillway {

std::string_view toString(PlanProblemKind kind) {
    switch (kind) {
        case PlanProblemKind::ProfileMismatch: return "profile-mismatch";
        case PlanProblemKind::BadOrder: return "bad-order";
        case PlanProblemKind::BadDirective: return "bad-directive";
        case PlanProblemKind::BadArena: return "bad-arena";
        case PlanProblemKind::Overlap: return "overlap";
        case PlanProblemKind::DoesNotFit: return "does-not-fit";
        case PlanProblemKind::UsedWhileAbsent: return "used-while-absent";
        case PlanProblemKind::CannotReplay: return "cannot-replay";
    }
    return "?";
}

std::string describeKernel(const Profile& profile, std::int64_t position) {
    if (position < 0 || position >= static_cast<std::int64_t>(profile.kernels.size()))
        return fmt::format("kernel position {} (the profile has {} kernels)", position, profile.kernels.size());
    return fmt::format("kernel {} '{}'", position, profile.kernels[static_cast<std::size_t>(position)].name);
}

std::string describeTensor(const Profile& profile, TensorId id) {
    for (const Tensor& t : profile.tensors)
        if (t.id == id) return fmt::format("tensor {} '{}'", id, t.name);
    return fmt::format("tensor id {} (not in the profile)", id);
}

namespace {

// "" when a slot's offset and size are within the bounds (number_limits.h), else which is not.
std::string slotOutOfRange(const ArenaSlot& slot) {
    if (const std::string why = outOfBytesRange(slot.offset); !why.empty()) return "offset: " + why;
    if (const std::string why = outOfBytesRange(slot.bytes); !why.empty()) return "bytes: " + why;
    return {};
}

class Verifier {
public:
    Verifier(const Profile& profile, const ExportedPlan& exported, const std::atomic<bool>* cancel)
        : profile_(profile), exported_(exported), plan_(exported.plan), index_(profile), cancel_(cancel),
          n_(static_cast<std::int64_t>(profile.kernels.size())) {}

    PlanVerification run() {
        checkProfile();
        // A plan for another profile is checked further only when it still reads as one for this
        // profile (the same kernels and tensor ids: say, the same model captured again);
        // otherwise every later problem would only repeat that it is the wrong profile.
        if (!hashMatches_ && !sameShape()) {
            out_.problems.back().message += "; its kernels and tensors do not match this profile's, so nothing else "
                                            "was checked";
            return std::move(out_);
        }
        const bool orderOk = checkOrder();
        const bool directivesOk = checkDirectives();
        if (orderOk) checkArena();
        // The simulator rejects a malformed order or directive outright, and a plan for another
        // profile names other tensors: replay only what it can read as meant.
        if (orderOk && directivesOk && hashMatches_) replay();
        finishCounts();
        return std::move(out_);
    }

private:
    std::string kernel(std::int64_t pos) const { return describeKernel(profile_, pos); }
    std::string tensor(TensorId id) const { return describeTensor(profile_, id); }

    void add(PlanProblem problem) {
        std::size_t& count = counts_[problem.kind];
        if (++count <= kMaxProblemsPerKind) out_.problems.push_back(std::move(problem));
    }
    void finishCounts() {
        for (const auto& [kind, count] : counts_)
            if (count > kMaxProblemsPerKind)
                out_.problems.push_back({kind, fmt::format("... and {} more {} problems", count - kMaxProblemsPerKind,
                                                           toString(kind))});
    }

    void checkProfile() {
        const std::string actual = profileHash(profile_);
        hashMatches_ = actual == exported_.profileHash;
        if (!hashMatches_)
            add({PlanProblemKind::ProfileMismatch,
                 fmt::format("the plan was made for profile '{}' ({}), not this profile '{}' ({})",
                             exported_.profileName, exported_.profileHash, profile_.metadata.model, actual)});
    }

    bool sameShape() const {
        if (!plan_.order.empty() && static_cast<std::int64_t>(plan_.order.size()) != n_) return false;
        for (const Directive& d : plan_.directives)
            if (d.kernelPos < 0 || d.kernelPos >= n_ || index_.tensorPos(d.tensor) < 0) return false;
        for (const ArenaSlot& slot : plan_.arena)
            if (slot.tensor >= 0 ? index_.tensorPos(slot.tensor) < 0 : slot.workspaceKernelPos >= n_) return false;
        return true;
    }

    bool checkOrder() {
        std::vector<std::int64_t> order = plan_.order;
        if (order.empty())
            for (std::int64_t k = 0; k < n_; ++k) order.push_back(k);
        bool ok = true;
        if (static_cast<std::int64_t>(order.size()) != n_) {
            add({PlanProblemKind::BadOrder,
                 fmt::format("the order has {} entries; the profile has {} kernels", order.size(), n_)});
            ok = false;
        }
        tick_.assign(static_cast<std::size_t>(n_), -1);
        for (std::size_t e = 0; e < order.size(); ++e) {
            const std::int64_t k = order[e];
            if (k < 0 || k >= n_) {
                add({PlanProblemKind::BadOrder,
                     fmt::format("order entry {} is {}, not a kernel position (0..{})", e, k, n_ - 1)});
                ok = false;
            } else if (tick_[k] >= 0) {
                add({PlanProblemKind::BadOrder,
                     fmt::format("{} appears twice in the order (entries {} and {})", kernel(k), tick_[k], e), k});
                ok = false;
            } else {
                tick_[k] = static_cast<std::int64_t>(e);
            }
        }
        if (!ok) return false;
        order_ = order;
        // core/layout's check decides; the loop below only names every kernel it finds early.
        const DependencyGraph graph = DependencyGraph::derive(profile_);
        if (!isTopologicalOrder(graph, order_, nullptr)) {
            for (std::int64_t e = 0; e < n_; ++e)
                for (const auto p : graph.predecessors(static_cast<std::size_t>(order_[e])))
                    if (tick_[p] > e)
                        add({PlanProblemKind::BadOrder,
                             fmt::format("{} runs at order entry {}, before {} (entry {}), whose output it needs",
                                         kernel(order_[e]), e, kernel(p), tick_[p]),
                             order_[e]});
            ok = false;
        }
        if (plan_.memoryModel == MemoryModel::ContiguousFirstFit)
            for (std::int64_t e = 0; e < n_; ++e)
                if (order_[e] != e) {
                    add({PlanProblemKind::BadOrder,
                         fmt::format("a contiguous-first-fit plan runs kernels in program order, but order entry {} is "
                                     "{}", e, kernel(order_[e])),
                         order_[e]});
                    ok = false;
                    break;
                }
        return ok;
    }

    bool checkDirectives() {
        const Liveness liveness = computeLiveness(profile_);
        bool ok = true;
        for (std::size_t i = 0; i < plan_.directives.size(); ++i) {
            const Directive& d = plan_.directives[i];
            const std::int64_t t = index_.tensorPos(d.tensor);
            std::string reasons;  // one problem per directive, every reason in it
            auto bad = [&](const std::string& why) { reasons += (reasons.empty() ? "" : "; ") + why; };
            if (d.kernelPos < 0 || d.kernelPos >= n_) bad("no such kernel");
            if (t < 0) bad("no such tensor");
            if (d.delay < 0) bad(fmt::format("negative delay {} ns", d.delay));
            switch (d.kind) {
                case DirectiveKind::Prefetch:
                    if (d.target != Tier::Gpu) bad("a prefetch moves data to the GPU; target must be gpu");
                    break;
                case DirectiveKind::PreEvict:
                    if (d.target == Tier::Gpu) bad("a pre-evict moves data off the GPU; target must be host or ssd");
                    break;
                case DirectiveKind::Advise:
                    if (d.advice == MemAdvice::None) bad("an advise directive needs an advice");
                    if (d.target == Tier::Ssd) bad("an advice's location is gpu or host, not ssd");
                    break;
                case DirectiveKind::Recompute:
                    if (t >= 0 && liveness.tensors[static_cast<std::size_t>(t)].producer < 0)
                        bad("no kernel produces this tensor, so it cannot be recomputed");
                    break;
                case DirectiveKind::Discard:
                case DirectiveKind::DiscardLazy:
                case DirectiveKind::Free: break;
            }
            if (d.kind != DirectiveKind::Advise && d.advice != MemAdvice::None)
                bad("only an advise directive carries an advice");
            if (reasons.empty()) continue;
            add({PlanProblemKind::BadDirective,
                 fmt::format("directive {} ({} of {} {} {}): {}", i, toString(d.kind), tensor(d.tensor),
                             d.afterKernel ? "after" : "before", kernel(d.kernelPos), reasons),
                 d.kernelPos, d.tensor, -1, static_cast<std::int64_t>(i)});
            ok = false;
        }
        return ok;
    }

    void checkArena() {
        if (plan_.arena.empty() && plan_.arenaBytes == 0) return;  // no layout planned
        // The problem the plan's layout solved: lifetimes, or, for an arena in device memory,
        // the spans its directives keep each tensor on the GPU (the deployable plan's own).
        const bool residency = arenaFollowsResidency(plan_);
        AllocationProblem all = arenaProblem(profile_, exported_.hardware, plan_);
        std::map<TensorId, std::size_t> byTensor;
        std::map<std::int64_t, std::size_t> byWorkspace;
        for (std::size_t b = 0; b < all.buffers.size(); ++b) {
            if (all.buffers[b].origin.tensor >= 0) byTensor[all.buffers[b].origin.tensor] = b;
            else byWorkspace[all.buffers[b].origin.kernelPos] = b;
        }
        std::vector<std::int64_t> slotOf(all.buffers.size(), -1);
        std::vector<bool> outOfRange(all.buffers.size(), false);
        Bytes end = 0;
        for (std::size_t s = 0; s < plan_.arena.size(); ++s) {
            const ArenaSlot& slot = plan_.arena[s];
            const bool isTensor = slot.tensor >= 0;
            const std::string what = isTensor ? tensor(slot.tensor) : "the workspace of " + kernel(slot.workspaceKernelPos);
            const auto& map = isTensor ? byTensor : byWorkspace;
            const auto it = map.find(isTensor ? slot.tensor : slot.workspaceKernelPos);
            if (it == map.end()) {
                add({PlanProblemKind::BadArena,
                     fmt::format("arena slot {} is for {}, which needs no memory in this profile", s, what), -1,
                     slot.tensor});
                continue;
            }
            const Buffer& b = all.buffers[it->second];
            if (slotOf[it->second] >= 0) {
                add({PlanProblemKind::BadArena,
                     fmt::format("arena slots {} and {} are both for {}", slotOf[it->second], s, what), -1, slot.tensor});
                continue;
            }
            slotOf[it->second] = static_cast<std::int64_t>(s);
            // A plan read from a file is bounded by its reader; one made in process is checked
            // here, and an out-of-range slot takes no part in the sums below.
            if (const std::string why = slotOutOfRange(slot); !why.empty()) {
                add({PlanProblemKind::BadArena, fmt::format("arena slot {} for {}: {}", s, what, why), -1, slot.tensor});
                outOfRange[it->second] = true;
                continue;
            }
            if (slot.bytes < b.size)
                add({PlanProblemKind::BadArena,
                     fmt::format("arena slot {} gives {} {} bytes; it needs {}", s, what, slot.bytes, b.size), -1,
                     slot.tensor});
            end = std::max(end, slot.offset + std::max(slot.bytes, b.size));
        }
        // The sub-problem of the buffers that have a slot, at their slots' offsets and sizes.
        AllocationProblem placed;
        placed.alignment = all.alignment;
        Layout layout;
        std::vector<std::size_t> original;
        for (std::size_t b = 0; b < all.buffers.size(); ++b) {
            if (slotOf[b] < 0) {
                const Buffer& buf = all.buffers[b];
                const std::string what = buf.origin.tensor >= 0 ? tensor(buf.origin.tensor)
                                                                : "the workspace of " + kernel(buf.origin.kernelPos);
                add({PlanProblemKind::BadArena,
                     fmt::format("{} ({} bytes, live from {} to {}) has no slot in the arena", what, buf.size,
                                 kernel(order_[buf.lower]), kernel(order_[buf.upper - 1])),
                     order_[buf.lower], buf.origin.tensor});
                continue;
            }
            if (outOfRange[b]) continue;
            Buffer buf = all.buffers[b];
            buf.size = std::max(buf.size, plan_.arena[slotOf[b]].bytes);
            placed.buffers.push_back(buf);
            layout.offsets.push_back(plan_.arena[slotOf[b]].offset);
            original.push_back(b);
        }
        if (end > plan_.arenaBytes)
            add({PlanProblemKind::BadArena,
                 fmt::format("arena_bytes is {}, but its slots reach {}", plan_.arenaBytes, end)});
        // Enough to count a badly broken arena's overlaps; the sweep stops there.
        for (const LayoutViolation& v : verifyLayout(placed, layout, 10'000)) {
            if (v.buffers.size() == 2 && v.tick >= 0) {
                const Buffer& a = placed.buffers[v.buffers[0]];
                const Buffer& b = placed.buffers[v.buffers[1]];
                auto name = [&](const Buffer& x) {
                    return x.origin.tensor >= 0 ? tensor(x.origin.tensor) : "the workspace of " + kernel(x.origin.kernelPos);
                };
                const Bytes aFrom = layout.offsets[v.buffers[0]], bFrom = layout.offsets[v.buffers[1]];
                const std::int64_t k = order_[v.tick];
                add({PlanProblemKind::Overlap,
                     fmt::format("{} (bytes [{}, {})) and {} (bytes [{}, {})) overlap in the arena while {} runs{}",
                                 name(a), aFrom, aFrom + a.size, name(b), bFrom, bFrom + b.size, kernel(k),
                                 residency ? ", where the plan's directives keep both on the GPU" : ""),
                     k, a.origin.tensor, b.origin.tensor});
            } else {
                const TensorId id = v.buffers.empty() ? -1 : placed.buffers[v.buffers.front()].origin.tensor;
                add({PlanProblemKind::BadArena, "arena: " + v.message + (id >= 0 ? " (" + tensor(id) + ")" : ""), -1, id});
            }
        }
        checkArenaFits();
    }

    void checkArenaFits() {
        const HardwareConfig& hw = exported_.hardware;
        if (!plan_.faultsAllowed()) {
            if (plan_.arenaBytes > hw.gpuCapacity)
                add({PlanProblemKind::DoesNotFit,
                     fmt::format("the arena ({}) does not fit in the GPU's {} on '{}': a plan that may not fault keeps "
                                 "its whole arena in device memory",
                                 readableBytes(plan_.arenaBytes), readableBytes(hw.gpuCapacity), hw.id)});
            return;
        }
        // Managed memory may exceed the GPU (that is oversubscription), not all the memory there is.
        // Saturated: a machine whose memory does not fit in 64 bits holds any arena.
        Bytes managed = 0;
        if (__builtin_add_overflow(hw.gpuCapacity, hw.hostCapacity, &managed) ||
            __builtin_add_overflow(managed, hw.ssdCapacity, &managed))
            managed = std::numeric_limits<Bytes>::max();
        if (plan_.arenaBytes > managed)
            add({PlanProblemKind::DoesNotFit,
                 fmt::format("the arena ({}) exceeds the GPU, host and SSD memory of '{}' together ({})",
                             readableBytes(plan_.arenaBytes), hw.id, readableBytes(managed))});
    }

    void replay() {
        SimulationOptions options;
        options.recordTensorResidency = false;
        options.recordResidencySamples = false;
        options.recordTransfers = false;
        options.measureDiscardSavings = false;
        options.recordDemandFetches = true;
        options.cancel = cancel_;
        try {
            out_.result = simulate(profile_, plan_, exported_.hardware, options);
        } catch (const SimulationCancelled&) {
            throw;
        } catch (const std::runtime_error& e) {
            add({PlanProblemKind::DoesNotFit, fmt::format("the replay on '{}' cannot complete: {}",
                                                          exported_.hardware.id, e.what())});
            return;
        } catch (const std::exception& e) {
            add({PlanProblemKind::CannotReplay, fmt::format("the simulator refused the plan: {}", e.what())});
            return;
        }
        out_.replayed = true;
        if (!out_.result.cannotRun.empty()) {
            add({PlanProblemKind::DoesNotFit,
                 fmt::format("the replay on '{}' cannot run: {}", exported_.hardware.id, out_.result.cannotRun)});
            return;
        }
        if (plan_.faultsAllowed()) return;
        const std::string rule = plan_.memoryModel == MemoryModel::ContiguousFirstFit
                                     ? "a contiguous-first-fit plan cannot fault"
                                     : "the plan may not fault (allow_faults is false)";
        for (const DemandFetch& f : out_.result.demandFetches) {
            const std::int64_t k = order_[static_cast<std::size_t>(f.runIndex)];
            const Tensor& t = profile_.tensors[static_cast<std::size_t>(f.tensorPos)];
            add({PlanProblemKind::UsedWhileAbsent,
                 fmt::format("{} (run {}) uses {} while {} of it is on the {}: {}, and no prefetch brought it back "
                             "in time",
                             kernel(k), f.runIndex, tensor(t.id), readableBytes(f.bytes),
                             f.from == Residence::Ssd ? "SSD" : "host", rule),
                 k, t.id});
        }
    }

    const Profile& profile_;
    const ExportedPlan& exported_;
    const Plan& plan_;
    const ProfileIndex index_;
    const std::atomic<bool>* cancel_;
    const std::int64_t n_;
    bool hashMatches_ = false;
    std::vector<std::int64_t> order_;  // valid once checkOrder passed
    std::vector<std::int64_t> tick_;   // kernel position -> order entry
    std::map<PlanProblemKind, std::size_t> counts_;
    PlanVerification out_;
};

}  // namespace

PlanVerification verifyPlan(const Profile& profile, const ExportedPlan& plan, const std::atomic<bool>* cancel) {
    return Verifier(profile, plan, cancel).run();
}

}  // namespace spillway
