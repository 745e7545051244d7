// makeReplayBackend (replay_runner.h) in a file of its own: the only code that names the CUDA
// backend, so what links the runner and the model without it (the app's Measured tab) does not
// pull the CUDA runtime in.
#include "runtime/replay/cuda_backend.h"
#include "runtime/replay/host_backend.h"
#include "runtime/replay/replay_runner.h"

namespace spillway::replay {

std::unique_ptr<ReplayBackend> makeReplayBackend(std::string_view name) {
    if (name == "host") return std::make_unique<HostBackend>();
    if (name == "cuda") return makeCudaBackend();
    throw ReplayError("unknown backend \"" + std::string(name) + "\"; expected cuda or host");
}

}  // namespace spillway::replay
