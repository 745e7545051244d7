#pragma once
// Builds the ReplayProgram of an exported plan for its profile (see replay_program.h).
#include "core/plan/exported_plan.h"
#include "core/trace/profile.h"
#include "runtime/replay/replay_program.h"

namespace spillway::replay {

enum class ArenaChoice {
    Auto,     // device memory at the planned offsets when the plan has an arena, else managed
    Managed,  // managed memory (at the planned offsets when there are some)
    Device,   // device memory: needs the plan's arena
};

struct ReplayOptions {
    ArenaChoice arena = ArenaChoice::Auto;
    // Order a planned arena's slot reuse (replay_slot_order.h). Off only to re-simulate a
    // replay measured before issue 16, whose runtime did not.
    bool orderSlots = true;
    // With orderSlots, also issue a prefetch after the drops of the tensors sharing its bytes that
    // come before its tensor's next use (replay_slot_order.h). Off only to re-simulate a replay
    // measured before that rule.
    bool prefetchesAfterDrops = true;
    // In a managed arena, populate a dropped tensor's pages with cudaMemDiscardAndPrefetchBatchAsync
    // (as runtimes before issue 16 did) instead of a plain prefetch; to measure that regime again.
    bool discardAndPrefetchAfterDrop = false;
    // In a managed arena, follow each discard on its stream with a one-page prefetch of a page of
    // its own (a fence): if the driver carries a discard out after the stream has passed it, the
    // stream then waits for it, so a later prefetch of the same bytes cannot come first (an
    // experiment, docs/validation.md "A discard that lands late"). Refused for a device arena.
    bool fenceDiscards = false;
    // In a managed arena, which of the plan's drops to issue (all; none: an ablation of what they
    // cost here; a chosen set: which ones make kernels fault).
    DiscardSelection discards;
};

// Throws std::invalid_argument naming the directive (its index in the plan), kernel or tensor
// when the plan does not fit the profile: an order that is not a permutation, a directive at an
// unknown kernel or tensor or of a kind the runtime does not know, a used tensor without an
// arena slot, a slot outside the arena. The caller checks the profile hash first.
ReplayProgram buildReplayProgram(const Profile& profile, const ExportedPlan& plan, const ReplayOptions& options = {});

}  // namespace spillway::replay
