#include "views/series_colours.h"

#include <qcustomplot.h>

namespace spillway::views {

QCPGraph* addSeriesLine(QCustomPlot* plot, const QString& name, const QColor& colour) {
    auto* graph = plot->addGraph();
    graph->setName(name);
    graph->setPen(QPen(colour, 2));
    graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, colour, colour, 6));
    return graph;
}

}  // namespace spillway::views
