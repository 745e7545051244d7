#pragma once
// Slot reuse in a planned arena. The plan's layout puts tensors whose lifetimes do not overlap
// at the same offsets, but a prefetch runs ahead of its tensor's first use and drops run behind
// on the out stream. Unordered, a prefetch into a slot lands while the slot's previous tensor
// is still in use, and a late discard of the previous tensor wipes the new one: on the H200 a
// managed-arena replay of the small GPT lesson's g10 plan took 199.7 ms instead of ~24, most of
// it in kernels whose pages were discarded under them (docs/validation.md, "Real GPU").
//
// Ordered (ReplayOptions::orderSlots, the default since issue 16):
// - a prefetch is issued no earlier than just after the last kernel, before its tensor's next
//   use, that touches another tensor overlapping its range (slotSafeKeys);
// - a prefetch is issued after the drops of the tensors sharing its bytes that come before its
//   tensor's next use (prefetchesAfterDrops);
// - a prefetch, and a kernel, wait for the latest out-stream directive (pre-evict, discard,
//   free, recompute drop) on every other tensor overlapping a range they touch (addSlotWaits).
#include "runtime/replay/replay_program.h"

#include <cstdint>
#include <vector>

namespace spillway::replay {

// Per tensor (position): the other tensors whose arena ranges overlap its own.
std::vector<std::vector<std::int32_t>> overlappingTensors(const std::vector<ArenaRange>& tensors);

struct SlotDirective {
    std::int32_t tensor = 0;
    bool prefetch = false;
    std::int64_t key = 0;  // anchor key: 2 * run index (+1 when after the kernel)
};

// The anchor key each directive should have: prefetches moved after the kernels that still use
// their slot's previous tensor, the rest unchanged. `touched[r]`: the tensors run index r
// reads or writes. Returns the keys and how many moved.
std::vector<std::int64_t> slotSafeKeys(const std::vector<SlotDirective>& directives,
                                       const std::vector<std::vector<std::int32_t>>& touched,
                                       const std::vector<std::vector<std::int32_t>>& overlapping, std::size_t& moved);

// A prefetch must not run beside the drop (discard, free, pre-evict) of a tensor sharing its
// bytes: CUDA leaves a discard simultaneous with a prefetch of the same range undefined, and on
// the H200 the new tensor's pages were then often discarded under it (write faults of ~150 us
// per 64 KiB in the kernel that used it). A prefetch with such a drop at or after its anchor and
// no later than its tensor's next use moves to the latest such drop's anchor and is issued
// last there (its flag), so that the second rule makes it wait. `keys` (from slotSafeKeys) is
// updated; `reordered` counts the prefetches flagged.
std::vector<char> prefetchesAfterDrops(const std::vector<SlotDirective>& directives, std::vector<std::int64_t>& keys,
                                       const std::vector<std::vector<std::int32_t>>& touched,
                                       const std::vector<std::vector<std::int32_t>>& overlapping, std::size_t& reordered);

// The waits of the second rule, added to the program (directives in issue order, anchors set).
void addSlotWaits(ReplayProgram& program, const std::vector<std::vector<std::int32_t>>& touched,
                  const std::vector<std::vector<std::int32_t>>& overlapping);

}  // namespace spillway::replay
