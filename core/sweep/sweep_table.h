#pragma once
// A merged design-sweep table (docs/scale.md: `sweep merge --csv/--sqlite`) read into memory for
// exploring: one vector per column, so a million rows cost a few dozen bytes each and a grid is
// one pass over plain arrays. Read-only once loaded; the app shares it between threads.
#include "core/io/base/load_progress.h"

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace spillway {

// A setting column holds numbers unless one of its values is not a number: then all are text
// (a profile's file name, a policy). Result columns are numbers only; NaN where a cell has none.
struct SweepTableColumn {
    std::string name;  // as in the file: the unit is in the name (gpu_capacity_bytes)
    bool text = false;
    std::vector<double> numbers;     // one per row when !text
    std::vector<std::string> texts;  // one per row when text
};

struct SweepTable {
    std::string file;
    std::vector<std::string> cellIds;          // the "cell" column, one per row
    std::vector<SweepTableColumn> settings;    // the columns between "cell" and "ok"
    std::vector<SweepTableColumn> results;     // "ok" and the result numbers after it (ok: 1 or 0)
    std::vector<std::string> errors;           // the "error" column ("" where none)
    std::size_t rows() const { return cellIds.size(); }
    // Index into `results`, or -1.
    int resultIndex(const std::string& name) const;
};

// Reads a merged table: SQLite when the file starts with SQLite's header, else the merged CSV.
// Throws ImportError naming the file (and row and column where one is at fault) for a file that
// is not such a table, and LoadCancelled when `progress.cancel` is set while reading.
SweepTable loadSweepTable(const std::filesystem::path& path, const LoadProgress& progress = {});
SweepTable loadSweepTableCsv(const std::filesystem::path& path, const LoadProgress& progress = {});
SweepTable loadSweepTableSqlite(const std::filesystem::path& path, const LoadProgress& progress = {});

}  // namespace spillway
