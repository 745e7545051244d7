#pragma once
// Simulated runs for the run views: the eight-kernel training step of the policy suites, run by
// the real simulator on a GPU too small for it, so stalls and evictions happen.
#include "core/policy/planner.h"
#include "core/sim/simulator.h"
#include "tests/core/policy/training_step_8.h"
#include "tests/core/sim/sim_test_support.h"
#include "views/run_view_data.h"

#include <memory>

namespace spillway::test {

inline std::shared_ptr<const views::RunViewData> simulatedRun(const char* policy, Bytes gpu) {
    auto profile = std::make_shared<const Profile>(testing::trainingStep8());
    auto data = views::makeProfileViewData(profile);
    // Two iterations, so the reported one starts after a warm-up and views must use its origin.
    HardwareConfig hw = testing::unitMachine(gpu);
    hw.iterations = 2;
    Plan plan = makePlan(policy, *profile, hw);
    SimulationResult result = simulate(*profile, plan, hw);
    return views::makeRunViewData(QString::fromUtf8(policy), data, std::move(plan), hw, std::move(result));
}

}  // namespace spillway::test
