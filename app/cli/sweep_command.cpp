// `spillway-cli sweep PROFILE --param KEY --values V1,V2,... --policies uvm,g10,most [--hw ...]
// [--set ...] [--threads N] [--json]`: one hardware value swept for several policies on all
// cores (MOST's Figure 8), a row per value with each policy's time and speedup over the first.
#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "app/cli/error_report.h"
#include "app/cli/hardware_args.h"
#include "app/cli/sim_report.h"

#include "core/io/profile_loader.h"
#include "core/sweep/parameter_sweep.h"

#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <unistd.h>

namespace spillway::cli {

CommandAction addSweepCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("sweep", "Sweep one hardware value (e.g. ssd.bandwidth) for several "
                                            "policies on all cores: time and speedup over the first policy");
    struct State {
        ProfileArgs args;
        HardwareArgs hardware;
        std::string parameter;
        std::vector<std::string> values;
        std::vector<std::string> policies{"uvm", "deepum", "g10", "most"};
        unsigned threads = 0;
        bool json = false;
    };
    auto state = std::make_shared<State>();
    addProfileArgs(*cmd, state->args);
    addHardwareArgs(*cmd, state->hardware);
    cmd->add_option("--param", state->parameter, "Hardware key to sweep (`spillway-cli presets` lists them)")
        ->required();
    cmd->add_option("--values", state->values, "Comma-separated values, with units: 3.2GB/s,6.4GB/s or 16GiB,24GiB")
        ->delimiter(',')
        ->required();
    cmd->add_option("--policies", state->policies, "Comma-separated policies; the first is the speedup baseline")
        ->delimiter(',')
        ->capture_default_str();
    cmd->add_option("--threads", state->threads, "Worker threads (default: all cores)");
    cmd->add_flag("--json", state->json, "Print every cell as JSON");
    return [state]() {
        return runReportingErrors(state->json, [&]() {
            for (const auto& p : state->policies) checkPolicyName(p);
            SweepSpec spec;
            spec.baseHardware = state->hardware.load();
            spec.parameter = state->parameter;
            spec.values = state->values;
            spec.policies = state->policies;
            const auto profile = loadProfile(state->args.path, state->args.options());
            SweepOptions options;
            options.threads = state->threads;
            // Progress only for a person watching a terminal.
            if (isatty(STDERR_FILENO))
                options.progress = [](size_t done, size_t total) { fmt::print(stderr, "\rswept {}/{}", done, total); };
            const SweepResult result = runSweep(profile, spec, options);
            if (options.progress) fmt::print(stderr, "\n");
            bool failed = false;
            for (const SweepCell& c : result.cells) failed = failed || !c.ok;
            if (state->json) {
                nlohmann::ordered_json j;
                j["profile"] = state->args.path;
                j["hardware"] = hardwareSummaryJson(spec.baseHardware);
                j["parameter"] = spec.parameter;
                j["baseline"] = spec.policies.front();
                auto cells = nlohmann::ordered_json::array();
                for (size_t v = 0; v < spec.values.size(); ++v)
                    for (size_t p = 0; p < spec.policies.size(); ++p) {
                        const SweepCell& c = result.at(v, p);
                        nlohmann::ordered_json cell{{"value", c.value}, {"policy", c.policy}};
                        if (!c.ok) {
                            cell["error"] = c.error;
                        } else {
                            cell["iteration_time_ns"] = c.iterationTime;
                            cell["speedup"] = result.speedup(v, p);
                            cell["stall_split_ns"] = {{"compute", c.totals.compute},
                                                      {"fault_stall", c.totals.faultStall},
                                                      {"oversub_stall", c.totals.oversubStall},
                                                      {"late_prefetch_stall", c.totals.latePrefetchStall}};
                            cell["traffic_bytes"] = c.trafficBytes;
                            cell["peak_gpu_bytes"] = c.peakGpuBytes;
                        }
                        cells.push_back(std::move(cell));
                    }
                j["cells"] = cells;
                std::cout << j.dump(2) << "\n";
            } else {
                fmt::print("{} on {}, {} swept; speedup over {}\n\n",
                           profile.metadata.model.empty() ? state->args.path : profile.metadata.model,
                           spec.baseHardware.id, spec.parameter, spec.policies.front());
                fmt::print("{:<14}", spec.parameter);
                for (const auto& p : spec.policies) fmt::print(" {:>22}", p);
                fmt::print("\n");
                for (size_t v = 0; v < spec.values.size(); ++v) {
                    fmt::print("{:<14}", spec.values[v]);
                    for (size_t p = 0; p < spec.policies.size(); ++p) {
                        const SweepCell& c = result.at(v, p);
                        fmt::print(" {:>22}", c.ok ? fmt::format("{} {:.2f}x", readableDuration(c.iterationTime),
                                                                 result.speedup(v, p))
                                                   : std::string("error"));
                    }
                    fmt::print("\n");
                }
            }
            for (const SweepCell& c : result.cells)
                if (!c.ok) fmt::print(stderr, "error: {} at {}: {}\n", c.policy, c.value, c.error);
            return failed ? kExitBadInput : kExitOk;
        });
    };
}

}  // namespace spillway::cli
