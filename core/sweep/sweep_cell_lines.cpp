#include "core/sweep/sweep_cell_lines.h"

#include "core/io/base/file_text.h"
#include "core/io/base/import_error.h"
#include "core/io/base/json_dump.h"
#include "core/io/base/json_object_reader.h"

#include <fmt/format.h>

namespace spillway {

namespace {

double seconds(Nanoseconds ns) { return double(ns) / 1e9; }

SweepCellLine readLine(std::string_view text, const std::string& file, std::int64_t lineNumber) {
    const std::string label = fmt::format("{}:{}", file, lineNumber);
    const auto doc = nlohmann::ordered_json::parse(text, nullptr, false);
    if (doc.is_discarded())
        throw ImportError(SourceLocation{file, lineNumber, 0, -1, {}},
                          "not a JSON line; expected one {\"format\": \"spillway.sweep-cell/1\", ...} per line");
    const OrderedJsonObjectReader r(doc, {label}, "", "a JSON object with \"format\": \"spillway.sweep-cell/1\"");
    if (!r.has("format") || r.get("format") != kSweepCellFormatId)
        r.fail("/format", "expected \"format\": \"spillway.sweep-cell/1\"");
    r.allowOnly({"format", "spec_hash", "cell_count", "cell", "settings", "result"});
    SweepCellLine line;
    line.lineNumber = lineNumber;
    line.specHash = r.nonEmptyString("spec_hash");
    line.cellCount = r.unsignedInteger("cell_count", "the number of cells in the sweep");
    line.cell = r.nonEmptyString("cell");
    line.settings = r.object("settings").json();
    const OrderedJsonObjectReader result = r.object("result");
    if (!result.boolean("ok") && !result.has("error")) result.fail(result.at("error"), "missing; a failed cell says why");
    line.result = result.json();
    return line;
}

}  // namespace

const std::vector<std::string>& sweepResultNumbers() {
    static const std::vector<std::string> names{
        "iteration_time_s", "stall_s",         "compute_s",      "fault_stall_s", "oversub_stall_s",
        "late_prefetch_stall_s", "nvlink_stall_s", "traffic_bytes", "peak_gpu_bytes"};
    return names;
}

nlohmann::ordered_json sweepCellResult(const SweepCell& cell) {
    if (!cell.ok) return {{"ok", false}, {"error", cell.error}};
    const StallTotals& t = cell.totals;
    return {{"ok", true},
            {"iteration_time_s", seconds(cell.iterationTime)},
            {"stall_s", seconds(t.faultStall + t.oversubStall + t.latePrefetchStall + t.nvlinkStall)},
            {"compute_s", seconds(t.compute)},
            {"fault_stall_s", seconds(t.faultStall)},
            {"oversub_stall_s", seconds(t.oversubStall)},
            {"late_prefetch_stall_s", seconds(t.latePrefetchStall)},
            {"nvlink_stall_s", seconds(t.nvlinkStall)},
            {"traffic_bytes", cell.trafficBytes},
            {"peak_gpu_bytes", cell.peakGpuBytes}};
}

std::string sweepCellLineText(const SweepCellLine& line) {
    const nlohmann::ordered_json j{{"format", kSweepCellFormatId}, {"spec_hash", line.specHash},
                                   {"cell_count", line.cellCount}, {"cell", line.cell},
                                   {"settings", line.settings},    {"result", line.result}};
    return dumpJson(j);
}

SweepCellFile readSweepCellFile(const std::filesystem::path& path, bool missingIsEmpty) {
    SweepCellFile file;
    std::error_code ec;
    if (missingIsEmpty && !std::filesystem::exists(path, ec)) return file;
    requireRegularFile(path);
    const std::string text = readFileText(path);
    std::size_t begin = 0;
    for (std::int64_t lineNumber = 1; begin < text.size(); ++lineNumber) {
        const std::size_t end = text.find('\n', begin);
        if (end == std::string::npos) {
            file.partialLastLine = true;
            break;
        }
        file.lines.push_back(readLine(std::string_view(text).substr(begin, end - begin), path.string(), lineNumber));
        begin = end + 1;
        file.completeBytes = begin;
    }
    return file;
}

}  // namespace spillway
