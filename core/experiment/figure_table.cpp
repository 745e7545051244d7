#include "core/experiment/figure_table.h"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace spillway {

namespace {

bool isFileStem(const std::string& id) {
    if (id.empty()) return false;
    for (char c : id)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
    return true;
}

// RFC 4180: quote a field holding a comma, quote or line break, doubling the quotes.
std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text) {
        if (c == '"') quoted += '"';
        quoted += c;
    }
    return quoted + '"';
}

std::string number(double value, int decimals) {
    return std::isnan(value) ? std::string() : fmt::format("{:.{}f}", value, decimals);
}

}  // namespace

size_t FigureTable::seriesIndex(const std::string& name) const {
    for (size_t s = 0; s < series.size(); ++s)
        if (series[s] == name) return s;
    throw std::out_of_range(fmt::format("figure '{}' has no series '{}'", id, name));
}

std::string FigureTable::shapeError() const {
    if (!isFileStem(id)) return fmt::format("figure id '{}' is not a file stem ([a-z0-9-])", id);
    if (values.size() != series.size())
        return fmt::format("{}: {} series but {} value rows", id, series.size(), values.size());
    for (size_t s = 0; s < values.size(); ++s)
        if (values[s].size() != groups.size())
            return fmt::format("{}: series '{}' has {} values for {} groups", id, series[s], values[s].size(),
                               groups.size());
    if (!why.empty()) {
        if (why.size() != series.size()) return fmt::format("{}: 'why' has {} rows", id, why.size());
        for (const auto& row : why)
            if (row.size() != groups.size()) return fmt::format("{}: a 'why' row has {} cells", id, row.size());
    }
    return {};
}

std::string figureCsv(const FigureTable& table) {
    std::string out = csvField(table.xLabel);
    for (const auto& s : table.series) out += "," + csvField(s);
    out += "\r\n";
    for (size_t g = 0; g < table.groups.size(); ++g) {
        out += csvField(table.groups[g]);
        for (size_t s = 0; s < table.series.size(); ++s) out += "," + number(table.at(s, g), table.decimals);
        out += "\r\n";
    }
    return out;
}

std::string figureMarkdown(const FigureTable& table) {
    auto cell = [](std::string text) {
        for (size_t at = 0; (at = text.find('|', at)) != std::string::npos; at += 2) text.replace(at, 1, "\\|");
        return text;
    };
    std::string out = "| " + cell(table.xLabel) + " |";
    for (const auto& s : table.series) out += " " + cell(s) + " |";
    out += "\n|---|";
    for (size_t s = 0; s < table.series.size(); ++s) out += "---|";
    out += "\n";
    for (size_t g = 0; g < table.groups.size(); ++g) {
        out += "| " + cell(table.groups[g]) + " |";
        for (size_t s = 0; s < table.series.size(); ++s) {
            const double v = table.at(s, g);
            out += " " + (std::isnan(v) ? std::string("-") : number(v, table.decimals)) + " |";
        }
        out += "\n";
    }
    return out;
}

}  // namespace spillway
