#pragma once
// Hovering a bar or a point of a chart says what it is (issue 20: the Stalls, Traffic and Sweep
// bars gave no value). Each view says how to describe one data point of one of its plottables;
// this finds the plottable and the data point under the mouse.
#include <QPointF>
#include <QString>

#include <functional>

class QCPAbstractPlottable;
class QCustomPlot;

namespace spillway::views {

// `index` is the data point's index in the plottable; an empty text shows no tooltip.
using DescribeDataPoint = std::function<QString(const QCPAbstractPlottable& plottable, int index)>;

// The description of the data point under `pixel` (the nearest within the plot's selection
// tolerance), or an empty string.
QString dataToolTipAt(QCustomPlot* plot, QPointF pixel, const DescribeDataPoint& describe);

// Shows dataToolTipAt as the mouse moves over the plot with no button held.
void installDataToolTips(QCustomPlot* plot, DescribeDataPoint describe);

// A value read off a plottable: the key and value of its data point `index` (bars and graphs).
std::pair<double, double> dataPointOf(const QCPAbstractPlottable& plottable, int index);

}  // namespace spillway::views
