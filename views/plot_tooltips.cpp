#include "views/plot_tooltips.h"

#include <QMouseEvent>
#include <QToolTip>
#include <qcustomplot.h>

#include <limits>

namespace spillway::views {

QString dataToolTipAt(QCustomPlot* plot, QPointF pixel, const DescribeDataPoint& describe) {
    double best = std::numeric_limits<double>::infinity();
    const QCPAbstractPlottable* found = nullptr;
    int foundIndex = -1;
    for (int i = 0; i < plot->plottableCount(); ++i) {
        QCPAbstractPlottable* p = plot->plottable(i);
        if (!p->visible()) continue;
        QVariant details;
        const double distance = p->selectTest(pixel, false, &details);
        if (distance < 0 || distance > plot->selectionTolerance() || distance >= best) continue;
        const QCPDataSelection selection = details.value<QCPDataSelection>();
        if (selection.isEmpty()) continue;
        best = distance;
        found = p;
        foundIndex = selection.dataRange().begin();
    }
    return found ? describe(*found, foundIndex) : QString();
}

void installDataToolTips(QCustomPlot* plot, DescribeDataPoint describe) {
    plot->setMouseTracking(true);
    QObject::connect(plot, &QCustomPlot::mouseMove, plot, [plot, describe = std::move(describe)](QMouseEvent* event) {
        if (event->buttons() != Qt::NoButton) return;
        const QString text = dataToolTipAt(plot, event->position(), describe);
        if (text.isEmpty()) QToolTip::hideText();
        else QToolTip::showText(event->globalPosition().toPoint(), text, plot);
    });
}

std::pair<double, double> dataPointOf(const QCPAbstractPlottable& plottable, int index) {
    if (auto* bars = qobject_cast<const QCPBars*>(&plottable); bars && index >= 0 && index < bars->data()->size()) {
        const auto it = bars->data()->at(index);
        return {it->key, it->value};
    }
    if (auto* graph = qobject_cast<const QCPGraph*>(&plottable); graph && index >= 0 && index < graph->data()->size()) {
        const auto it = graph->data()->at(index);
        return {it->key, it->value};
    }
    return {0, 0};
}

}  // namespace spillway::views
