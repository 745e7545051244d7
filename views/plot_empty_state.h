#pragma once
// A chart with nothing to show says what to do instead (issue 20: the Sweep, Jobs and Compare
// charts showed empty legends and an axis labelled "1·10⁻⁶ ms"): the legend, the tick labels and
// the axis names go, and a line of text in the middle says what would fill the chart.
#include <QString>

class QCustomPlot;

namespace spillway::views {

// Shows `text` in place of the data (its item is named "emptyStateText").
void showPlotEmptyState(QCustomPlot* plot, const QString& text);
// Back to a chart with data: the legend (when `legend`) and the tick labels return; the owner
// sets the axis names as it draws.
void clearPlotEmptyState(QCustomPlot* plot, bool legend);
// The text shown, or empty when the chart is not empty.
QString plotEmptyStateText(const QCustomPlot* plot);

}  // namespace spillway::views
