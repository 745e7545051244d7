#include "app/cli/layout_bench.h"

#include "core/io/profile_loader.h"
#include "core/layout/minimalloc_csv.h"
#include "core/layout/operator_order.h"
#include "core/layout/placement.h"
#include "core/layout/profile_allocation.h"
#include "core/layout/roam_subgraph_tree.h"
#include "core/trace/format_units.h"
#include "core/trace/transformer_training_graph.h"

#include <fmt/format.h>

#include <filesystem>

namespace spillway::cli {

namespace {

double ratio(double a, double b) { return b > 0 ? a / b : 0.0; }

// "A.1048576.csv" -> 1048576; none when the name carries no capacity.
std::optional<Bytes> capacityFromName(const std::string& path) {
    const std::string stem = std::filesystem::path(path).stem().string();
    const auto dot = stem.rfind('.');
    if (dot == std::string::npos) return std::nullopt;
    try {
        return std::stoll(stem.substr(dot + 1));
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

nlohmann::ordered_json placementRow(const std::string& method, const AllocationProblem& problem,
                                    const PlacementOptions& options) {
    nlohmann::ordered_json row{{"placement", method}};
    try {
        const PlacementResult r = place(method, problem, options);
        row["arena_bytes"] = r.arena;
        row["lower_bound_bytes"] = r.lowerBound;
        row["fits"] = r.fits;
        row["proven_optimal"] = r.provenOptimal;
        row["seconds"] = r.seconds;
    } catch (const std::exception& e) {
        row["error"] = e.what();
    }
    return row;
}

}  // namespace

nlohmann::ordered_json runLayoutBench(const LayoutBenchOptions& options) {
    nlohmann::ordered_json out;
    out["time_limit_s"] = options.timeLimit;
    auto profiles = nlohmann::ordered_json::array();
    std::vector<std::string> names = options.profiles;
    if (options.gpt2xl) names.push_back("gpt2-xl");  // generated in process, not read
    for (const std::string& path : names) {
        nlohmann::ordered_json p{{"profile", path}};
        try {
            const Profile profile = path == "gpt2-xl" && options.gpt2xl ? transformerTrainingGraph(TransformerConfig{})
                                                                         : loadProfile(path);
            p["kernels"] = profile.kernels.size();
            p["tensors"] = profile.tensors.size();
            OrderOptions orderOptions;
            orderOptions.timeLimitSecondsPerSegment = options.timeLimit;
            auto orders = nlohmann::ordered_json::array();
            for (const std::string& method : orderMethodNames()) {
                const OrderResult order = orderOperators(method, profile, orderOptions);
                nlohmann::ordered_json o{{"order", method},
                                         {"theoretical_peak_bytes", order.theoreticalPeak},
                                         {"seconds", order.seconds},
                                         {"segments", order.segmentStarts.size()}};
                const AllocationProblem problem = allocationProblemFromProfile(profile, order.order);
                PlacementOptions placementOptions;
                placementOptions.timeLimitSeconds = options.timeLimit;
                // ROAM's subgraph tree of this order (any method's): what the roam placement lays out.
                const RoamSubgraphTree tree = roamSubgraphTree(profile, order.order, problem);
                for (const RoamSpan& s : tree.spans) placementOptions.roamSpans.emplace_back(s.begin, s.end);
                o["roam_spans"] = tree.spans.size();
                auto placements = nlohmann::ordered_json::array();
                for (const std::string& m : placementMethodNames()) placements.push_back(placementRow(m, problem, placementOptions));
                o["placements"] = placements;
                orders.push_back(std::move(o));
            }
            p["orders"] = orders;
        } catch (const std::exception& e) {
            p["error"] = e.what();
        }
        profiles.push_back(std::move(p));
    }
    out["profiles"] = profiles;
    auto csvs = nlohmann::ordered_json::array();
    for (const std::string& path : options.csvs) {
        nlohmann::ordered_json c{{"csv", std::filesystem::path(path).filename().string()}};
        try {
            MinimallocCsv input = readMinimallocCsv(path);
            input.problem.capacity = capacityFromName(path);
            c["buffers"] = input.problem.buffers.size();
            c["load_bytes"] = loadLowerBound(input.problem);
            if (input.problem.capacity) c["capacity_bytes"] = *input.problem.capacity;
            PlacementOptions placementOptions;
            placementOptions.timeLimitSeconds = options.timeLimit;
            auto rows = nlohmann::ordered_json::array();
            for (const std::string& m : {"greedy-by-size", "llfb", "best", "exact"})
                rows.push_back(placementRow(m, input.problem, placementOptions));
            c["placements"] = rows;
        } catch (const std::exception& e) {
            c["error"] = e.what();
        }
        csvs.push_back(std::move(c));
    }
    out["minimalloc"] = csvs;
    return out;
}

void printLayoutBench(const nlohmann::ordered_json& results) {
    fmt::print("\nlayout planning (time limit {} s per search); ratios against program order and greedy-by-size\n",
               results["time_limit_s"].get<double>());
    for (const auto& p : results["profiles"]) {
        if (p.contains("error")) {
            fmt::print("  {}: error: {}\n", p["profile"].get<std::string>(), p["error"].get<std::string>());
            continue;
        }
        fmt::print("  {} ({} kernels, {} tensors)\n", p["profile"].get<std::string>(), p["kernels"].get<int64_t>(),
                   p["tensors"].get<int64_t>());
        const double programPeak = double(p["orders"][0]["theoretical_peak_bytes"].get<Bytes>());
        for (const auto& o : p["orders"]) {
            const Bytes peak = o["theoretical_peak_bytes"].get<Bytes>();
            fmt::print("    order {:<8} theoretical {:>12} (x{:.4f} program) in {:.3f} s; {} segments, {} roam spans\n",
                       o["order"].get<std::string>(), readableBytes(peak), ratio(double(peak), programPeak),
                       o["seconds"].get<double>(), o["segments"].get<std::int64_t>(),
                       o.value("roam_spans", std::int64_t(0)));
            double greedy = 0;
            for (const auto& r : o["placements"])
                if (r["placement"] == "greedy-by-size" && r.contains("arena_bytes")) greedy = double(r["arena_bytes"].get<Bytes>());
            for (const auto& r : o["placements"]) {
                if (r.contains("error")) {
                    fmt::print("      {:<18} error: {}\n", r["placement"].get<std::string>(), r["error"].get<std::string>());
                    continue;
                }
                const Bytes arena = r["arena_bytes"].get<Bytes>();
                fmt::print("      {:<18} arena {:>12}  frag {:>6.2f}%  x{:.4f} greedy  {:>8.3f} s\n",
                           r["placement"].get<std::string>(), readableBytes(arena),
                           100.0 * ratio(double(arena - peak), double(arena)), ratio(double(arena), greedy),
                           r["seconds"].get<double>());
            }
        }
    }
    if (!results["minimalloc"].empty()) {
        fmt::print("\n  minimalloc benchmarks: arena / LOAD (time s), fits = within the capacity in the file name\n");
        fmt::print("  {:<16} {:>7} {:>9}", "instance", "buffers", "LOAD");
        for (const char* m : {"greedy-by-size", "llfb", "best", "exact"}) fmt::print(" {:>24}", m);
        fmt::print("\n");
        for (const auto& c : results["minimalloc"]) {
            if (c.contains("error")) {
                fmt::print("  {}: error: {}\n", c["csv"].get<std::string>(), c["error"].get<std::string>());
                continue;
            }
            const double load = double(c["load_bytes"].get<Bytes>());
            fmt::print("  {:<16} {:>7} {:>9}", c["csv"].get<std::string>(), c["buffers"].get<int64_t>(),
                       c["load_bytes"].get<Bytes>());
            for (const auto& r : c["placements"]) {
                if (r.contains("error") || !r.contains("arena_bytes") || r["arena_bytes"].get<Bytes>() == 0) {
                    fmt::print(" {:>24}", "none found");
                    continue;
                }
                fmt::print(" {:>24}", fmt::format("{:.4f}{} ({:.2f})", ratio(double(r["arena_bytes"].get<Bytes>()), load),
                                                  r["fits"].get<bool>() ? "" : "!", r["seconds"].get<double>()));
            }
            fmt::print("\n");
        }
    }
}

}  // namespace spillway::cli
