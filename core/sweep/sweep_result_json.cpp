#include "core/sweep/sweep_result_json.h"

#include "core/hardware/hardware_presets.h"
#include "core/io/base/file_text.h"
#include "core/io/base/import_error.h"
#include "core/io/base/json_dump.h"
#include "core/io/base/json_file.h"
#include "core/io/base/json_object_reader.h"

#include <new>

namespace spillway {

namespace {

using ordered_json = nlohmann::ordered_json;

ordered_json stringArray(const std::vector<std::string>& items) {
    auto list = ordered_json::array();
    for (const auto& s : items) list.push_back(s);
    return list;
}

ordered_json cellJson(const SweepCell& c) {
    ordered_json o;
    o["value"] = c.value;
    o["policy"] = c.policy;
    o["ok"] = c.ok;
    o["error"] = c.error;
    o["iteration_ns"] = c.iterationTime;
    o["totals"] = {{"compute_ns", c.totals.compute},
                   {"fault_stall_ns", c.totals.faultStall},
                   {"oversub_stall_ns", c.totals.oversubStall},
                   {"late_prefetch_stall_ns", c.totals.latePrefetchStall},
                   {"nvlink_stall_ns", c.totals.nvlinkStall},
                   {"overlap_ns", c.totals.overlap}};
    o["traffic_bytes"] = c.trafficBytes;
    o["peak_gpu_bytes"] = c.peakGpuBytes;
    return o;
}

std::vector<std::string> readStrings(const OrderedJsonObjectReader& r, const std::string& key) {
    std::vector<std::string> out;
    const auto& list = r.array(key, "an array of strings");
    for (size_t i = 0; i < list.size(); ++i) out.push_back(r.stringAt(list[i], r.at(key) + "/" + std::to_string(i)));
    return out;
}

// The machine is a spillway.hardware/1 object inside this file, read by the hardware reader; its
// errors are moved under /hardware so they name the place in this file.
HardwareConfig readHardware(const OrderedJsonObjectReader& top) {
    const auto hardware = top.object("hardware", "a spillway.hardware/1 object");
    try {
        return parseHardwareJson(dumpJson(hardware.json()), top.source().label);
    } catch (const ImportError& e) {
        SourceLocation where{top.source().label, 0, 0, -1, top.at("hardware") + e.location().jsonPointer};
        throw ImportError(where, e.message());
    }
}

SweepCell readCell(const OrderedJsonObjectReader& r) {
    SweepCell c;
    c.value = r.string("value");
    c.policy = r.string("policy");
    c.ok = r.boolean("ok");
    c.error = r.string("error");
    c.iterationTime = r.nonNegative("iteration_ns");
    {
        const auto t = r.object("totals");
        c.totals.compute = t.nonNegative("compute_ns");
        c.totals.faultStall = t.nonNegative("fault_stall_ns");
        c.totals.oversubStall = t.nonNegative("oversub_stall_ns");
        c.totals.latePrefetchStall = t.nonNegative("late_prefetch_stall_ns");
        c.totals.nvlinkStall = t.nonNegative("nvlink_stall_ns");
        c.totals.overlap = t.nonNegative("overlap_ns");
        t.finish();
    }
    c.trafficBytes = r.nonNegative("traffic_bytes");
    c.peakGpuBytes = r.nonNegative("peak_gpu_bytes");
    r.finish();
    // The views draw a cell that ran as a share of its iteration: one without time did not run.
    if (c.ok && c.iterationTime == 0) r.fail(r.at("iteration_ns"), "a cell that ran (\"ok\": true) needs a time above 0");
    if (!c.ok && c.error.empty()) r.fail(r.at("error"), "a cell that did not run (\"ok\": false) needs its reason");
    return c;
}

// A batch sweep's values are its batch sizes (the CLI and app read them as integers).
void checkBatchValues(const OrderedJsonObjectReader& top, const std::vector<std::string>& values) {
    for (size_t v = 0; v < values.size(); ++v) {
        const std::string& s = values[v];
        const bool digits = !s.empty() && s.size() <= 12 && s.find_first_not_of("0123456789") == std::string::npos;
        if (!digits || std::stoll(s) <= 0)
            top.fail(top.at("values") + "/" + std::to_string(v),
                     "expected a batch size (a positive integer) in a sweep of \"batch\", got \"" + s + "\"");
    }
}

SweepSpec readSpec(const OrderedJsonObjectReader& top) {
    SweepSpec spec;
    spec.parameter = top.nonEmptyString("parameter");
    spec.baseHardware = readHardware(top);
    spec.values = readStrings(top, "values");
    spec.policies = readStrings(top, "policies");
    spec.profileSources = readStrings(top, "profile_sources");
    if (spec.values.empty()) top.fail(top.at("values"), "expected at least one value");
    if (spec.policies.empty()) top.fail(top.at("policies"), "expected at least one policy (speedups are over the first)");
    if (spec.sweepsBatch()) checkBatchValues(top, spec.values);
    if (spec.sweepsBatch() ? spec.profileSources.size() != spec.values.size()
                           : !spec.profileSources.empty() && spec.profileSources.size() != spec.values.size())
        top.fail(top.at("profile_sources"), "has " + std::to_string(spec.profileSources.size()) +
                                                " entries for " + std::to_string(spec.values.size()) +
                                                " values (one profile per batch size)");
    return spec;
}

}  // namespace

std::string sweepResultToJson(const SweepResult& result) {
    const SweepSpec& spec = result.spec;
    ordered_json j;
    j["format"] = kSweepFormatId;
    j["parameter"] = spec.parameter;
    j["values"] = stringArray(spec.values);
    j["policies"] = stringArray(spec.policies);
    j["profile_sources"] = stringArray(spec.profileSources);
    j["hardware"] = ordered_json::parse(writeHardwareJson(spec.baseHardware));
    auto cells = ordered_json::array();
    for (const SweepCell& c : result.cells) cells.push_back(cellJson(c));
    j["cells"] = std::move(cells);
    return dumpJson(j, 1) + "\n";
}

SweepResult sweepResultFromJson(std::string_view text, const std::string& label) {
    const ordered_json doc = parseJsonText<ordered_json>(text, label);
    const OrderedJsonObjectReader top(doc, label, "",
                                      "a JSON object with \"format\": \"" + std::string(kSweepFormatId) + "\"");
    if (top.string("format") != kSweepFormatId)
        top.fail("/format", "expected \"" + std::string(kSweepFormatId) + "\" (a sweep's results)");
    SweepResult result;
    result.spec = readSpec(top);
    const auto& cells = top.array("cells", "an array of cells, values x policies");
    const size_t policies = result.spec.policies.size();
    const size_t expected = result.spec.values.size() * policies;
    if (cells.size() != expected)
        top.fail(top.at("cells"), "has " + std::to_string(cells.size()) + " cells; " +
                                      std::to_string(result.spec.values.size()) + " values x " +
                                      std::to_string(policies) + " policies need " + std::to_string(expected));
    for (size_t i = 0; i < cells.size(); ++i) {
        const std::string at = top.at("cells") + "/" + std::to_string(i);
        SweepCell cell = readCell(top.child(cells[i], at));
        // Value-major: the grid place decides which line and tick a cell is drawn at.
        const std::string& value = result.spec.values[i / policies];
        const std::string& policy = result.spec.policies[i % policies];
        if (cell.value != value) top.fail(at + "/value", "expected \"" + value + "\" (cells are value-major)");
        if (cell.policy != policy) top.fail(at + "/policy", "expected \"" + policy + "\" (cells are value-major)");
        result.cells.push_back(std::move(cell));
    }
    top.finish();
    return result;
}

SweepResult readSweepResult(const std::filesystem::path& path) {
    const std::string label = path.string();
    try {
        return sweepResultFromJson(readFileText(path), label);
    } catch (const std::bad_alloc&) {
        throw outOfMemoryError(label);
    }
}

void writeSweepResult(const SweepResult& result, const std::filesystem::path& path) {
    writeFileAtomically(path, sweepResultToJson(result));
}

}  // namespace spillway
