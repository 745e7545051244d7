// Layout heuristics on the eleven minimalloc benchmarks and on GPT-2 XL training steps of 12,000
// to 30,000 buffers: per instance and method, the arena, arena / LOAD, the time, and the arena and
// time relative to greedy-by-size run in the same process.
//   bench_layout_heuristics [best-time-limit-seconds (10)] [threads (0 = all cores)]
#include "tests/bench/random_topological_order.h"
#include "core/layout/layout_verifier.h"
#include "core/layout/minimalloc_csv.h"
#include "core/layout/placement.h"
#include "core/layout/profile_allocation.h"
#include "core/trace/dependency_graph.h"
#include "core/trace/transformer_training_graph.h"

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
    std::vector<std::int64_t> segmentStarts;
};

// Segment starts for roam on a generated profile in program order: a tick where the kernel's
// layer (the "hN." in its name) or its phase changes. A stand-in for the ROAM order's
// independent segments (core/layout/order_roam), which this benchmark does not compute.
std::vector<std::int64_t> layerBoundaries(const Profile& profile) {
    std::vector<std::int64_t> starts;
    std::string previous;
    for (size_t k = 0; k < profile.kernels.size(); ++k) {
        const Kernel& kernel = profile.kernels[k];
        std::string key = fmt::format("{}", int(kernel.phase));
        const auto h = kernel.name.find(".h");
        if (h != std::string::npos) key += kernel.name.substr(h, kernel.name.find('.', h + 1) - h);
        if (k > 0 && key != previous) starts.push_back(std::int64_t(k));
        previous = key;
    }
    return starts;
}

using bench::randomTopologicalOrder;

Instance transformerInstance(const std::string& name, std::int64_t batch, std::int64_t seq, std::int64_t micro) {
    TransformerConfig c;
    c.batch = batch;
    c.sequence = seq;
    c.microBatches = micro;
    const Profile profile = transformerTrainingGraph(c);
    return {name, allocationProblemFromProfile(profile, {}), layerBoundaries(profile)};
}

}  // namespace

int main(int argc, char** argv) {
    const double bestLimit = argc > 1 ? std::stod(argv[1]) : 10.0;
    const unsigned threads = argc > 2 ? unsigned(std::stoul(argv[2])) : 0;
    std::vector<Instance> instances;
    const std::filesystem::path dir = std::filesystem::path(SPILLWAY_SHARED_DATA) / "minimalloc";
    for (const char* n : {"A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K"}) {
        const auto path = dir / (std::string(n) + ".1048576.csv");
        if (!std::filesystem::exists(path)) continue;
        auto csv = readMinimallocCsv(path.string());
        csv.problem.capacity.reset();  // measure the arena each method reaches
        instances.push_back({n, std::move(csv.problem), {}});
    }
    instances.push_back(transformerInstance("gpt2xl b1 s1024 x4", 1, 1024, 4));
    instances.push_back(transformerInstance("gpt2xl b2 s512 x6", 2, 512, 6));
    instances.push_back(transformerInstance("gpt2xl b1 s1024 x8", 1, 1024, 8));
    instances.push_back(transformerInstance("gpt2xl b4 s256 x12", 4, 256, 12));
    {
        const Profile profile = transformerTrainingGraph(TransformerConfig{});
        instances.push_back({"gpt2xl x4 random", allocationProblemFromProfile(profile, randomTopologicalOrder(profile, 7)),
                             {}});
    }

    fmt::print("{:<20} {:>7} {:>13}  {:<18} {:>13} {:>9} {:>9} {:>9} {:>9}\n", "instance", "buffers", "LOAD", "method",
               "arena", "arena/LOAD", "seconds", "arena/gbs", "time/gbs");
    for (const Instance& in : instances) {
        PlacementOptions o;
        o.timeLimitSeconds = bestLimit;
        o.threads = threads;
        o.segmentStarts = in.segmentStarts;
        const auto gbs = placeGreedyBySize(in.problem, o);
        std::vector<PlacementResult> results = {gbs, placeLongLivedFirstBestFit(in.problem, o),
                                                placeCachingAllocator(in.problem, o), placeRoam(in.problem, o),
                                                placeBest(in.problem, o)};
        for (const auto& r : results) {
            const bool ok = r.layout.offsets.empty() || verifyLayout(in.problem, r.layout, 1).empty();
            fmt::print("{:<20} {:>7} {:>13}  {:<18} {:>13} {:>9.4f} {:>9.3f} {:>9.4f} {:>9.2f}{}\n", in.name,
                       in.problem.buffers.size(), r.lowerBound, r.method, r.arena,
                       double(r.arena) / double(r.lowerBound), r.seconds, double(r.arena) / double(gbs.arena),
                       r.seconds / std::max(1e-9, gbs.seconds), ok ? "" : "  INVALID");
            if (r.method == "best" || r.method == "roam" || r.method == "caching-allocator")
                fmt::print("{:<20} {:>7} {:>13}  {:<18} {}\n", "", "", "", "", r.note);
        }
    }
    return 0;
}
