#pragma once
// The CUDA backend (cuda_backend.cu): a managed or device-memory arena, a placeholder kernel
// per profiled kernel that touches its tensors' pages and then spins for the profiled
// duration, directives on a side stream with CUDA 13's location-struct prefetch, batched
// discards and cudaMemAdvise, and CUDA events around everything. docs/runtime.md.
#include "runtime/replay/replay_backend.h"

#include <memory>

namespace spillway::replay {

// Whether this build has the CUDA backend (nvcc was found when it was configured).
bool cudaBackendBuilt();

// Throws ReplayError: "no CUDA device found" (with the runtime's reason) when the machine has
// none, or that the build has no CUDA backend.
std::unique_ptr<ReplayBackend> makeCudaBackend(int device = 0);

}  // namespace spillway::replay
