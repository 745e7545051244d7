// spillway-replay PLAN PROFILE --backend cuda|host -o measured.json [--iterations N]
// [--arena auto|managed|device] [--compare] [--force]: replays an exported plan
// (spillway.plan/1) of the profile it was made for, and writes what happened as a measured
// timeline (spillway.measured/1) that the app opens beside the simulated run. docs/runtime.md.
//
// Exit codes: 0 done, 2 bad input or usage (the message names the file and where; also anything
// else that goes wrong reading PLAN and PROFILE or writing OUTPUT), 3 the backend cannot run here
// (no CUDA device found) or failed.
#include "core/deploy/measured_comparison.h"
#include "core/io/base/import_error.h"
#include "core/io/measured/measured_timeline.h"
#include "core/sim/simulator.h"
#include "runtime/replay/replay_program_builder.h"
#include "runtime/replay/replay_runner.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <iostream>

namespace {

constexpr int kExitOk = 0;
constexpr int kExitBadInput = 2;
constexpr int kExitBackend = 3;

double ms(spillway::Nanoseconds ns) { return double(ns) / 1e6; }

void printComparison(const spillway::replay::ReplayInputs& in, const spillway::MeasuredTimeline& measured) {
    using namespace spillway;
    SimulationOptions options;
    options.recordTensorResidency = false;
    options.recordResidencySamples = false;
    options.recordTransfers = false;
    options.measureDiscardSavings = false;
    const SimulationResult sim = simulate(in.profile, in.plan.plan, in.plan.hardware, options);
    const MeasuredComparison c = compareMeasured(measured, sim, -1, 5);
    fmt::print("measured vs simulated (iteration {}): {:.3f} ms vs {:.3f} ms, error {:+.3f} ms ({:+.1f}%), "
               "mean |kernel error| {:.1f} us\n",
               c.iteration, ms(c.measuredTotal), ms(c.simulatedTotal), ms(c.totalError), 100.0 * c.totalRelativeError,
               double(c.meanAbsDurationError) / 1e3);
    for (const std::int64_t i : c.worst) {
        const KernelError& k = c.kernels[static_cast<std::size_t>(i)];
        fmt::print("  kernel {:>5} {:<40} measured {:>10.1f} us, simulated {:>10.1f} us ({:+.1f} us)\n", k.runIndex,
                   k.name.substr(0, 40), double(k.measuredDuration) / 1e3, double(k.simulatedDuration) / 1e3,
                   double(k.durationError) / 1e3);
    }
}

}  // namespace

int main(int argc, char** argv) {
    using namespace spillway;
    CLI::App app{"spillway-replay: replay an exported plan on a GPU (or on the CPU with --backend host) and write "
                 "the measured timeline (Spillway " SPILLWAY_VERSION ")"};
    app.set_version_flag("--version", std::string(SPILLWAY_VERSION));
    std::string planPath, profilePath, backendName, output, arena = "auto";
    int iterations = 1;
    bool compare = false, force = false;
    app.add_option("PLAN", planPath, "the exported plan (spillway.plan/1 JSON)")->required();
    app.add_option("PROFILE", profilePath, "the profile the plan was made for (any format Spillway reads)")->required();
    app.add_option("--backend", backendName, "cuda (a GPU) or host (threads and timers on the CPU)")
        ->required()
        ->check(CLI::IsMember({"cuda", "host"}));
    app.add_option("-o,--output", output, "where to write the measured timeline (spillway.measured/1 JSON)")->required();
    app.add_option("--iterations", iterations, "iterations to replay (the comparison uses the last)")
        ->check(CLI::Range(1, 100000));
    app.add_option("--arena", arena,
                   "auto: device memory at the plan's offsets when it has an arena, else managed; managed; device")
        ->check(CLI::IsMember({"auto", "managed", "device"}));
    app.add_flag("--compare", compare, "also simulate the plan and print measured against simulated times");
    app.add_flag("--force", force, "overwrite OUTPUT if it exists");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? kExitOk : kExitBadInput;
    }

    try {
        if (std::filesystem::exists(output) && !force) {
            fmt::print(stderr, "spillway-replay: {} exists; pass --force to overwrite it\n", output);
            return kExitBadInput;
        }
        replay::ReplayInputs in;
        try {
            in = replay::loadReplayInputs(planPath, profilePath);
        } catch (const std::exception& e) {  // all of it is about PLAN or PROFILE, none about the GPU
            fmt::print(stderr, "spillway-replay: {}\n", e.what());
            return kExitBadInput;
        }
        replay::ReplayOptions options;
        options.arena = arena == "managed"  ? replay::ArenaChoice::Managed
                        : arena == "device" ? replay::ArenaChoice::Device
                                            : replay::ArenaChoice::Auto;
        replay::ReplayProgram program;
        try {
            program = replay::buildReplayProgram(in.profile, in.plan, options);
        } catch (const std::invalid_argument& e) {
            fmt::print(stderr, "spillway-replay: {}: {}\n", planPath, e.what());
            return kExitBadInput;
        }
        const auto backend = replay::makeReplayBackend(backendName);
        const MeasuredTimeline measured = replay::runReplay(program, *backend, iterations);
        try {
            writeMeasuredTimeline(measured, output);
        } catch (const std::exception& e) {  // names OUTPUT: a folder, no permission, a full disk
            fmt::print(stderr, "spillway-replay: {}\n", e.what());
            return kExitBadInput;
        }
        const MeasuredIteration& last = measured.iterations.back();
        fmt::print("{} on {}: {} kernels, {} directives, {} iteration(s); last iteration {:.3f} ms "
                   "(profiled kernels {:.3f} ms); {} fallback(s), {} failure(s) -> {}\n",
                   measured.backend, measured.device, program.kernels.size(), program.directives.size(),
                   measured.iterations.size(), ms(last.endNs - last.startNs), ms(in.profile.totalDuration()),
                   measured.fallbacks.size(), measured.failures.size(), output);
        for (const MeasuredNote& n : measured.fallbacks) fmt::print("  fallback: {}\n", n.message);
        for (const MeasuredNote& n : measured.failures) fmt::print("  failure: {}\n", n.message);
        if (compare) printComparison(in, measured);
        return kExitOk;
    } catch (const ImportError& e) {
        fmt::print(stderr, "spillway-replay: {}\n", e.what());
        return kExitBadInput;
    } catch (const std::invalid_argument& e) {  // the plan was made for another profile
        fmt::print(stderr, "spillway-replay: {}\n", e.what());
        return kExitBadInput;
    } catch (const replay::ReplayError& e) {
        fmt::print(stderr, "spillway-replay: {}\n", e.what());
        return kExitBackend;
    } catch (const std::exception& e) {
        fmt::print(stderr, "spillway-replay: {}\n", e.what());
        return kExitBackend;
    }
}
