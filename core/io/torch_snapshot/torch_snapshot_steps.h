#pragma once
// A memory snapshot has allocations but no kernels. Spillway's planners and the simulator work
// on kernels, so the importer forms "steps" from the allocator's own rhythm:
//
//   A step is a run of allocations followed by the frees that come after them, up to the next
//   allocation. Each allocation is an output of the step that made it and an input of the step
//   that frees it (or of the last step when it is still live), so a tensor is live exactly from
//   the step of its alloc to the step of its free.
//
// Live bytes only peak right after a run of allocations, before the frees that follow, which
// is exactly where each step sits: the theoretical peak of the profile (core/analysis/peak.h)
// equals the peak of the snapshot's allocated-bytes curve, and the live bytes of step k equal
// the curve's value at that point. Allocations made before recording began and never freed
// are persistent (live across the whole profile) and are read by the first and last step.
// A step lasts from its first event to the next step's first event (time_us), at least 1 ns;
// without times every step lasts a nominal 1 us. One job per CUDA device.
#include "core/io/base/import_options.h"
#include "core/io/torch_snapshot/torch_snapshot_allocations.h"
#include "core/io/torch_snapshot/snapshot_frame_budget.h"
#include "core/io/torch_snapshot/torch_snapshot_model.h"
#include "core/trace/profile.h"

#include <string>

namespace spillway {

// Throws ImportError (naming `file`) when the snapshot holds no allocation at all, or when the
// copies of the stacks that the tensors get (one per tensor) would exceed `budget`.
// `iteration`: ImportOptions::iteration (a steady-state one by default, all, or the K-th);
// an iteration past the last found is an ImportError saying how many there are.
Profile profileFromSnapshot(const MemorySnapshot& snapshot, const std::string& file,
                            SnapshotFrameBudget& budget,
                            std::int64_t iteration = ImportOptions::kSteadyIteration);

}  // namespace spillway
