// Large allocation problems (18,000-60,000 buffers) like the ones production training runs give:
// generated GPT-2 XL steps (more micro-batches, program and scrambled orders) and the real torch
// captures in ../shared/data/h200 repeated as many training iterations. Per instance: buffers,
// LOAD, what `best` reaches and in how long, checked by the verifier. Optionally writes each
// problem as a minimalloc CSV, for other solvers (minimalloc) and for `spillway-cli layout`.
//   bench_layout_large [time-limit-seconds (10)] [threads (2)] [csv-output-folder]
#include "tests/bench/random_topological_order.h"
#include "core/io/profile_loader.h"
#include "core/layout/greedy_placer.h"
#include "core/layout/layout_verifier.h"
#include "core/layout/minimalloc_csv.h"
#include "core/layout/placement.h"
#include "core/layout/profile_allocation.h"
#include "core/trace/dependency_graph.h"
#include "core/trace/transformer_training_graph.h"
#include "tests/core/layout/large_problem_support.h"

#include <fmt/format.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

using namespace spillway;

namespace {

struct Instance {
    std::string name;
    AllocationProblem problem;
};

using bench::randomTopologicalOrder;

Instance transformer(const std::string& name, std::int64_t micro, bool scrambled) {
    TransformerConfig c;
    c.microBatches = micro;
    const Profile profile = transformerTrainingGraph(c);
    return {name, allocationProblemFromProfile(profile, scrambled ? randomTopologicalOrder(profile, 7)
                                                                   : std::vector<std::int64_t>{})};
}

std::vector<Instance> instances() {
    std::vector<Instance> out;
    out.push_back(transformer("gpt2xl x8", 8, false));
    out.push_back(transformer("gpt2xl x16", 16, false));
    out.push_back(transformer("gpt2xl x6 random", 6, true));
    out.push_back(transformer("gpt2xl x12 random", 12, true));
    const std::filesystem::path captures = std::filesystem::path(SPILLWAY_SHARED_DATA) / "h200" / "captures";
    struct Capture {
        const char* file;
        std::int64_t copies;
    };
    for (const Capture c : {Capture{"resnet50-b64.trace.json", 28}, Capture{"resnet50-b64.snapshot.pickle", 16},
                            Capture{"gpt2-b8.snapshot.pickle", 12}}) {
        const auto path = captures / c.file;
        if (!std::filesystem::exists(path)) continue;
        ImportOptions options;
        options.iteration = ImportOptions::kAllIterations;
        const Profile profile = loadProfile(path.string(), options);
        const AllocationProblem one = allocationProblemFromProfile(profile, {});
        out.push_back({fmt::format("{} x{}", c.file, c.copies), testing::repeatedIterations(one, c.copies, 1.0)});
        out.push_back({fmt::format("{} x{} overlapped", c.file, c.copies), testing::repeatedIterations(one, c.copies, 0.85)});
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    const double limit = argc > 1 ? std::stod(argv[1]) : 10.0;
    const unsigned threads = argc > 2 ? unsigned(std::stoul(argv[2])) : 2;
    const std::string csvFolder = argc > 3 ? argv[3] : "";
    if (!csvFolder.empty()) std::filesystem::create_directories(csvFolder);
    fmt::print("{:<44} {:>7} {:>14} {:>14} {:>10} {:>8}  note\n", "instance", "buffers", "LOAD", "best arena",
               "arena/LOAD", "seconds");
    for (const Instance& in : instances()) {
        if (!csvFolder.empty()) {
            std::string file = in.name;
            for (char& ch : file)
                if (ch == ' ') ch = '_';
            writeMinimallocCsv((std::filesystem::path(csvFolder) / (file + ".csv")).string(), in.problem, nullptr);
        }
        PlacementOptions o;
        o.timeLimitSeconds = limit;
        o.threads = threads;
        const PlacementResult r = placeBest(in.problem, o);
        const bool ok = verifyLayout(in.problem, r.layout, 1).empty();
        fmt::print("{:<44} {:>7} {:>14} {:>14} {:>10.5f} {:>8.2f}  {}{}\n", in.name, in.problem.buffers.size(),
                   r.lowerBound, r.arena, double(r.arena) / double(r.lowerBound), r.seconds, ok ? "" : "INVALID ",
                   r.note);
        std::fflush(stdout);
    }
    return 0;
}
