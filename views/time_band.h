#pragma once
// The translucent blue band the timelines draw over a chosen span of time (the linked time
// range, the selected iteration): full plot height, hidden until the owner places it.
#include <QString>

class QCPItemRect;
class QCustomPlot;

namespace spillway::views {

// `alpha` is the fill's opacity (0-255); the band's x is set later in plot coordinates.
QCPItemRect* addTimeBand(QCustomPlot* plot, const QString& objectName, int alpha);

}  // namespace spillway::views
