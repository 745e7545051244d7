#include "app/cli/sweep_bench.h"

#include "core/io/profile_loader.h"
#include "core/policy/planner.h"
#include "core/sweep/cell_simulation.h"
#include "core/sweep/design_sweep_run.h"
#include "core/sweep/sweep_merge.h"

#include <fmt/format.h>
#include <tbb/global_control.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <unistd.h>

namespace spillway::cli {

namespace {

using json = nlohmann::ordered_json;
namespace fs = std::filesystem;

template <typename F>
double seconds(F&& body) {
    const auto t0 = std::chrono::steady_clock::now();
    body();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// A spec over `profile` with one GPU-capacity axis: `count` capacities from a quarter to all of
// the base machine's memory (log-spaced), so cells range from oversubscribed to fitting.
json capacitySpec(const std::string& profile, const std::vector<std::string>& policies, const std::string& hardware,
                  int count) {
    return {{"format", "spillway.sweep/1"},
            {"profiles", {profile}},
            {"policies", policies},
            {"hardware", hardware},
            {"axes", {{{"key", "gpu_capacity"}, {"log_range", {{"from", "10GiB"}, {"to", "40GiB"}, {"count", count}}}}}}};
}

LoadedDesignSweep prepare(const json& spec, const std::shared_ptr<const Profile>& profile) {
    return prepareDesignSweep(parseDesignSweepSpec(spec.dump(), "bench", "/"), {profile});
}

fs::path scratch(const std::string& name) {
    return fs::temp_directory_path() / fmt::format("spillway-sweep-bench-{}-{}", ::getpid(), name);
}

json throughputRows(const SweepBenchOptions& o, unsigned threads) {
    json rows = json::array();
    for (const std::string& path : o.workloads) {
        const auto profile = std::make_shared<const Profile>(loadProfile(path));
        for (const std::string& policy : o.policies) {
            const LoadedDesignSweep sweep = prepare(capacitySpec(path, {policy}, o.hardware, o.cellsPerPolicy), profile);
            const fs::path out = scratch("throughput.jsonl");
            ShardRunOptions run;
            run.threads = threads;
            ShardRunSummary summary;
            const double s = seconds([&] { summary = runDesignSweepShard(sweep, out, run); });
            fs::remove(out);
            rows.push_back({{"workload", fs::path(path).filename().string()}, {"policy", policy},
                            {"cells", summary.ran}, {"failed", summary.failed}, {"seconds", s},
                            {"cells_per_s_per_core", double(summary.ran) / s / threads}});
        }
    }
    return rows;
}

// The 100k-cell sweep: its cells simulated bare (the baseline), then run as `shards` shard files
// and merged into CSV and SQLite; and a rerun of every finished shard (the resume check).
json overheadRow(const SweepBenchOptions& o, unsigned threads) {
    const auto profile = std::make_shared<const Profile>(loadProfile(o.tinyProfile));
    const std::int64_t perAxis = std::max<std::int64_t>(1, std::llround(std::sqrt(double(o.overheadCells) / 2)));
    json spec = capacitySpec(o.tinyProfile, {"uvm", "g10"}, o.hardware, 1);
    spec["axes"] = {{{"key", "gpu_capacity"}, {"log_range", {{"from", "512KiB"}, {"to", "4MiB"}, {"count", perAxis}}}},
                    {{"key", "pcie.bandwidth"}, {"log_range", {{"from", "1GB/s"}, {"to", "64GB/s"}, {"count", perAxis}}}}};
    const LoadedDesignSweep sweep = prepare(spec, profile);
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
    const double bare = seconds([&] {
        tbb::parallel_for(std::uint64_t(0), sweep.cells, [&](std::uint64_t i) {
            const DesignSweepCell cell = cellAt(sweep.spec, i);
            try {
                simulateSweepCell(*profile, sweep.spec.policies[cell.policy],
                                  withSettings(sweep.spec.hardware, cell.hardwareSettings));
            } catch (const std::invalid_argument&) {
                // a machine the settings cannot make: a failed cell in the sharded run too
            }
        });
    });
    std::vector<fs::path> files;
    for (std::uint64_t k = 0; k < o.shards; ++k) files.push_back(scratch(fmt::format("shard-{}.jsonl", k)));
    ShardRunOptions run;
    run.threads = threads;
    const double sharded = seconds([&] {
        for (std::uint64_t k = 0; k < o.shards; ++k) {
            run.shard = {k, o.shards};
            runDesignSweepShard(sweep, files[k], run);
        }
    });
    const double resume = seconds([&] {
        for (std::uint64_t k = 0; k < o.shards; ++k) {
            run.shard = {k, o.shards};
            runDesignSweepShard(sweep, files[k], run);
        }
    });
    const fs::path sqlite = scratch("merged.sqlite");
    std::uint64_t merged = 0;
    const double merge = seconds([&] {
        const MergedSweep m = mergeSweepShards(files);
        const std::string csv = mergedSweepCsv(m);
        writeMergedSweepSqlite(m, sqlite);
        merged = m.cells.size();
    });
    for (const auto& f : files) fs::remove(f);
    fs::remove(sqlite);
    const double overhead = sharded - bare + merge;
    return {{"profile", fs::path(o.tinyProfile).filename().string()}, {"cells", sweep.cells}, {"merged", merged},
            {"shards", o.shards}, {"threads", threads}, {"simulate_bare_s", bare}, {"run_as_shards_s", sharded},
            {"resume_check_s", resume}, {"merge_csv_sqlite_s", merge}, {"overhead_s", overhead},
            {"overhead_per_cell_us", overhead / double(sweep.cells) * 1e6},
            {"overhead_of_simulation", overhead / bare}};
}

}  // namespace

json runSweepBench(const SweepBenchOptions& options) {
    SweepBenchOptions o = options;
    if (o.policies.empty())
        for (const auto& p : planners()) o.policies.push_back(p.id);
    const unsigned threads = o.threads > 0 ? o.threads : unsigned(tbb::info::default_concurrency());
    json results{{"threads", threads}, {"hardware", o.hardware}, {"cells_per_policy", o.cellsPerPolicy}};
    results["throughput"] = throughputRows(o, threads);
    results["overhead"] = overheadRow(o, threads);
    // The overhead per cell against the real workloads' time per cell (one core); rows with failed
    // cells are left out (a planner that refuses a machine is fast for nothing).
    double slowest = 0, fastest = 1e300;
    for (const auto& r : results["throughput"])
        if (r["failed"].get<int>() == 0 && r["cells_per_s_per_core"].get<double>() > 0) {
            slowest = std::max(slowest, 1.0 / r["cells_per_s_per_core"].get<double>());
            fastest = std::min(fastest, 1.0 / r["cells_per_s_per_core"].get<double>());
        }
    const double perCell = results["overhead"]["overhead_per_cell_us"].get<double>() * 1e-6 * threads;
    if (slowest > 0)
        results["overhead"]["of_a_real_cell"] = {{"fastest_cell_s", fastest}, {"slowest_cell_s", slowest},
                                                 {"overhead_of_fastest", perCell / fastest}};
    return results;
}

void printSweepBench(const json& results) {
    fmt::print("design sweep throughput on {} ({} threads, {} GPU capacities per policy)\n",
               results["hardware"].get<std::string>(), results["threads"].get<unsigned>(),
               results["cells_per_policy"].get<int>());
    for (const auto& r : results["throughput"])
        fmt::print("  {:<16} {:<20} {:>3} cells ({} failed) {:8.2f} s  {:8.3f} cells/s/core\n",
                   r["workload"].get<std::string>(), r["policy"].get<std::string>(), r["cells"].get<int>(),
                   r["failed"].get<int>(), r["seconds"].get<double>(), r["cells_per_s_per_core"].get<double>());
    const auto& o = results["overhead"];
    fmt::print("\n{} cells of {} in {} shards: simulated bare {:.2f} s; as shards {:.2f} s; resume check {:.2f} s; "
               "merge (CSV + SQLite) {:.2f} s\n",
               o["cells"].get<std::uint64_t>(), o["profile"].get<std::string>(), o["shards"].get<std::uint64_t>(),
               o["simulate_bare_s"].get<double>(), o["run_as_shards_s"].get<double>(),
               o["resume_check_s"].get<double>(), o["merge_csv_sqlite_s"].get<double>());
    fmt::print("  overhead {:.2f} s = {:.1f} us per cell = {:.1f}% of simulating this tiny profile\n",
               o["overhead_s"].get<double>(), o["overhead_per_cell_us"].get<double>(),
               100 * o["overhead_of_simulation"].get<double>());
    if (o.contains("of_a_real_cell"))
        fmt::print("  = {:.3f}% of the fastest real cell above that ran ({:.3f} s per core)\n",
                   100 * o["of_a_real_cell"]["overhead_of_fastest"].get<double>(),
                   o["of_a_real_cell"]["fastest_cell_s"].get<double>());
}

}  // namespace spillway::cli
