#include "core/sweep/sweep_grid.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <unordered_map>

namespace spillway {

namespace {

// Distinct numbers in one pass of a hash map, then sorted; NaN (an empty field) is one value,
// last.
SweepAxis numericAxis(const SweepTableColumn& column) {
    SweepAxis axis;
    std::unordered_map<double, std::uint32_t> seen;
    bool hasNan = false;
    for (double v : column.numbers) {
        if (std::isnan(v)) hasNan = true;
        else seen.try_emplace(v, 0u);
    }
    for (const auto& [value, code] : seen) axis.numbers.push_back(value);
    std::sort(axis.numbers.begin(), axis.numbers.end());
    for (std::size_t i = 0; i < axis.numbers.size(); ++i) seen[axis.numbers[i]] = std::uint32_t(i);
    const auto nanCode = std::uint32_t(axis.numbers.size());
    if (hasNan) axis.numbers.push_back(std::numeric_limits<double>::quiet_NaN());
    for (double v : axis.numbers) axis.labels.push_back(std::isnan(v) ? std::string() : fmt::format("{}", v));
    axis.codes.reserve(column.numbers.size());
    for (double v : column.numbers) axis.codes.push_back(std::isnan(v) ? nanCode : seen[v]);
    return axis;
}

SweepAxis textAxis(const SweepTableColumn& column) {
    SweepAxis axis;
    axis.text = true;
    std::unordered_map<std::string, std::uint32_t> seen;
    axis.codes.reserve(column.texts.size());
    for (const std::string& v : column.texts) {
        const auto [it, added] = seen.try_emplace(v, std::uint32_t(axis.labels.size()));
        if (added) axis.labels.push_back(v);
        axis.codes.push_back(it->second);
    }
    return axis;
}

void checkQuery(const SweepTable& table, const std::vector<SweepAxis>& axes, const SweepGridQuery& q) {
    if (q.x >= axes.size() || q.y >= axes.size() || q.x == q.y)
        throw std::invalid_argument(fmt::format("grid axes {} and {} of {}: need two different axes", q.x, q.y,
                                                axes.size()));
    if (q.result >= table.results.size())
        throw std::invalid_argument(fmt::format("result column {} of {}", q.result, table.results.size()));
    if (q.filters.size() != axes.size())
        throw std::invalid_argument(fmt::format("{} filters for {} axes", q.filters.size(), axes.size()));
    for (std::size_t a = 0; a < axes.size(); ++a)
        if (a != q.x && a != q.y && q.filters[a] != kSweepAnyValue &&
            (q.filters[a] < 0 || std::size_t(q.filters[a]) >= axes[a].size()))
            throw std::invalid_argument(fmt::format("filter on {}: value {} of {}", axes[a].name, q.filters[a],
                                                    axes[a].size()));
}

}  // namespace

std::vector<SweepAxis> sweepTableAxes(const SweepTable& table) {
    std::vector<SweepAxis> axes;
    for (std::size_t s = 0; s < table.settings.size(); ++s) {
        const SweepTableColumn& column = table.settings[s];
        SweepAxis axis = column.text ? textAxis(column) : numericAxis(column);
        if (axis.size() < 2) continue;  // the same everywhere: nothing to choose
        axis.setting = s;
        axis.name = column.name;
        axes.push_back(std::move(axis));
    }
    return axes;
}

SweepGrid sweepGrid(const SweepTable& table, const std::vector<SweepAxis>& axes, const SweepGridQuery& q) {
    checkQuery(table, axes, q);
    SweepGrid grid;
    grid.width = axes[q.x].size();
    grid.height = axes[q.y].size();
    const std::size_t points = grid.width * grid.height;
    std::vector<double> sum(points, 0.0);
    grid.cells.assign(points, 0);
    grid.values.assign(points, std::numeric_limits<double>::quiet_NaN());
    // The fixed filters as (codes, wanted value) pairs: the inner loop tests only those.
    std::vector<std::pair<const std::uint32_t*, std::uint32_t>> fixed;
    for (std::size_t a = 0; a < axes.size(); ++a)
        if (a != q.x && a != q.y && q.filters[a] != kSweepAnyValue)
            fixed.emplace_back(axes[a].codes.data(), std::uint32_t(q.filters[a]));
    const int okIndex = table.resultIndex("ok");
    const double* ok = okIndex >= 0 ? table.results[std::size_t(okIndex)].numbers.data() : nullptr;
    const double* value = table.results[q.result].numbers.data();
    const std::uint32_t* xs = axes[q.x].codes.data();
    const std::uint32_t* ys = axes[q.y].codes.data();
    for (std::size_t row = 0; row < table.rows(); ++row) {
        if ((ok && ok[row] == 0.0) || std::isnan(value[row])) continue;
        bool kept = true;
        for (const auto& [codes, wanted] : fixed) kept = kept && codes[row] == wanted;
        if (!kept) continue;
        const std::size_t point = std::size_t(ys[row]) * grid.width + xs[row];
        const double v = value[row];
        double& out = grid.values[point];
        switch (q.aggregate) {
        case SweepAggregate::Mean: sum[point] += v; break;
        case SweepAggregate::Min: out = grid.cells[point] ? std::min(out, v) : v; break;
        case SweepAggregate::Max: out = grid.cells[point] ? std::max(out, v) : v; break;
        }
        ++grid.cells[point];
    }
    if (q.aggregate == SweepAggregate::Mean)
        for (std::size_t p = 0; p < points; ++p)
            if (grid.cells[p]) grid.values[p] = sum[p] / grid.cells[p];
    return grid;
}

const char* sweepAggregateName(SweepAggregate aggregate) {
    switch (aggregate) {
    case SweepAggregate::Mean: return "mean";
    case SweepAggregate::Min: return "min";
    case SweepAggregate::Max: return "max";
    }
    return "mean";
}

}  // namespace spillway
