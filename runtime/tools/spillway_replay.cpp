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
#include "core/hardware/hardware_presets.h"
#include "core/io/base/file_text.h"
#include "core/io/base/json_dump.h"
#include "runtime/replay/model_comparison_json.h"
#include "runtime/replay/replay_model_comparison.h"
#include "runtime/replay/model_backend.h"
#include "runtime/replay/replay_program_builder.h"
#include "runtime/replay/replay_runner.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <functional>
#include <iostream>
#include <optional>

namespace {

constexpr int kExitOk = 0;
constexpr int kExitBadInput = 2;
constexpr int kExitBackend = 3;

double ms(spillway::Nanoseconds ns) { return double(ns) / 1e6; }

// `why`, when given, says under each worst kernel what made the difference.
void printErrors(const spillway::MeasuredComparison& c, const char* against,
                 const std::function<std::string(std::size_t)>& why = {}) {
    using namespace spillway;
    fmt::print("measured vs {} (iteration {}): {:.3f} ms vs {:.3f} ms, error {:+.3f} ms ({:+.1f}%), "
               "mean |kernel error| {:.1f} us\n",
               against, c.iteration, ms(c.measuredTotal), ms(c.simulatedTotal), ms(c.totalError),
               100.0 * c.totalRelativeError, double(c.meanAbsDurationError) / 1e3);
    for (const std::int64_t i : c.worst) {
        const KernelError& k = c.kernels[static_cast<std::size_t>(i)];
        fmt::print("  kernel {:>5} {:<40} measured {:>10.1f} us, {} {:>10.1f} us ({:+.1f} us)\n", k.runIndex,
                   k.name.substr(0, 40), double(k.measuredDuration) / 1e3, against, double(k.simulatedDuration) / 1e3,
                   double(k.durationError) / 1e3);
        if (why)
            if (const std::string text = why(static_cast<std::size_t>(k.runIndex)); !text.empty())
                fmt::print("        why: {}\n", text);
    }
}

// For a managed arena whose replay discards, the model's time is a lower bound: say so.
void noteUnmodelledFaults(const spillway::MeasuredTimeline& t) {
    if (const std::string note = spillway::replay::unmodelledFaultsNote(t); !note.empty()) fmt::print("note: {}\n", note);
}

// The plan simulated on its own (planning) machine.
void printComparison(const spillway::replay::ReplayInputs& in, const spillway::MeasuredTimeline& measured) {
    using namespace spillway;
    SimulationOptions options;
    options.recordTensorResidency = false;
    options.recordResidencySamples = false;
    options.recordTransfers = false;
    options.measureDiscardSavings = false;
    const SimulationResult sim = simulate(in.profile, in.plan.plan, in.plan.hardware, options);
    printErrors(compareMeasured(measured, sim, -1, 5), "simulated");
}

// The replay model's own timeline of the program on `machine` (--backend model).
spillway::MeasuredTimeline modelOf(const spillway::replay::ReplayProgram& program, const spillway::HardwareConfig& machine,
                                   int iterations) {
    spillway::replay::ModelBackend model(machine);
    return spillway::replay::runReplay(program, model, iterations);
}

// Measured against the replay model, each worst kernel with what made the difference; with
// --json, the whole comparison as JSON too (only that on stdout with `--json -`).
void printModelErrors(const spillway::MeasuredTimeline& measured, const spillway::replay::ReplayModelComparison& c,
                      const spillway::HardwareConfig& machine, const std::string& json) {
    using namespace spillway;
    if (!json.empty()) {
        nlohmann::ordered_json doc;
        doc["format"] = std::string(replay::kReplayComparisonFormatId);
        doc["tool"] = {{"name", "spillway-replay"}, {"version", std::string(SPILLWAY_VERSION)}};
        doc["profile_hash"] = measured.profileHash;
        const nlohmann::ordered_json body = replay::modelComparisonJson(measured, c, machine);
        for (const auto& [key, value] : body.items()) doc[key] = value;
        const std::string text = dumpJson(doc, 1) + "\n";
        if (json == "-") {
            fmt::print("{}", text);
            return;
        }
        writeFileAtomically(json, text);
    }
    printErrors(c.comparison, "model", [&](std::size_t runIndex) { return c.causes.at(runIndex).text; });
    fmt::print("where the difference is, kernel by kernel (measured minus model):\n{}", c.breakdown.text);
    noteUnmodelledFaults(measured);
}

// The plan and profile, and the --machine when one is named, read once before anything runs.
struct Inputs : spillway::replay::ReplayInputs {
    std::optional<spillway::HardwareConfig> machine;
};

struct Args {
    std::string planPath, profilePath, backendName, output, arena = "auto", machine, resimulate, discards, json;
    int iterations = 1;
    bool compare = false, force = false, unorderedSlots = false, discardAndPrefetch = false, noDiscards = false,
         fenceDiscards = false;
};

void addOptions(CLI::App& app, Args& a) {
    app.add_option("PLAN", a.planPath, "the exported plan (spillway.plan/1 JSON)")->required();
    app.add_option("PROFILE", a.profilePath, "the profile the plan was made for (any format Spillway reads)")->required();
    app.add_option("--backend", a.backendName,
                   "cuda (a GPU), host (threads and timers on the CPU) or model (worked out on --machine)")
        ->check(CLI::IsMember({"cuda", "host", "model"}));
    app.add_option("-o,--output", a.output, "where to write the measured timeline (spillway.measured/1 JSON)");
    app.add_option("--iterations", a.iterations, "iterations to replay (the comparison uses the last)")
        ->check(CLI::Range(1, 100000));
    app.add_option("--arena", a.arena,
                   "auto: device memory at the plan's offsets when it has an arena, else managed; managed; device")
        ->check(CLI::IsMember({"auto", "managed", "device"}));
    app.add_option("--machine", a.machine,
                   "the machine the replay runs on, a preset id (h200) or a spillway.hardware/1 file (what "
                   "spillway-calibrate writes): the model backend's machine, and with --compare or --resimulate "
                   "what the replay model is worked out on");
    app.add_option("--resimulate", a.resimulate,
                   "a measured timeline of this plan: re-simulate what ran (its arena, its calls, its iterations) "
                   "on --machine and print measured against the model; nothing is replayed")
        ->excludes("--backend");
    app.add_flag("--compare", a.compare,
                 "also print measured against simulated times (the plan's machine) and, with --machine, "
                 "against the replay model");
    app.add_flag("--force", a.force, "overwrite OUTPUT if it exists");
    app.add_flag("--unordered-slots", a.unorderedSlots,
                 "do not order the reuse of the plan's arena slots (as runtimes before issue 16 did): a prefetch "
                 "may land in a slot its previous tensor still uses, a late discard may wipe the new one");
    app.add_flag("--discard-and-prefetch", a.discardAndPrefetch,
                 "managed arena: populate a dropped tensor's pages with cudaMemDiscardAndPrefetchBatchAsync (as "
                 "runtimes before issue 16 did) instead of cudaMemPrefetchAsync");
    app.add_flag("--fence-discards", a.fenceDiscards,
                 "managed arena: follow each discard on its stream with a prefetch of a page of its own, so the "
                 "stream also waits for the driver's work queued before that prefetch (an experiment: whether a "
                 "discard lands after its stream moved on; docs/validation.md, \"A discard that lands late\"); the "
                 "timeline names the call \"cudaMemDiscardBatchAsync, then a fence prefetch\"");
    auto* none = app.add_flag("--no-discards", a.noDiscards,
                              "managed arena: issue none of the plan's discards, frees and recompute drops (an "
                              "ablation: what they cost on this machine); the timeline names each call \"nothing "
                              "(discards skipped)\"");
    app.add_option("--discards", a.discards,
                   "managed arena: which of the plan's drops to issue, by plan directive index: all (the default), "
                   "none, LIST (only these) or except:LIST, LIST as in 12,40-60; to find which drops make which "
                   "kernels fault (scripts/gpu/drop-groups)")
        ->excludes(none);
    app.add_option("--json", a.json,
                   "with --resimulate, or --compare --machine: also write measured against the replay model, every "
                   "kernel with why, as spillway.replay-comparison/1 JSON to FILE, or - for stdout instead of the "
                   "text (a bare --json means -)")
        ->type_name("FILE|-")
        ->expected(0, 1)
        ->default_str("-");
}

spillway::replay::ArenaChoice arenaChoice(const std::string& arena) {
    using spillway::replay::ArenaChoice;
    return arena == "managed" ? ArenaChoice::Managed : arena == "device" ? ArenaChoice::Device : ArenaChoice::Auto;
}

// --resimulate: the measured timeline's arena, calls and iterations, on --machine.
int resimulate(const Args& a, const Inputs& in) {
    using namespace spillway;
    const MeasuredTimeline measured = readMeasuredTimeline(a.resimulate);
    if (measured.profileHash != in.plan.profileHash)
        throw std::invalid_argument(a.resimulate + " was measured for profile " + measured.profileHash + ", the plan " +
                                    a.planPath + " is of " + in.plan.profileHash);
    const replay::ReplayOptions options = replay::replayOptionsOf(measured);
    const replay::ReplayProgram program = replay::buildReplayProgram(in.profile, in.plan, options);
    const replay::ReplayModelComparison c = replay::compareWithReplayModel(program, measured, *in.machine);
    if (!a.output.empty()) writeMeasuredTimeline(c.model, a.output);
    if (a.json != "-")
        fmt::print("{} ({} arena, {} iteration(s)) re-simulated on {}\n", a.resimulate, measured.arenaKind,
                   measured.iterations.size(), a.machine);
    printModelErrors(measured, c, *in.machine, a.json);
    return kExitOk;
}

int replayPlan(const Args& a, const Inputs& in) {
    using namespace spillway;
    replay::ReplayOptions options;
    options.arena = arenaChoice(a.arena);
    options.orderSlots = !a.unorderedSlots;
    options.discardAndPrefetchAfterDrop = a.discardAndPrefetch;
    options.fenceDiscards = a.fenceDiscards;
    replay::ReplayProgram program;
    try {
        options.discards = a.noDiscards ? replay::DiscardSelection::none()
                                        : replay::DiscardSelection::parse(a.discards.empty() ? "all" : a.discards);
        program = replay::buildReplayProgram(in.profile, in.plan, options);
    } catch (const std::invalid_argument& e) {
        fmt::print(stderr, "spillway-replay: {}: {}\n", a.planPath, e.what());
        return kExitBadInput;
    }
    const MeasuredTimeline measured = a.backendName == "model"
                                          ? modelOf(program, *in.machine, a.iterations)
                                          : replay::runReplay(program, *replay::makeReplayBackend(a.backendName), a.iterations);
    try {
        writeMeasuredTimeline(measured, a.output);
    } catch (const std::exception& e) {  // names OUTPUT: a folder, no permission, a full disk
        fmt::print(stderr, "spillway-replay: {}\n", e.what());
        return kExitBadInput;
    }
    const MeasuredIteration& last = measured.iterations.back();
    fmt::print("{} on {}: {} kernels, {} directives, {} iteration(s); last iteration {:.3f} ms "
               "(profiled kernels {:.3f} ms); {} fallback(s), {} failure(s) -> {}\n",
               measured.backend, measured.device, program.kernels.size(), program.directives.size(),
               measured.iterations.size(), ms(last.endNs - last.startNs), ms(in.profile.totalDuration()),
               measured.fallbacks.size(), measured.failures.size(), a.output);
    for (const MeasuredNote& n : measured.fallbacks) fmt::print("  fallback: {}\n", n.message);
    for (const MeasuredNote& n : measured.failures) fmt::print("  failure: {}\n", n.message);
    if (a.compare) printComparison(in, measured);
    if (a.compare && !a.machine.empty() && a.backendName != "model")
        printModelErrors(measured, replay::compareWithReplayModel(program, measured, *in.machine), *in.machine, a.json);
    else if (a.backendName == "model")
        noteUnmodelledFaults(measured);
    return kExitOk;
}

// What the options say together that CLI11 cannot check alone; "" when they fit.
std::string usageProblem(const Args& a) {
    if (a.resimulate.empty() && a.backendName.empty()) return "--backend or --resimulate is required";
    if (a.resimulate.empty() && a.output.empty()) return "--output is required";
    if ((a.backendName == "model" || !a.resimulate.empty()) && a.machine.empty())
        return "--machine is required with --backend model and --resimulate (a preset id such as h200, or a file)";
    if (!a.json.empty() && a.resimulate.empty() && !(a.compare && !a.machine.empty() && a.backendName != "model"))
        return "--json needs a comparison with the replay model: --resimulate, or --compare --machine with a backend "
               "that runs";
    if (a.json == "-" && a.resimulate.empty())
        return "--json - prints only the JSON, which needs --resimulate; give --json FILE after a replay";
    if (!a.resimulate.empty() && a.fenceDiscards)
        return "--fence-discards is for a replay; --resimulate follows the calls its timeline recorded";
    if (!a.output.empty() && std::filesystem::exists(a.output) && !a.force)
        return a.output + " exists; pass --force to overwrite it";
    return {};
}

}  // namespace

int main(int argc, char** argv) {
    using namespace spillway;
    CLI::App app{"spillway-replay: replay an exported plan on a GPU (or on the CPU with --backend host, or worked "
                 "out on a measured machine with --backend model) and write the measured timeline (Spillway " SPILLWAY_VERSION ")"};
    app.set_version_flag("--version", std::string(SPILLWAY_VERSION));
    Args a;
    addOptions(app, a);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? kExitOk : kExitBadInput;
    }
    try {
        if (const std::string why = usageProblem(a); !why.empty()) {
            fmt::print(stderr, "spillway-replay: {}\n", why);
            return kExitBadInput;
        }
        Inputs in;
        try {
            static_cast<replay::ReplayInputs&>(in) = replay::loadReplayInputs(a.planPath, a.profilePath);
            if (!a.machine.empty()) in.machine = loadHardware(a.machine);  // bad input, found before any run
        } catch (const std::exception& e) {  // all of it is about the files, none about the GPU
            fmt::print(stderr, "spillway-replay: {}\n", e.what());
            return kExitBadInput;
        }
        return a.resimulate.empty() ? replayPlan(a, in) : resimulate(a, in);
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
