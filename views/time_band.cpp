#include "views/time_band.h"

#include <qcustomplot.h>

namespace spillway::views {

QCPItemRect* addTimeBand(QCustomPlot* plot, const QString& objectName, int alpha) {
    const QColor blue(0, 90, 200);
    auto* band = new QCPItemRect(plot);
    band->setObjectName(objectName);
    // y as a ratio of the axis rect: the band spans the plot's height whatever the value range.
    band->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
    band->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
    band->setPen(QPen(blue));
    band->setBrush(QColor(blue.red(), blue.green(), blue.blue(), alpha));
    band->setVisible(false);
    return band;
}

}  // namespace spillway::views
