#include "app/cli/sweep_report.h"

#include "app/cli/sim_report.h"
#include "core/io/base/json_dump.h"
#include "core/sweep/sweep_keys.h"
#include "core/trace/format_units.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <iostream>

namespace spillway::cli {

namespace {

std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

// A value as the CSV's header promises: the number in the key's base unit ("3.2GB/s" ->
// 3200000000), an enumeration's name as given, a batch size as it is.
std::string csvValue(const SweepSpec& spec, const std::string& value) {
    if (spec.sweepsBatch()) return value;
    const SweepKey key = sweepKey(spec.parameter);
    if (!key.numeric()) return value;
    return std::to_string(sweepNumber(key, value));
}

}  // namespace

std::string sweepCsvValueHeader(const SweepSpec& spec) {
    return spec.sweepsBatch() ? std::string(kBatchSweepParameter) : sweepKey(spec.parameter).name;
}

void printSweepTable(const SweepResult& result, const std::string& title) {
    const SweepSpec& spec = result.spec;
    if (spec.sweepsBatch())
        fmt::print("{} on {}, {} batch sizes (one profile each); speedup over {} at the same batch\n\n", title,
                   spec.baseHardware.id, spec.values.size(), spec.policies.front());
    else
        fmt::print("{} on {}, {} swept; speedup over {}\n\n", title, spec.baseHardware.id, spec.parameter,
                   spec.policies.front());
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
    if (spec.sweepsBatch()) {
        fmt::print("\n");
        for (size_t v = 0; v < spec.values.size(); ++v)
            fmt::print("batch {}: {}\n", spec.values[v], spec.profileSources[v]);
    }
}

nlohmann::ordered_json sweepReportJson(const SweepResult& result, const std::string& profile) {
    const SweepSpec& spec = result.spec;
    nlohmann::ordered_json j;
    if (spec.sweepsBatch()) {
        auto profiles = nlohmann::ordered_json::array();
        for (size_t v = 0; v < spec.values.size(); ++v)
            profiles.push_back({{"batch", std::stoll(spec.values[v])}, {"source", spec.profileSources[v]}});
        j["profiles"] = profiles;
    } else {
        j["profile"] = profile;
    }
    j["hardware"] = hardwareSummaryJson(spec.baseHardware);
    j["parameter"] = spec.parameter;
    j["baseline"] = spec.policies.front();
    auto cells = nlohmann::ordered_json::array();
    for (size_t v = 0; v < spec.values.size(); ++v)
        for (size_t p = 0; p < spec.policies.size(); ++p) {
            const SweepCell& c = result.at(v, p);
            nlohmann::ordered_json cell{{"value", c.value}, {"policy", c.policy}};
            if (spec.sweepsBatch()) cell["batch"] = std::stoll(c.value);
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
    return j;
}

void printSweepCsv(const SweepResult& result) {
    const SweepSpec& spec = result.spec;
    fmt::print("{},policy,iteration_time_ns,speedup,compute_ns,fault_stall_ns,oversub_stall_ns,"
               "late_prefetch_stall_ns,traffic_bytes,peak_gpu_bytes,error{}\n",
               csvField(sweepCsvValueHeader(spec)), spec.sweepsBatch() ? ",profile" : "");
    for (size_t v = 0; v < spec.values.size(); ++v)
        for (size_t p = 0; p < spec.policies.size(); ++p) {
            const SweepCell& c = result.at(v, p);
            fmt::print("{},{},", csvField(csvValue(spec, c.value)), csvField(c.policy));
            if (c.ok)
                fmt::print("{},{:.6f},{},{},{},{},{},{},", c.iterationTime, result.speedup(v, p), c.totals.compute,
                           c.totals.faultStall, c.totals.oversubStall, c.totals.latePrefetchStall, c.trafficBytes,
                           c.peakGpuBytes);
            else
                fmt::print(",,,,,,,,");
            fmt::print("{}", csvField(c.error));
            if (spec.sweepsBatch()) fmt::print(",{}", csvField(spec.profileSources[v]));
            fmt::print("\n");
        }
}

}  // namespace spillway::cli
