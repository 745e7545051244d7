#include "core/sim/simulator.h"

#include "core/sim/sim_engine.h"
#include "core/sim/tensor_level_replay.h"

namespace spillway {

SimulationResult simulate(const Profile& profile, const Plan& plan, const HardwareConfig& hardware,
                          const SimulationOptions& options) {
    // A plan that manages device memory itself (FlashNeuron) is replayed tensor by tensor on a
    // contiguous allocator; everything else pages through unified memory.
    if (plan.memoryModel == MemoryModel::ContiguousFirstFit)
        return sim::replayTensorLevel(profile, plan, hardware, options);
    sim::Engine engine(profile, plan, hardware, options);
    return engine.run();
}

}  // namespace spillway
