#pragma once
// A snapshot says where memory was allocated, not what it holds. What each allocation holds is
// read from the shape of one training iteration, from sizes and lifetimes only, so the answer
// is the same whether the user recorded Python stacks, C++ stacks or none
// (docs/snapshot-import.md, "Kinds"):
//
//   B  the forward/backward boundary: the allocation after which live bytes peak (activations
//      pile up through forward; backward frees them).
//   O  where the optimizer step begins: the first allocation after the last activation is
//      freed (backward frees activations to its very end; the step then allocates its own).
//
//   persistent (live through the iteration)
//     one per gradient of its size       -> weight
//     more of that size than gradients   -> optimizer state (momentum, Adam's two moments)
//     no gradient of its size, power-of-two MiB -> workspace (cuBLAS keeps one per stream)
//     no gradient of its size, otherwise -> input (input batch, buffers, frozen parameters)
//     no backward pass at all            -> weight
//   made before O, param-sized, freed after the iteration's last allocation (zero_grad) or
//     kept to its end                    -> gradient
//   made by B, freed after B             -> activation
//   otherwise                            -> temporary (forward, backward or optimizer)
// Frames are used only to choose which persistent tensors of one size are optimizer state (a
// block whose stack is in torch/optim), never to change how many bytes each kind gets.
#include "core/io/torch_snapshot/torch_snapshot_allocations.h"
#include "core/trace/tensor.h"

#include <cstdint>
#include <vector>

namespace spillway {

struct SnapshotKindRule {
    const char* id;
    const char* text;
    TensorKind kind;
    bool unclassified;  // a fallback, not evidence
};

// Where the phases change, as event indices of the iteration (-1 when the iteration has no
// backward pass: no allocations after a peak that activations survive).
struct SnapshotIterationShape {
    std::int64_t forwardEnd = -1;      // B: the last event of forward
    std::int64_t optimizerStart = -1;  // O: the first event of the optimizer step
    bool training = false;             // gradients were found: the phases mean something
};

struct SnapshotKinds {
    std::vector<const SnapshotKindRule*> rules;  // parallel to the allocations given
    SnapshotIterationShape shape;
};

// `iteration`: the allocations of one iteration, event indices local to it ([0, eventCount);
// -1 = before it began / still live at its end). Persistent = both -1.
SnapshotKinds classifySnapshotIteration(const std::vector<SnapshotAllocation>& iteration, std::int64_t eventCount);

// The rule for allocations outside any complete iteration (a partial one at the trace's start).
const SnapshotKindRule& unplacedSnapshotRule(bool persistent);

}  // namespace spillway
