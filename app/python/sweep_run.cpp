#include "app/python/sweep_run.h"

#include "core/sweep/design_sweep_cells.h"
#include "core/sweep/design_sweep_run.h"
#include "core/sweep/design_sweep_spec.h"
#include "core/sweep/sweep_merge.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace spillway::python {

std::string sweepSpecJson(const std::filesystem::path& path, std::uint64_t cellLimit) {
    const DesignSweepSpec spec = readDesignSweepSpec(path);
    nlohmann::ordered_json j;
    j["label"] = spec.label;
    j["profiles"] = nlohmann::ordered_json::array();
    for (const auto& p : spec.profiles) j["profiles"].push_back(p.path.string());
    j["policies"] = spec.policies;
    j["hardware"] = spec.hardware.id;
    j["axes"] = nlohmann::ordered_json::array();
    for (const auto& a : spec.axes) j["axes"].push_back({{"key", a.key.name}, {"values", a.values}});
    j["samples"] = nullptr;
    if (spec.samples) {
        std::vector<std::string> keys;
        for (const auto& k : spec.samples->keys) keys.push_back(k.name);
        j["samples"] = {{"method", spec.samples->method}, {"keys", keys}, {"points", spec.samples->points}};
    }
    const std::uint64_t cells = cellCount(spec);
    j["cell_count"] = cells;
    j["cells"] = nlohmann::ordered_json::array();
    for (std::uint64_t i = 0; i < std::min(cells, cellLimit); ++i) {
        const DesignSweepCell cell = cellAt(spec, i);
        nlohmann::ordered_json row{{"cell", cell.id}};
        row.update(cell.settings);
        j["cells"].push_back(std::move(row));
    }
    return j.dump();
}

SweepShardCounts runSweepShard(const std::filesystem::path& spec, const std::filesystem::path& results,
                               const std::string& shard, unsigned threads) {
    const LoadedDesignSweep sweep = loadDesignSweep(spec);
    ShardRunOptions options;
    if (!shard.empty()) options.shard = parseShard(shard);
    options.threads = threads;
    const ShardRunSummary s = runDesignSweepShard(sweep, results, options);
    return {s.cells, s.alreadyDone, s.ran, s.failed};
}

std::string mergedSweepTable(const std::vector<std::filesystem::path>& results) {
    return mergedSweepCsv(mergeSweepShards(results));
}

}  // namespace spillway::python
