#include "core/sweep/sweep_table_builder.h"

#include "core/io/base/import_error.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <limits>
#include <set>

namespace spillway {

int SweepTable::resultIndex(const std::string& name) const {
    for (std::size_t i = 0; i < results.size(); ++i)
        if (results[i].name == name) return int(i);
    return -1;
}

namespace detail {

std::optional<double> parseSweepNumber(std::string_view field) {
    if (field == "true") return 1.0;
    if (field == "false") return 0.0;
    double value = 0;
    const char* end = field.data() + field.size();
    const auto [ptr, ec] = std::from_chars(field.data(), end, value);
    if (ec != std::errc() || ptr != end || field.empty()) return std::nullopt;
    return value;
}

SweepTableBuilder::SweepTableBuilder(std::string file, const std::vector<std::string>& header) : names_(header) {
    table_.file = std::move(file);
    std::set<std::string> seen;
    int cell = -1, ok = -1;
    for (std::size_t c = 0; c < header.size(); ++c) {
        if (!seen.insert(header[c]).second)
            throw ImportError(SourceLocation{table_.file, 1, std::int64_t(c) + 1, -1, {}},
                              fmt::format("column \"{}\" appears twice", header[c]));
        if (header[c] == "cell") cell = int(c);
        if (header[c] == "ok") ok = int(c);
    }
    if (cell < 0 || ok < 0 || ok < cell)
        throw ImportError(SourceLocation{table_.file, 1, 0, -1, {}},
                          fmt::format("not a merged sweep table: the header needs a \"cell\" column and, after the "
                                      "settings, an \"ok\" column ({})",
                                      cell < 0 ? "no \"cell\"" : ok < 0 ? "no \"ok\"" : "\"ok\" before \"cell\""));
    for (std::size_t c = 0; c < header.size(); ++c) {
        Kind kind = Kind::Other;  // before "cell": not ours, skipped
        if (int(c) == cell) kind = Kind::Cell;
        else if (header[c] == "error") kind = Kind::Error;
        else if (int(c) > cell && int(c) < ok) kind = Kind::Setting;
        else if (int(c) >= ok) kind = Kind::Result;
        kinds_.push_back(kind);
        auto& list = kind == Kind::Setting ? table_.settings : table_.results;
        slots_.push_back(list.size());
        if (kind == Kind::Setting || kind == Kind::Result) list.push_back(SweepTableColumn{header[c], false, {}, {}});
    }
}

void SweepTableBuilder::reserve(std::size_t rows) {
    table_.cellIds.reserve(rows);
    table_.errors.reserve(rows);
    for (auto* list : {&table_.settings, &table_.results})
        for (SweepTableColumn& column : *list) column.numbers.reserve(rows);
}

SweepTableColumn& SweepTableBuilder::column(std::size_t c) {
    return kinds_[c] == Kind::Setting ? table_.settings[slots_[c]] : table_.results[slots_[c]];
}

void SweepTableBuilder::fail(std::size_t c, std::int64_t row, const std::string& what) const {
    throw ImportError(SourceLocation{table_.file, row, std::int64_t(c) + 1, -1, {}},
                      fmt::format("column \"{}\": {}", names_[c], what));
}

void SweepTableBuilder::number(std::size_t c, double value) {
    switch (kinds_[c]) {
    case Kind::Cell: table_.cellIds.push_back(fmt::format("{}", value)); return;
    case Kind::Error: table_.errors.emplace_back(fmt::format("{}", value)); return;
    case Kind::Other: return;
    default: break;
    }
    SweepTableColumn& col = column(c);
    if (col.text) col.texts.push_back(fmt::format("{}", value));
    else col.numbers.push_back(value);
}

void SweepTableBuilder::text(std::size_t c, std::string_view value, std::int64_t row) {
    switch (kinds_[c]) {
    case Kind::Cell: table_.cellIds.emplace_back(value); return;
    case Kind::Error: table_.errors.emplace_back(value); return;
    case Kind::Other: return;
    case Kind::Result: fail(c, row, fmt::format("\"{}\" is not a number", value));
    case Kind::Setting: break;
    }
    SweepTableColumn& col = column(c);
    if (!col.text) {  // the first text value: the column was never numeric, turn it to text
        col.text = true;
        col.texts.reserve(col.numbers.capacity());
        for (double v : col.numbers) col.texts.push_back(std::isnan(v) ? std::string() : fmt::format("{}", v));
        col.numbers = {};
    }
    col.texts.emplace_back(value);
}

void SweepTableBuilder::none(std::size_t c, std::int64_t row) {
    switch (kinds_[c]) {
    case Kind::Cell: fail(c, row, "no cell id");
    case Kind::Error: table_.errors.emplace_back(); return;
    case Kind::Other: return;
    default: break;
    }
    SweepTableColumn& col = column(c);
    if (col.text) col.texts.emplace_back();
    else col.numbers.push_back(std::numeric_limits<double>::quiet_NaN());
}

}  // namespace detail
}  // namespace spillway
