#pragma once
// One layer of a stacked bar chart, as the stall views draw them (a kernel's or a job's time
// split into compute and the kinds of stall): flat colour, no outline, no gap between layers.
#include <QColor>
#include <QString>
#include <QVector>

class QCPBars;
class QCustomPlot;

namespace spillway::views {

// Adds bars named `name` (the legend's entry) at `keys` with `values`, stacked above `below`
// (null for the bottom layer), and returns them for the next layer to stack on.
QCPBars* addStackedBars(QCustomPlot* plot, const QString& name, const QColor& colour, double width,
                        const QVector<double>& keys, const QVector<double>& values, QCPBars* below);

}  // namespace spillway::views
