#pragma once
// The colours and lines that stand for policies (or any other series) in the sweep view and in
// the figures `spillway-cli reproduce` draws (figure_export.h), so a policy looks the same in
// both: the first (the baseline) grey, then the matplotlib "tab10" order.
#include <QColor>
#include <QString>

#include <cstddef>
#include <iterator>

class QCPGraph;
class QCustomPlot;

namespace spillway::views {

inline QColor seriesColour(std::size_t index) {
    static const QColor palette[] = {QColor(127, 127, 127), QColor(31, 119, 180), QColor(214, 39, 40),
                                     QColor(44, 160, 44),   QColor(148, 103, 189), QColor(255, 127, 14),
                                     QColor(140, 86, 75),   QColor(23, 190, 207)};
    return palette[index % std::size(palette)];
}

// A line with round markers in `colour`, named `name` in the legend.
QCPGraph* addSeriesLine(QCustomPlot* plot, const QString& name, const QColor& colour);

}  // namespace spillway::views
