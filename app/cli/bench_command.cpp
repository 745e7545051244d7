// `spillway-cli bench`: times importing a G10 workload and converting it to the native format,
// each against a baseline measured in the same process (reading the same input bytes), so the
// ratios stay meaningful on a busy or different machine; then the simulator: every policy on
// BERT batch 256 and ViT batch 1280 (sim_bench.cpp), against importing the same workload.
// `bench layout` times the layout methods (layout_bench.cpp); `bench snapshot` PyTorch memory
// snapshot import against Python's pickle.load (snapshot_bench.cpp).
#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "app/cli/error_report.h"
#include "app/cli/hardware_args.h"
#include "app/cli/layout_bench.h"
#include "app/cli/sim_bench.h"
#include "app/cli/snapshot_bench.h"
#include "app/cli/sweep_bench.h"

#include "core/io/base/file_text.h"
#include "core/io/base/json_dump.h"
#include "core/io/native/native_json.h"
#include "core/io/profile_loader.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>

namespace spillway::cli {

namespace {

struct Timing {
    double medianMs = 0;
    double minMs = 0;
};

template <typename F>
Timing measure(int repeat, F&& body) {
    std::vector<double> ms;
    for (int i = 0; i < repeat; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        body();
        const auto t1 = std::chrono::steady_clock::now();
        ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    return {ms[ms.size() / 2], ms.front()};
}

// Import and conversion against reading the same bytes; adds its fields to `out` (--json).
template <typename State>
int importBench(const State& state, nlohmann::ordered_json& out) {
    namespace fs = std::filesystem;
    std::vector<fs::path> files;
    if (fs::is_directory(state.workload)) {
        for (const auto& e : fs::directory_iterator(state.workload))
            if (e.is_regular_file()) files.push_back(e.path());
    } else {
        files.push_back(state.workload);
    }
    std::size_t sink = 0;
    const auto baseline = measure(state.repeat, [&] {
        for (const auto& f : files) {
            const auto text = readFileText(f);
            sink += static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
        }
    });
    Profile profile;
    const auto import = measure(state.repeat, [&] { profile = loadProfile(state.workload); });
    std::string json;
    const auto convert = measure(state.repeat, [&] { json = writeNativeProfile(profile); });
    const auto tmp = fs::temp_directory_path() / fmt::format("spillway-bench-{}.json", ::getpid());
    const auto save = measure(state.repeat, [&] { saveNativeProfile(profile, tmp); });
    Profile back;
    const auto reread = measure(state.repeat, [&] { back = readNativeProfile(tmp); });
    fs::remove(tmp);
    if (!(back == profile)) throw std::runtime_error("bench: native round trip changed the profile");
    auto row = [&](const char* name, const Timing& t) {
        return nlohmann::ordered_json{{"step", name}, {"median_ms", t.medianMs}, {"min_ms", t.minMs},
                                      {"ratio_to_baseline", t.medianMs / std::max(baseline.medianMs, 1e-6)}};
    };
    nlohmann::ordered_json rows = nlohmann::ordered_json::array(
        {row("baseline: read input bytes", baseline), row("import", import),
         row("convert to JSON (in memory)", convert), row("convert and save JSON", save),
         row("read native JSON", reread)});
    if (state.json.requested()) {
        nlohmann::ordered_json j{{"workload", state.workload}, {"kernels", profile.kernels.size()},
                                 {"tensors", profile.tensors.size()}, {"json_bytes", json.size()},
                                 {"repeat", state.repeat}, {"results", rows}};
        out.update(j);
    }
    if (!state.json.toStdout()) {
        fmt::print("workload {} ({} kernels, {} tensors, {} of JSON), {} runs each\n",
                   state.workload, profile.kernels.size(), profile.tensors.size(),
                   readableBytes(static_cast<std::int64_t>(json.size())), state.repeat);
        for (const auto& r : rows)
            fmt::print("  {:<30} median {:8.2f} ms  min {:8.2f} ms  x{:.1f} baseline\n",
                       r["step"].get<std::string>(), r["median_ms"].get<double>(),
                       r["min_ms"].get<double>(), r["ratio_to_baseline"].get<double>());
    }
    return sink == static_cast<std::size_t>(-1) ? kExitBadInput : kExitOk;
}

// `bench sweep`: design-sweep cells/s/core per policy, and sharding + merging a 100k-cell sweep.
CLI::App* addSweepBenchCommand(CLI::App& cmd, SweepBenchOptions& sweep) {
    auto* sweepCmd = cmd.add_subcommand("sweep", "Design-sweep throughput (cells/s/core for every policy on BERT "
                                                  "batch 256 and ViT batch 1280) and the cost of sharding and "
                                                  "merging a 100k-cell sweep (sweep_bench.h)");
    sweep.tinyProfile = std::string(SPILLWAY_SOURCE_DIR) + "/tests/fixtures/profiles/tiny-mlp.profile.json";
    sweepCmd->add_option("--workload", sweep.workloads, "Profiles for the throughput rows (repeatable)")
        ->allow_extra_args(false)->capture_default_str();
    sweepCmd->add_option("--policies", sweep.policies, "Policies (default: every planner)")
        ->delimiter(',')->allow_extra_args(false);
    sweepCmd->add_option("--cells-per-policy", sweep.cellsPerPolicy, "GPU capacities per workload and policy")
        ->check(CLI::Range(1, 1000))->capture_default_str();
    sweepCmd->add_option("--overhead-cells", sweep.overheadCells, "Cells of the sharding and merging sweep")
        ->check(CLI::Range(2, 10000000))->capture_default_str();
    sweepCmd->add_option("--shards", sweep.shards, "Shards of that sweep")->check(CLI::Range(1, 100000))
        ->capture_default_str();
    sweepCmd->add_option("--threads", sweep.threads, "Threads (default: all cores)");
    return sweepCmd;
}

}  // namespace

CommandAction addBenchCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("bench", "Measure import and conversion speed on a real G10 "
                                            "workload (default: BERT batch 256, 1,369 kernels), then "
                                            "plan + simulate time and peak memory of every policy");
    struct State {
        std::string workload = std::string(SPILLWAY_SHARED_DATA) + "/g10/derived/BERT_Base_256";
        int repeat = 20;
        JsonOutput json;
        std::vector<std::string> simWorkloads{std::string(SPILLWAY_SHARED_DATA) + "/g10/derived/BERT_Base_256",
                                              std::string(SPILLWAY_SHARED_DATA) + "/g10/derived/VIT_1280"};
        std::vector<std::string> policies;
        HardwareArgs hardware;
        int simRepeat = 5;
        bool skipImport = false;
        bool skipSim = false;
    };
    auto state = std::make_shared<State>();
    cmd->add_option("--workload", state->workload, "Profile path to benchmark (any format)")->capture_default_str();
    cmd->add_option("--repeat", state->repeat, "Runs per measurement (median reported)")
        ->check(CLI::Range(1, 10000))->capture_default_str();
    addJsonOption(*cmd, state->json, "the results");
    cmd->add_option("--sim-workload", state->simWorkloads, "Profiles for the simulator benchmark (repeatable)")
        ->allow_extra_args(false)->capture_default_str();
    cmd->add_option("--policies", state->policies, "Policies to benchmark (default: every planner)")
        ->delimiter(',')->allow_extra_args(false);
    addHardwareArgs(*cmd, state->hardware);
    cmd->add_option("--sim-repeat", state->simRepeat, "Runs per policy in the simulator benchmark (median reported)")
        ->check(CLI::Range(1, 10000))->capture_default_str();
    cmd->add_flag("--skip-import", state->skipImport, "Only the simulator benchmark");
    cmd->add_flag("--skip-sim", state->skipSim, "Only the import benchmark");
    // `bench layout`: ordering and placement methods instead of import and simulation.
    auto* layoutCmd = cmd->add_subcommand("layout", "Planning time and quality of every order and placement "
                                                    "method on real profiles and the minimalloc benchmarks");
    auto layout = std::make_shared<LayoutBenchOptions>();
    layout->profiles = {std::string(SPILLWAY_SHARED_DATA) + "/g10/derived/BERT_Base_256",
                        std::string(SPILLWAY_SHARED_DATA) + "/g10/derived/VIT_1280",
                        std::string(SPILLWAY_SOURCE_DIR) + "/samples/torch/resnet18-b2-cpu.profile.json",
                        std::string(SPILLWAY_SOURCE_DIR) + "/samples/torch/vit_b_16-b1-cpu.profile.json"};
    for (const char* id : {"A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K"})
        layout->csvs.push_back(std::string(SPILLWAY_SHARED_DATA) + "/minimalloc/" + id + ".1048576.csv");
    layoutCmd->add_option("--profile", layout->profiles, "Profiles to order and place (repeatable)")
        ->allow_extra_args(false)->capture_default_str();
    layoutCmd->add_option("--csv", layout->csvs, "minimalloc CSVs to place (repeatable)")
        ->allow_extra_args(false);
    layoutCmd->add_flag("--gpt2-xl", layout->gpt2xl,
                        "Also the generated GPT-2 XL training step (14,885 kernels; about a minute)");
    layoutCmd->add_option("--time-limit", layout->timeLimit, "Seconds per exact/best search and per ROAM segment")
        ->capture_default_str();
    // `bench snapshot`: memory snapshot import against python3's pickle.load of the same files.
    auto* snapshotCmd = cmd->add_subcommand("snapshot", "PyTorch memory snapshot import (and `info`) against "
                                                        "python3's pickle.load of the same file: time and peak "
                                                        "memory, with bigger snapshots made by repeating a trace");
    auto snapshot = std::make_shared<SnapshotBenchOptions>();
    auto snapshotArgs = std::make_shared<ProfileArgs>();
    snapshot->snapshots = {std::string(SPILLWAY_SHARED_DATA) + "/h200/captures/gpt2-b8.snapshot.pickle"};
    snapshotCmd->add_option("--snapshot", snapshot->snapshots, "Real snapshots to start from (repeatable)")
        ->allow_extra_args(false)->capture_default_str();
    snapshotCmd->add_option("--repeats", snapshot->repeats,
                            "Each snapshot with its trace repeated N times, time-shifted "
                            "(tests/bench/make_repeated_snapshot.py; 1 = as it is; 37 makes gpt2-b8 34 MB, 376 "
                            "makes it 350 MB)")
        ->delimiter(',')->allow_extra_args(false)->check(CLI::Range(1, 100000))->capture_default_str();
    snapshotCmd->add_option("--runs", snapshot->runs, "Runs per file and program (median reported)")
        ->check(CLI::Range(1, 100))->capture_default_str();
    snapshotCmd->add_option("--python", snapshot->python, "The Python that runs pickle.load")->capture_default_str();
    addIterationArg(*snapshotCmd, *snapshotArgs);
    auto sweep = std::make_shared<SweepBenchOptions>();
    sweep->workloads = state->simWorkloads;
    CLI::App* sweepCmd = addSweepBenchCommand(*cmd, *sweep);
    return [state, layoutCmd, layout, snapshotCmd, snapshot, snapshotArgs, sweepCmd, sweep]() {
        if (sweepCmd->parsed()) {
            return runReportingErrors(state->json, [&]() {
                const auto results = runSweepBench(*sweep);
                if (state->json.requested()) writeJsonOutput(state->json, jsonHeader("spillway.bench-sweep/1"), results);
                if (!state->json.toStdout()) printSweepBench(results);
                return kExitOk;
            });
        }
        if (snapshotCmd->parsed()) {
            return runReportingErrors(state->json, [&]() {
                snapshot->iteration = snapshotArgs->options().iteration;
                const auto results = runSnapshotBench(*snapshot);
                if (state->json.requested()) writeJsonOutput(state->json, jsonHeader("spillway.bench-snapshot/1"), results);
                if (!state->json.toStdout()) printSnapshotBench(results);
                return kExitOk;
            });
        }
        if (layoutCmd->parsed()) {
            return runReportingErrors(state->json, [&]() {
                const auto results = runLayoutBench(*layout);
                if (state->json.requested()) writeJsonOutput(state->json, jsonHeader("spillway.bench-layout/1"), results);
                if (!state->json.toStdout()) printLayoutBench(results);
                return kExitOk;
            });
        }
        return runReportingErrors(state->json, [&]() {
            nlohmann::ordered_json all;
            int code = kExitOk;
            if (!state->skipImport) code = importBench(*state, all);
            if (!state->skipSim) {
                SimBenchOptions o{state->simWorkloads, state->policies, state->hardware.hw, state->hardware.sets,
                                  state->simRepeat};
                all["simulator"] = runSimulatorBench(o);
                if (!state->json.toStdout()) printSimulatorBench(all["simulator"]);
            }
            if (state->json.requested()) writeJsonOutput(state->json, jsonHeader("spillway.bench/1"), all);
            return code;
        });
    };
}

}  // namespace spillway::cli
