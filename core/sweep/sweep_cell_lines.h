#pragma once
// A design sweep's results file: one JSON line per cell (`spillway.sweep-cell/1`, schema in
// resources/schemas/spillway.sweep-cell-1.schema.json), written as cells finish, in any order.
// Each line carries the spec hash and the number of cells of the whole sweep, so that a merge
// needs no spec to refuse shards of another sweep or to count the missing cells.
#include "core/sweep/cell_simulation.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace spillway {

inline constexpr const char* kSweepCellFormatId = "spillway.sweep-cell/1";

struct SweepCellLine {
    std::string specHash;
    std::uint64_t cellCount = 0;  // cells in the whole sweep
    std::string cell;             // the cell's id (design_sweep_cells.h)
    nlohmann::ordered_json settings;
    nlohmann::ordered_json result;
    std::int64_t lineNumber = 0;  // where it was read (1-based), 0 when not read from a file
};

// The result numbers in their order, as columns (the units are in the names); "ok" and "error"
// are not among them.
const std::vector<std::string>& sweepResultNumbers();
// {"ok": true, "iteration_time_s": ..., ...} or {"ok": false, "error": "..."}.
nlohmann::ordered_json sweepCellResult(const SweepCell& cell);

// One line, without its newline.
std::string sweepCellLineText(const SweepCellLine& line);

struct SweepCellFile {
    std::vector<SweepCellLine> lines;
    std::uint64_t completeBytes = 0;  // the bytes up to the end of the last complete line
    bool partialLastLine = false;     // text after the last newline (a job killed mid-write)
};

// Reads every complete line strictly: a line that is not a cell line is an ImportError naming the
// file and the line (and the JSON pointer). Text after the last newline is not read (it is what a
// killed job left half-written) but reported, for the caller to drop and redo. A missing file
// reads as empty when `missingIsEmpty`.
SweepCellFile readSweepCellFile(const std::filesystem::path& path, bool missingIsEmpty = false);

}  // namespace spillway
