// What the transfer log costs the live what-if update, and what a Chrome trace costs: G10's BERT
// (batch 256) on g10-a100 under uvm and g10, simulated with and without
// SimulationOptions::recordTransfers (the traffic view needs it), then chromeTraceJson and its
// text. Baseline: the simulation without the log, in the same process, so ratios hold on a busy
// machine.
//   build/tests/bench_transfer_log [repeat]
#include "bench_timing.h"
#include "core/io/profile_loader.h"
#include "core/policy/planner.h"
#include "core/sim/chrome_trace.h"
#include "core/hardware/hardware_presets.h"
#include "core/sim/simulator.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

using namespace spillway;

namespace {

using timing::medianMs;

}  // namespace

int main(int argc, char** argv) {
    const int repeat = argc > 1 ? std::max(1, std::atoi(argv[1])) : 7;
    const Profile profile = loadProfile(SPILLWAY_SHARED_DATA "/g10/derived/BERT_Base_256");
    const HardwareConfig hardware = hardwarePreset("g10-a100");
    for (const char* policy : {"uvm", "g10"}) {
        const Plan plan = makePlan(policy, profile, hardware);
        SimulationOptions without;
        without.recordTransfers = false;
        const SimulationOptions with;  // the app's options: everything recorded
        const double base = medianMs(repeat, [&] { (void)simulate(profile, plan, hardware, without); });
        const double logged = medianMs(repeat, [&] { (void)simulate(profile, plan, hardware, with); });
        const SimulationResult result = simulate(profile, plan, hardware, with);
        std::size_t textBytes = 0;
        const double trace = medianMs(repeat, [&] { textBytes = chromeTraceJson(profile, plan, result).dump().size(); });
        fmt::print("BERT-256 {:<4} {} transfers: simulate {:.1f} ms without the log, {:.1f} ms with it ({:.2f}x); "
                   "Chrome trace {:.1f} ms ({:.2f}x the simulation), {:.1f} MB\n",
                   policy, result.transfers.size(), base, logged, logged / base, trace, trace / base,
                   double(textBytes) / 1e6);
    }
    return 0;
}
