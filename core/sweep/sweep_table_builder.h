#pragma once
// What the CSV and SQLite readers of a merged sweep table share: the header's split into the
// cell id, settings, results and error, and the columns filled value by value.
#include "core/sweep/sweep_table.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spillway::detail {

class SweepTableBuilder {
public:
    // Throws ImportError naming `file` when "cell", "ok" or a column name is missing or twice.
    SweepTableBuilder(std::string file, const std::vector<std::string>& header);
    std::size_t columnCount() const { return kinds_.size(); }
    // A value of column `c` of the current row: a number, a text or nothing (SQL NULL, empty CSV
    // field). `row` is 1-based as the user sees it (the CSV line, the SQLite row), for errors.
    void number(std::size_t c, double value);
    void text(std::size_t c, std::string_view value, std::int64_t row);
    void none(std::size_t c, std::int64_t row);
    void reserve(std::size_t rows);
    SweepTable finish() { return std::move(table_); }
    const std::string& columnName(std::size_t c) const { return names_[c]; }

private:
    enum class Kind { Cell, Setting, Result, Error, Other };
    SweepTableColumn& column(std::size_t c);
    [[noreturn]] void fail(std::size_t c, std::int64_t row, const std::string& what) const;
    SweepTable table_;
    std::vector<Kind> kinds_;
    std::vector<std::size_t> slots_;  // index into settings or results
    std::vector<std::string> names_;
};

// A whole field as a number ("1e9", "-0.5", "true"/"false" as 1/0), or nothing.
std::optional<double> parseSweepNumber(std::string_view field);

}  // namespace spillway::detail
