#include "core/sweep/sweep_merge.h"

#include "core/io/base/import_error.h"
#include "core/sqlite/sqlite_connection.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace spillway {

namespace {

struct Place {
    std::string file;
    std::int64_t line = 0;
};

[[noreturn]] void failAt(const Place& at, const std::string& message) {
    throw ImportError(SourceLocation{at.file, at.line, 0, -1, {}}, message);
}

std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

// The value of `column` in a cell: a setting, a result member, or the id; null when absent.
nlohmann::ordered_json valueOf(const SweepCellLine& cell, const std::string& column) {
    if (column == "cell") return cell.cell;
    if (cell.settings.contains(column)) return cell.settings.at(column);
    if (cell.result.contains(column)) return cell.result.at(column);
    return nullptr;
}

}  // namespace

std::vector<std::string> MergedSweep::columns() const {
    std::vector<std::string> names{"cell"};
    if (!cells.empty())
        for (const auto& [key, value] : cells.front().settings.items()) names.push_back(key);
    names.push_back("ok");
    for (const std::string& n : sweepResultNumbers()) names.push_back(n);
    names.push_back("error");
    return names;
}

MergedSweep mergeSweepShards(const std::vector<std::filesystem::path>& files) {
    MergedSweep merged;
    Place first;
    std::map<std::string, Place> seen;
    for (const auto& path : files) {
        SweepCellFile file = readSweepCellFile(path);
        if (file.partialLastLine)
            failAt({path.string(), std::int64_t(file.lines.size()) + 1},
                   "the file ends in a half-written line: its shard did not finish; run it again (it resumes) "
                   "before merging");
        for (SweepCellLine& line : file.lines) {
            const Place here{path.string(), line.lineNumber};
            if (merged.specHash.empty()) {
                merged.specHash = line.specHash;
                merged.cellCount = line.cellCount;
                first = here;
            } else if (line.specHash != merged.specHash || line.cellCount != merged.cellCount) {
                failAt(here, fmt::format("spec hash {} is not the {} of {}:{}: shards of different sweeps (or of an "
                                         "edited spec) cannot be merged",
                                         line.specHash, merged.specHash, first.file, first.line));
            }
            const auto [at, inserted] = seen.emplace(line.cell, here);
            if (!inserted)
                failAt(here, fmt::format("cell \"{}\" is also at {}:{}: a cell must be in one shard only",
                                         line.cell, at->second.file, at->second.line));
            merged.cells.push_back(std::move(line));
        }
    }
    std::sort(merged.cells.begin(), merged.cells.end(),
              [](const SweepCellLine& a, const SweepCellLine& b) { return a.cell < b.cell; });
    return merged;
}

std::string mergedSweepCsv(const MergedSweep& merged) {
    const std::vector<std::string> columns = merged.columns();
    std::string csv;
    for (std::size_t c = 0; c < columns.size(); ++c) {
        if (c) csv += ',';
        csv += csvField(columns[c]);
    }
    csv += "\n";
    for (const SweepCellLine& cell : merged.cells) {
        for (std::size_t c = 0; c < columns.size(); ++c) {
            const auto v = valueOf(cell, columns[c]);
            csv += c ? "," : "";
            csv += v.is_null() ? std::string() : v.is_string() ? csvField(v.get<std::string>()) : v.dump();
        }
        csv += "\n";
    }
    return csv;
}

void writeMergedSweepSqlite(const MergedSweep& merged, const std::filesystem::path& path) {
    std::error_code ec;
    std::filesystem::remove(path, ec);
    sqlite::SqliteConnection db(path.string(), sqlite::SqliteConnection::Mode::Create);
    const std::vector<std::string> columns = merged.columns();
    std::string names, params;
    for (std::size_t c = 0; c < columns.size(); ++c) {
        names += fmt::format("{}\"{}\"", c ? ", " : "", columns[c]);  // keys hold '.', never '"'
        params += c ? ", ?" : "?";
    }
    sqlite::SqliteTransaction transaction(db, "writing the merged sweep");
    db.exec("CREATE TABLE sweep (spec_hash TEXT NOT NULL, cell_count INTEGER NOT NULL, cells INTEGER NOT NULL)",
            "creating the sweep table");
    db.exec(fmt::format("CREATE TABLE cells ({})", names), "creating the cells table");
    sqlite::SqliteStatement(db, "INSERT INTO sweep VALUES (?, ?, ?)", "writing the sweep row")
        .bind(1, merged.specHash)
        .bind(2, std::int64_t(merged.cellCount))
        .bind(3, std::int64_t(merged.cells.size()))
        .run();
    sqlite::SqliteStatement insert(db, fmt::format("INSERT INTO cells ({}) VALUES ({})", names, params),
                                   "writing a cell");
    for (const SweepCellLine& cell : merged.cells) {
        insert.reset();
        for (std::size_t c = 0; c < columns.size(); ++c) {
            const auto v = valueOf(cell, columns[c]);
            const int i = int(c) + 1;
            if (v.is_null()) insert.bindNull(i);
            else if (v.is_boolean()) insert.bind(i, std::int64_t(v.get<bool>()));
            else if (v.is_number_integer()) insert.bind(i, v.get<std::int64_t>());
            else if (v.is_number()) insert.bindReal(i, v.get<double>());
            else insert.bind(i, v.is_string() ? v.get<std::string>() : v.dump());
        }
        insert.run();
    }
    transaction.commit();
}

}  // namespace spillway
