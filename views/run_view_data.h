#pragma once
// Everything the run views show about one simulated run, computed once off the GUI thread and
// never changed: the profile's view data, the plan, the machine, the result, and the series
// derived from it (GPU bytes by tensor kind over time). Views only rebind to a new instance.
#include "core/plan/plan.h"
#include "core/hardware/hardware.h"
#include "core/sim/sim_result.h"
#include "views/profile_view_data.h"

#include <QString>

#include <array>
#include <memory>
#include <vector>

namespace spillway::views {

// GPU-resident bytes of each tensor kind from `time` until the next step.
struct KindStep {
    Nanoseconds time = 0;
    std::array<Bytes, 7> bytes{};  // indexed by TensorKind
};

struct RunViewData {
    QString name;  // what the user calls the run ("g10 on g10-a100")
    std::shared_ptr<const ProfileViewData> profile;
    Plan plan;
    HardwareConfig hardware;
    SimulationResult result;
    // From the per-tensor residency intervals: a tensor counts whole while any of its blocks is
    // on the GPU, so the stack can exceed result.residency's exact GPU bytes by part of a block
    // group; the timeline draws the exact total as a line over the stack.
    std::vector<KindStep> gpuByKind;
    // The simulator's clock runs across the warm-up iterations; views and the ViewLink measure
    // time from the start of the reported iteration, i.e. simulator time - iterationStart.
    Nanoseconds iterationStart = 0;
    Bytes theoreticalPeak = 0;  // nothing moved out, no fragmentation (core/analysis/peak)
};

// Linear in the residency intervals: call it on a worker thread.
std::shared_ptr<const RunViewData> makeRunViewData(QString name, std::shared_ptr<const ProfileViewData> profile,
                                                   Plan plan, HardwareConfig hardware, SimulationResult result);

}  // namespace spillway::views
