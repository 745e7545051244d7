#pragma once
// File > Export > Run as CSV: the run's numbers as two CSV files (RFC 4180, UTF-8, a header
// row, integer nanoseconds and bytes so nothing is rounded):
//   NAME.csv         one row per kernel in run order: where its window went;
//   NAME.totals.csv  quantity,value,unit rows: iteration time, the stall split summed over the
//                    kernels, bytes per link and direction, peak GPU bytes, ...
// Two files rather than two sections in one, so each opens as a plain table in a spreadsheet or
// pandas.read_csv. Times count from the start of the reported iteration (as in the views).
#include "views/run_view_data.h"

#include <QString>

namespace spillway::app {

// "out/run.csv" -> "out/run.totals.csv"; a name without .csv gets ".totals.csv" appended.
QString totalsCsvPathFor(const QString& kernelsCsvPath);

// The two documents as text.
QString kernelsCsv(const views::RunViewData& run);
QString totalsCsv(const views::RunViewData& run);

// Writes both files (each through saveBytes). Returns "" or why it failed, naming the file.
QString exportRunCsv(const views::RunViewData& run, const QString& kernelsCsvPath);

}  // namespace spillway::app
