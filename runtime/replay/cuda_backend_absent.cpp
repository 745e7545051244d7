// Built instead of cuda_backend.cu when nvcc was not found: the host backend and the tools
// still build, and asking for the CUDA backend says why it is not there.
#include "runtime/replay/cuda_backend.h"

namespace spillway::replay {

bool cudaBackendBuilt() { return false; }

std::unique_ptr<ReplayBackend> makeCudaBackend(int) {
    throw ReplayError("this build has no CUDA backend (nvcc was not found when it was configured); "
                      "use --backend host, or rebuild with the CUDA toolkit installed");
}

}  // namespace spillway::replay
