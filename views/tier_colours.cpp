#include "views/tier_colours.h"

#include <QObject>
#include <QPainter>
#include <QRectF>

namespace spillway::views {

QColor tierColour(Residence where) {
    switch (where) {
    case Residence::Gpu: return QColor(0, 158, 115);        // bluish green
    case Residence::Host: return QColor(0, 114, 178);       // blue
    case Residence::Ssd: return QColor(213, 94, 0);         // vermillion
    case Residence::InFlight: return QColor(230, 159, 0);   // orange
    case Residence::Absent: return QColor();
    case Residence::Discarded: return QColor(153, 153, 153);  // grey: dropped by a discard, no copy anywhere
    }
    return QColor();
}

QString tierName(Residence where) {
    switch (where) {
    case Residence::Gpu: return QObject::tr("GPU");
    case Residence::Host: return QObject::tr("host");
    case Residence::Ssd: return QObject::tr("SSD");
    case Residence::InFlight: return QObject::tr("in flight");
    case Residence::Absent: return QObject::tr("not allocated");
    case Residence::Discarded: return QObject::tr("discarded");
    }
    return {};
}

const std::vector<Residence>& legendTiers() {
    static const std::vector<Residence> tiers{Residence::Gpu, Residence::Host, Residence::Ssd, Residence::InFlight,
                                              Residence::Discarded};
    return tiers;
}

void drawSelectionFrame(QPainter& p, const QRectF& r) {
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(Qt::black, 3));
    p.drawRect(r);
    p.setPen(QPen(Qt::white, 1));
    p.drawRect(r);
}

}  // namespace spillway::views
