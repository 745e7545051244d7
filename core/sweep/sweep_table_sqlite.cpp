// The merged SQLite file (`sweep merge --sqlite`): table "cells", columns as the CSV's header,
// INTEGER, REAL or TEXT per value and NULL where none (core/sweep/sweep_merge.h).
#include "core/sweep/sweep_table.h"
#include "core/sweep/sweep_table_builder.h"

#include "core/io/base/import_error.h"
#include "core/sqlite/sqlite_connection.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include <algorithm>
#include <fstream>

namespace spillway {

namespace {

std::vector<std::string> cellColumns(sqlite::SqliteConnection& db, const std::string& file) {
    std::vector<std::string> names;
    sqlite::SqliteStatement info(db, "SELECT name FROM pragma_table_info('cells') ORDER BY cid",
                                 "reading the cells table's columns");
    while (info.step()) names.push_back(info.columnText(0));
    if (names.empty()) throw ImportError(file, "no table \"cells\": not a merged sweep table (sweep merge --sqlite)");
    return names;
}

// One row's values into the builder; SQLite's own type per value decides number, text or none.
void readRow(sqlite3_stmt* stmt, detail::SweepTableBuilder& builder, std::int64_t row) {
    for (std::size_t c = 0; c < builder.columnCount(); ++c) {
        const int i = int(c);
        switch (sqlite3_column_type(stmt, i)) {
        case SQLITE_INTEGER: builder.number(c, double(sqlite3_column_int64(stmt, i))); break;
        case SQLITE_FLOAT: builder.number(c, sqlite3_column_double(stmt, i)); break;
        case SQLITE_NULL: builder.none(c, row); break;
        default: {
            const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, i));
            builder.text(c, std::string_view(text ? text : "", std::size_t(sqlite3_column_bytes(stmt, i))), row);
        }
        }
    }
}

SweepTable readCells(sqlite::SqliteConnection& db, const std::string& file, const LoadProgress& progress) {
    const std::vector<std::string> names = cellColumns(db, file);
    detail::SweepTableBuilder builder(file, names);
    const std::int64_t rows = db.queryInt("SELECT count(*) FROM cells", "counting the cells");
    builder.reserve(std::size_t(rows));
    std::string columns;
    for (std::size_t c = 0; c < names.size(); ++c) columns += fmt::format("{}\"{}\"", c ? ", " : "", names[c]);
    // Straight on SQLite's API: the wrapper has no sqlite3_column_double, and a million rows want
    // the values without a round trip through text.
    sqlite3_stmt* stmt = nullptr;
    db.check(sqlite3_prepare_v2(db.handle(), fmt::format("SELECT {} FROM cells ORDER BY rowid", columns).c_str(), -1,
                                &stmt, nullptr),
             "reading the cells");
    std::int64_t row = 0;
    try {
        for (;;) {
            const int rc = sqlite3_step(stmt);
            if (rc == SQLITE_DONE) break;
            if (rc != SQLITE_ROW) db.fail(rc, fmt::format("reading row {} of the cells", row + 1));
            readRow(stmt, builder, ++row);
            if ((row & 4095) == 0) {
                if (progress.cancelled()) throw LoadCancelled();
                if (progress.report && rows > 0) progress.report(double(row) / double(rows), "reading");
            }
        }
    } catch (...) {
        sqlite3_finalize(stmt);
        throw;
    }
    sqlite3_finalize(stmt);
    if (progress.report) progress.report(1.0, "done");
    return builder.finish();
}

}  // namespace

SweepTable loadSweepTableSqlite(const std::filesystem::path& path, const LoadProgress& progress) {
    const std::string file = path.string();
    if (!std::filesystem::is_regular_file(path)) throw ImportError(file, "no such file");
    try {
        sqlite::SqliteConnection db(file, sqlite::SqliteConnection::Mode::ReadOnly);
        return readCells(db, file, progress);
    } catch (const sqlite::DatabaseError& e) {
        // Truncated or damaged files fail here; the message already names the file.
        throw ImportError(file, fmt::format("not a readable merged sweep table: {}", e.what()));
    }
}

SweepTable loadSweepTable(const std::filesystem::path& path, const LoadProgress& progress) {
    static constexpr char kHeader[] = "SQLite format 3";  // with its NUL: the file's first 16 bytes
    char head[sizeof kHeader] = {};
    std::ifstream in(path, std::ios::binary);
    in.read(head, sizeof head);
    const bool sqlite = in.gcount() == std::streamsize(sizeof head) && std::equal(head, head + sizeof head, kHeader);
    return sqlite ? loadSweepTableSqlite(path, progress) : loadSweepTableCsv(path, progress);
}

}  // namespace spillway
