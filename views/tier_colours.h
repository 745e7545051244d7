#pragma once
// Where a tensor is (GPU, host, SSD, in flight, discarded), in one palette for every view that
// shows it (lifetimes, offsets, their legends): the Okabe-Ito colours, which readers with any
// common colour-vision deficiency tell apart, and a selection drawn as a black frame around a
// white one, which stands out over all of them.
#include "core/sim/sim_result.h"

#include <QColor>
#include <QString>

#include <vector>

namespace spillway::views {

// An invalid colour for Residence::Absent (nothing drawn).
QColor tierColour(Residence where);
QString tierName(Residence where);
// The tiers a legend lists, in order.
const std::vector<Residence>& legendTiers();
// The selection: a black frame around a white one, drawn on `r`'s edge.
void drawSelectionFrame(class QPainter& p, const class QRectF& r);

}  // namespace spillway::views
