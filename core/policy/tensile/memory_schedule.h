#pragma once
// What the schedulers decide for a tensor between two of its consecutive accesses (a gap), and
// where each tensor is on the GPU as a result. Gap i lies between access i and access i+1; for
// an updated parameter the gap after its last access wraps to its first access of the next
// iteration (its swap-in then lies in this iteration's window, before access 0).
#include "core/policy/tensile/tensor_access_sequence.h"

#include <cstdint>
#include <limits>
#include <vector>

namespace spillway::tensile {

enum class GapAction {
    Swap,       // swap out (a transfer to host), swap in before the next access
    Release,    // the host copy is still valid: drop the GPU copy after the access, swap in again
    Recompute,  // drop after the access; the producer re-runs before the next access
};

struct GapDecision {
    std::int32_t afterAccess = 0;
    GapAction action = GapAction::Swap;
    Nanoseconds swapOutStart = 0, swapOutEnd = 0;  // Swap only; the GPU copy goes at swapOutEnd
    Nanoseconds swapInStart = 0, swapInEnd = 0;    // Swap and Release; the copy counts at swapInEnd
    bool operator==(const GapDecision&) const = default;
};

// Half-open [from, to): the tensor occupies GPU memory from `from` until just before `to`.
struct Residency {
    Nanoseconds from = 0;
    Nanoseconds to = 0;
};

constexpr Nanoseconds kBeforeEverything = std::numeric_limits<Nanoseconds>::min() / 4;
constexpr Nanoseconds kAfterEverything = std::numeric_limits<Nanoseconds>::max() / 4;

class MemorySchedule {
public:
    explicit MemorySchedule(size_t tensorCount = 0) : gaps_(tensorCount) {}

    // Decisions of one tensor, sorted by afterAccess; at most one per gap.
    const std::vector<GapDecision>& of(size_t tensor) const { return gaps_[tensor]; }
    const GapDecision* at(size_t tensor, std::int32_t afterAccess) const;
    void add(size_t tensor, const GapDecision& decision);
    void remove(size_t tensor, std::int32_t afterAccess);
    size_t tensorCount() const { return gaps_.size(); }

private:
    std::vector<std::vector<GapDecision>> gaps_;
};

// Where tensor `t` is on the GPU, in time order (activity analysis included: a tensor that does
// not persist leaves after its last access). Persistent tensors stay to kAfterEverything unless
// their wrap gap is swapped; residents at the start come from kBeforeEverything.
std::vector<Residency> residencyOf(const AccessTensor& tensor, const std::vector<GapDecision>& decisions);

// Whether the wrap gap (after the last access, to the next iteration's first) is decided.
bool isWrapGap(const AccessTensor& tensor, std::int32_t afterAccess);

}  // namespace spillway::tensile
