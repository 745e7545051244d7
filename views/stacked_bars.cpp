#include "views/stacked_bars.h"

#include <qcustomplot.h>

namespace spillway::views {

QCPBars* addStackedBars(QCustomPlot* plot, const QString& name, const QColor& colour, double width,
                        const QVector<double>& keys, const QVector<double>& values, QCPBars* below) {
    auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
    bars->setName(name);
    bars->setWidth(width);
    bars->setPen(Qt::NoPen);
    bars->setBrush(colour);
    bars->setStackingGap(0);  // layers touch: the stack's height is the sum
    bars->setData(keys, values, true);
    if (below) bars->moveAbove(below);
    return bars;
}

}  // namespace spillway::views
