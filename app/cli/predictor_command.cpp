// spillway-cli predictor: TENSILE's operator-time predictor (core/predictor): train it on
// torch.profiler traces, score it, and run a workload's new jobs with predicted, oracle and
// passive-mode estimates (core/experiment/new_job_estimates.h).
#include "app/cli/commands.h"

#include "app/cli/cli_common.h"
#include "app/cli/error_report.h"

#include "core/experiment/new_job_estimates.h"
#include "core/io/base/file_text.h"
#include "core/predictor/op_time_predictor.h"
#include "core/workload/workload.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <stdexcept>

namespace spillway::cli {
namespace {

namespace fs = std::filesystem;
using namespace spillway::predictor;

// Files as given; a folder stands for its *.trace.json[.gz] files, recursively, sorted.
std::vector<fs::path> traceFiles(const std::vector<std::string>& args) {
    std::vector<fs::path> out;
    for (const auto& a : args) {
        if (!fs::is_directory(a)) {
            out.emplace_back(a);
            continue;
        }
        std::vector<fs::path> found;
        for (const auto& e : fs::recursive_directory_iterator(a)) {
            const auto name = e.path().filename().string();
            if (e.is_regular_file() && (name.ends_with(".trace.json") || name.ends_with(".trace.json.gz"))) found.push_back(e.path());
        }
        std::sort(found.begin(), found.end());
        out.insert(out.end(), found.begin(), found.end());
    }
    return out;
}

std::vector<OpSample> readSamples(const std::vector<std::string>& args, const std::vector<std::string>& exclude) {
    std::vector<OpSample> all;
    for (const auto& path : traceFiles(args)) {
        const auto name = path.filename().string();
        if (std::any_of(exclude.begin(), exclude.end(), [&](const std::string& x) { return name.find(x) != std::string::npos; }))
            continue;
        auto ops = readTraceOps(path);
        all.insert(all.end(), ops.samples.begin(), ops.samples.end());
    }
    if (all.empty()) throw std::invalid_argument("no operator samples in the given traces");
    return all;
}

// A Markdown table, so the numbers can go to docs as printed.
void printScores(const PredictorScores& s, int minSamples) {
    fmt::print("| op type | held-out samples | R^2 | R^2 of ln t | mean abs ln error | naive per-op mean: R^2, mean abs ln error |\n");
    fmt::print("|---|---|---|---|---|---|\n");
    auto row = [](const OpTypeScore& o) {
        fmt::print("| {} | {} | {:.3f} | {:.3f} | {:.3f} | {:.3f}, {:.3f} |\n", o.op, o.samples, o.r2, o.r2Log, o.meanAbsLogError,
                   o.naiveR2, o.naiveMeanAbsLogError);
    };
    for (const auto& o : s.perOp)
        if (o.samples >= minSamples) row(o);
    row(s.all);
}

struct TrainArgs {
    std::vector<std::string> traces, exclude;
    std::string output;
    int holdOut = 5, epochs = 200, hidden = 12, minRows = 10;
    std::uint64_t seed = 1;
};

int runTrain(const TrainArgs& a) {
    std::vector<OpSample> train, test;
    splitSamples(readSamples(a.traces, a.exclude), a.holdOut, train, test);
    PredictorTrainOptions options;
    options.mlp.epochs = a.epochs;
    options.mlp.hidden = a.hidden;
    options.mlp.seed = a.seed;
    const auto predictor = trainPredictor(train, options);
    fmt::print("trained on {} samples of {} traces ({} op types one-hot), {} held out\n", train.size(),
               predictor.traces.size(), predictor.ops.size(), test.size());
    printScores(scorePredictor(predictor, train, test), a.minRows);
    if (!a.output.empty()) {
        writeFileAtomically(a.output, predictorToJson(predictor));
        fmt::print(stderr, "wrote {}\n", a.output);
    }
    return kExitOk;
}

struct ArrivalArgs {
    std::string workload, model, planner = "tensile", job;
    int iterations = 2;
};

// Each job's predicted kernel times: from its trace's op shapes when its profile is a torch
// trace, else from the profile's own ops and input bytes.
std::vector<std::vector<Nanoseconds>> predictJobs(const Workload& w, const OpTimePredictor& p) {
    std::vector<std::vector<Nanoseconds>> out;
    for (const auto& job : w.jobs) {
        std::vector<Nanoseconds> times;
        std::string from = "trace shapes";
        try {
            times = predictTraceProfile(job.profile, readTraceOps(job.resolvedPath), p);
        } catch (const std::exception&) {
            times = predictProfile(job.profile, p);
            from = "profile ops and input bytes";
        }
        Nanoseconds predicted = 0, profiled = 0;
        for (std::size_t k = 0; k < times.size(); ++k) predicted += times[k], profiled += job.profile.kernels[k].duration;
        fmt::print("job {}: predicted from {}: {:.3f} ms of kernels, the profile {:.3f} ms\n", job.name, from, predicted / 1e6,
                   profiled / 1e6);
        out.push_back(std::move(times));
    }
    return out;
}

int runArrival(const ArrivalArgs& a) {
    const Workload w = loadWorkload(a.workload);
    std::size_t newest = 0;
    for (std::size_t j = 0; j < w.jobs.size(); ++j)
        if (a.job.empty() ? w.jobs[j].start >= w.jobs[newest].start : w.jobs[j].name == a.job) newest = j;
    if (!a.job.empty() && w.jobs[newest].name != a.job) throw std::invalid_argument("no job named " + a.job);
    const auto predicted = predictJobs(w, loadPredictor(a.model));
    fmt::print("job {} (arrives at {:.3f} ms), its first {} iterations, planner {}:\n\n", w.jobs[newest].name,
               w.jobs[newest].start / 1e6, a.iterations, a.planner);
    fmt::print("| mode | first iterations | swap stall | passive swap | system peak then | makespan | re-plans |\n|---|---|---|---|---|---|---|\n");
    for (auto mode : {EstimateMode::Oracle, EstimateMode::Predicted, EstimateMode::Passive}) {
        const auto r = simulateWithEstimates(w, mode, predicted, a.planner);
        const auto c = firstIterationsCost(r, newest, a.iterations);
        fmt::print("| {} | {:.3f} ms | {:.3f} ms | {:.3f} ms | {:.1f} MiB | {:.3f} ms | {} |{}\n", toString(mode), c.time / 1e6,
                   c.swapStall / 1e6, c.passiveSwapStall / 1e6, c.systemPeak / 1048576.0, r.makespan() / 1e6, r.replans.size(),
                   r.cannotRun.empty() ? "" : " cannot run: " + r.cannotRun);
    }
    return kExitOk;
}

}  // namespace

CommandAction addPredictorCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("predictor", "TENSILE's operator-time predictor: train the MLP on torch.profiler traces "
                                                "(R^2 per op type), score a model, or run a workload's new jobs with "
                                                "predicted, oracle and passive-mode estimates");
    cmd->require_subcommand(1);
    auto train = std::make_shared<TrainArgs>();
    auto* t = cmd->add_subcommand("train", "Train on traces (files or folders of *.trace.json[.gz]); every Nth sample held out");
    t->add_option("traces", train->traces, "torch.profiler traces recorded with record_shapes")->required();
    t->add_option("-o,--output", train->output, "Write the model (spillway.op-predictor/1 JSON)");
    t->add_option("--hold-out", train->holdOut, "Hold out every Nth sample of each trace for the scores")->check(CLI::Range(2, 1000));
    t->add_option("--exclude", train->exclude, "Leave out traces whose file name contains this");
    t->add_option("--epochs", train->epochs, "Training epochs")->check(CLI::Range(1, 100000));
    t->add_option("--hidden", train->hidden, "Units per hidden layer")->check(CLI::Range(1, 1024));
    t->add_option("--seed", train->seed, "Random seed of the initial weights and the shuffles");
    t->add_option("--min-rows", train->minRows, "Print op types with at least this many held-out samples");
    auto eval = std::make_shared<TrainArgs>();
    auto evalModel = std::make_shared<std::string>();
    auto* e = cmd->add_subcommand("eval", "Score a model on traces' held-out samples, next to each op type's mean");
    e->add_option("model", *evalModel, "spillway.op-predictor/1 file")->required();
    e->add_option("traces", eval->traces, "torch.profiler traces")->required();
    e->add_option("--hold-out", eval->holdOut, "Every Nth sample is scored (the rest is the naive mean's)")->check(CLI::Range(2, 1000));
    e->add_option("--min-rows", eval->minRows, "Print op types with at least this many samples");
    auto arrival = std::make_shared<ArrivalArgs>();
    auto* r = cmd->add_subcommand("arrival", "A workload's newest job: its first iterations' cost with predicted, oracle and passive estimates");
    r->add_option("workload", arrival->workload, "spillway.workload/1 file")->required();
    r->add_option("--model", arrival->model, "spillway.op-predictor/1 file")->required();
    r->add_option("--job", arrival->job, "The job to report (default: the one that starts last)");
    r->add_option("--iterations", arrival->iterations, "How many first iterations")->check(CLI::Range(1, 1000000));
    r->add_option("--planner", arrival->planner, "Multi-job planner id");
    return [=]() {
        return runReportingErrors(false, [&]() {
            if (t->parsed()) return runTrain(*train);
            if (e->parsed()) {
                std::vector<OpSample> tr, te;
                splitSamples(readSamples(eval->traces, {}), eval->holdOut, tr, te);
                printScores(scorePredictor(loadPredictor(*evalModel), tr, te), eval->minRows);
                return kExitOk;
            }
            return runArrival(*arrival);
        });
    };
}

}  // namespace spillway::cli
