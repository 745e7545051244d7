#include "core/sim/simulator.h"

#include "core/sim/sim_engine.h"
#include "core/sim/tensor_level_replay.h"
#include "core/trace/number_limits.h"

#include <algorithm>

namespace spillway {

SimulationResult simulate(const Profile& profile, const Plan& plan, const HardwareConfig& hardware,
                          const SimulationOptions& options) {
    // A plan that manages device memory itself (FlashNeuron) is replayed tensor by tensor on a
    // contiguous allocator; everything else pages through unified memory.
    if (plan.memoryModel == MemoryModel::ContiguousFirstFit)
        return sim::replayTensorLevel(profile, plan, hardware, options);
    sim::Engine engine(profile, plan, hardware, options);
    SimulationResult result = engine.run();
    // UVM Discard's saving is what the same plan without its discards would have moved more
    // (the paper's tables compare transfer volumes with and without). Counting inside one run
    // cannot know whether a discarded block would ever have been written back or copied in:
    // with memory to spare it would not, and the saving is nothing.
    const bool discards = std::any_of(plan.directives.begin(), plan.directives.end(), [](const Directive& d) {
        return d.kind == DirectiveKind::Discard || d.kind == DirectiveKind::DiscardLazy;
    });
    if (discards && options.measureDiscardSavings) {
        Plan without = plan;
        std::erase_if(without.directives, [](const Directive& d) {
            return d.kind == DirectiveKind::Discard || d.kind == DirectiveKind::DiscardLazy;
        });
        SimulationOptions lean = options;
        lean.recordTensorResidency = lean.recordResidencySamples = lean.recordTransfers = false;
        const SimulationResult base = sim::Engine(profile, without, hardware, lean).run();
        Bytes baseTraffic = 0, traffic = 0;
        for (int l = 0; l < kLinkCount; ++l) {
            baseTraffic = checkedAdd(baseTraffic, base.traffic[l], "the traffic without discards");
            traffic = checkedAdd(traffic, result.traffic[l], "the traffic");
        }
        result.discardSavedBytes = std::max<Bytes>(0, baseTraffic - traffic);
    }
    return result;
}

}  // namespace spillway
