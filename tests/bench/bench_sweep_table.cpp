// How fast a merged sweep table opens for exploring (issue 21): for each table given (the
// SQLite or CSV of `spillway-cli sweep merge`), the median wall time of loadSweepTable, of
// indexing its axes, and of one grid over the first two axes with every other axis fixed and
// with every other axis "any" (mean). Run by hand:
//   build/tests/bench_sweep_table merged.sqlite merged.csv [repeats]
#include "bench_timing.h"
#include "core/sweep/sweep_grid.h"
#include "core/sweep/sweep_table.h"

#include <fmt/format.h>

#include <cstdlib>
#include <string>
#include <vector>

using namespace spillway;

int main(int argc, char** argv) {
    std::vector<std::string> files;
    int repeat = 3;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (!arg.empty() && arg.find_first_not_of("0123456789") == std::string::npos) repeat = std::atoi(arg.c_str());
        else files.push_back(arg);
    }
    if (files.empty()) {
        fmt::print(stderr, "usage: bench_sweep_table TABLE.sqlite|TABLE.csv... [repeats]\n");
        return 2;
    }
    for (const std::string& file : files) {
        SweepTable table;
        const double load = timing::medianMs(repeat, [&] { table = loadSweepTable(file); });
        std::vector<SweepAxis> axes;
        const double index = timing::medianMs(repeat, [&] { axes = sweepTableAxes(table); });
        if (axes.size() < 2) {
            fmt::print("{}: {} rows, fewer than two axes\n", file, table.rows());
            continue;
        }
        SweepGridQuery q;
        q.result = std::size_t(std::max(0, table.resultIndex("iteration_time_s")));
        q.filters.assign(axes.size(), 0);
        SweepGrid grid;
        const double fixed = timing::medianMs(repeat * 3, [&] { grid = sweepGrid(table, axes, q); });
        q.filters.assign(axes.size(), kSweepAnyValue);
        const double any = timing::medianMs(repeat * 3, [&] { grid = sweepGrid(table, axes, q); });
        fmt::print("{}: {} rows, {} axes ({} x {} grid); load {:.0f} ms, axes {:.0f} ms, grid fixed {:.1f} ms, "
                   "grid any-mean {:.1f} ms\n",
                   file, table.rows(), axes.size(), grid.width, grid.height, load, index, fixed, any);
    }
    return 0;
}
