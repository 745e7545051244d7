#pragma once
// Joining the results files of a design sweep's shards into one table (docs/scale.md): every
// line must carry the same spec hash and no cell may appear twice; the cells are sorted by id
// (the spec's enumeration order), so the table does not depend on how the cells were sharded,
// threaded or resumed. The files need no spec: each line carries its hash and the sweep's size.
#include "core/sweep/sweep_cell_lines.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace spillway {

struct MergedSweep {
    std::string specHash;
    std::uint64_t cellCount = 0;       // in the whole sweep
    std::vector<SweepCellLine> cells;  // sorted by id
    std::uint64_t missing() const { return cellCount - cells.size(); }
    // "cell", the settings (profile, policy, axis keys), "ok", sweepResultNumbers(), "error".
    std::vector<std::string> columns() const;
};

// Throws ImportError naming the file and line of: a line of another spec hash than the first
// line's (both named), a cell already read (both places named), a half-written last line (a
// shard that did not finish), a line that is not a cell line. Files with no lines are fine.
MergedSweep mergeSweepShards(const std::vector<std::filesystem::path>& files);

// One header row and a row per cell; numbers as JSON writes them, an empty field where a failed
// cell has none, text quoted as RFC 4180 asks where needed.
std::string mergedSweepCsv(const MergedSweep& merged);
// A new SQLite file (any file there is replaced): table "cells" with the CSV's columns (INTEGER,
// REAL or TEXT per value, NULL where none) and table "sweep" (spec_hash, cell_count, cells).
// Throws sqlite::DatabaseError or std::runtime_error naming the file.
void writeMergedSweepSqlite(const MergedSweep& merged, const std::filesystem::path& path);

}  // namespace spillway
