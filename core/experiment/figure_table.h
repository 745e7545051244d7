#pragma once
// One figure or table of a paper's evaluation as `spillway-cli reproduce` computes it: values
// per series (policies, stall components) and group (workloads, bandwidths, GPU counts), drawn
// as grouped or stacked bars or as lines, and written as CSV and as a Markdown table. Plain data:
// core/experiment builds it, views/figure_export.h draws it, the CLI writes the files.
#include <string>
#include <vector>

namespace spillway {

enum class FigureStyle {
    GroupedBars,  // series side by side in each group (Fig. 5's speedups)
    StackedBars,  // series stacked in each group (Fig. 1's time breakdown)
    Lines,        // one line per series over the groups in order (Fig. 8's bandwidths)
};

struct FigureTable {
    std::string id;      // file stem: "fig5", "table3"; [a-z0-9-] only
    std::string title;   // "Fig. 5: speedup over UVM"
    std::string xLabel;  // "workload", "SSD bandwidth"
    std::string yLabel;  // "speedup over UVM (x)"
    FigureStyle style = FigureStyle::GroupedBars;
    std::vector<std::string> groups;           // x categories, in order
    std::vector<std::string> series;           // legend entries, in order
    std::vector<std::vector<double>> values;   // values[series][group]; NaN: did not run
    std::vector<std::vector<std::string>> why; // optional, same shape: why a cell is NaN ("" if it ran)
    int decimals = 2;                          // for the CSV and Markdown tables
    std::string caption;                       // a sentence under the figure: what is shown, units

    double at(size_t series, size_t group) const { return values.at(series).at(group); }
    // The index of the series called `name`; std::out_of_range naming it when there is none.
    size_t seriesIndex(const std::string& name) const;
    // Empty when the shape is consistent (values and why are series x groups, id is a file stem),
    // otherwise what is wrong.
    std::string shapeError() const;
};

// RFC 4180 CSV: a header row (xLabel, then the series), one row per group; NaN cells are empty.
std::string figureCsv(const FigureTable& table);
// A GitHub-flavoured Markdown table, groups as rows, series as columns; NaN cells show "-".
std::string figureMarkdown(const FigureTable& table);

}  // namespace spillway
