#pragma once
// Two settings of a merged sweep table as a grid (a heat map's data): every other setting that
// varies is fixed at one value or left open ("any"), and the cells a grid point then holds are
// combined (mean, min or max). Axes are indexed once per table; each grid is one pass over the
// rows, so switching what is shown on a million-row table does not re-read anything.
#include "core/sweep/sweep_table.h"

#include <cstdint>
#include <string>
#include <vector>

namespace spillway {

// A setting with more than one distinct value.
struct SweepAxis {
    std::size_t setting = 0;  // index into SweepTable::settings
    std::string name;         // the column's name, unit included
    bool text = false;
    std::vector<double> numbers;       // the distinct values, ascending (numeric axes; NaN last)
    std::vector<std::string> labels;   // the distinct values as text, in the axis order
    std::vector<std::uint32_t> codes;  // per row: the index of its value in this axis
    std::size_t size() const { return labels.size(); }
};

// The settings with more than one distinct value, in the table's column order. Numeric axes are
// sorted ascending; text axes keep the order values first appear in (the spec's order).
std::vector<SweepAxis> sweepTableAxes(const SweepTable& table);

enum class SweepAggregate { Mean, Min, Max };

inline constexpr int kSweepAnyValue = -1;

struct SweepGridQuery {
    std::size_t x = 0, y = 1;  // axis indices, distinct
    std::size_t result = 0;    // index into SweepTable::results
    // One per axis: a value index, or kSweepAnyValue. The entries of x and y are ignored.
    std::vector<int> filters;
    SweepAggregate aggregate = SweepAggregate::Mean;  // over the cells "any" leaves in a point
};

struct SweepGrid {
    std::size_t width = 0, height = 0;  // the x axis' and y axis' value counts
    std::vector<double> values;         // height rows of width; NaN: no cell ran there
    std::vector<std::uint32_t> cells;   // the cells combined into each value
    double at(std::size_t x, std::size_t y) const { return values[y * width + x]; }
    std::uint32_t cellsAt(std::size_t x, std::size_t y) const { return cells[y * width + x]; }
};

// Failed cells (ok 0) and cells without the result number are left out. Throws
// std::invalid_argument for axes or a result out of range, x == y, or a filter list of the
// wrong size.
SweepGrid sweepGrid(const SweepTable& table, const std::vector<SweepAxis>& axes, const SweepGridQuery& query);

// "mean", "min", "max".
const char* sweepAggregateName(SweepAggregate aggregate);

}  // namespace spillway
