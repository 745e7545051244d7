#include "views/plot_empty_state.h"

#include <qcustomplot.h>

namespace spillway::views {

namespace {

QCPItemText* emptyStateItem(const QCustomPlot* plot) {
    for (int i = 0; i < plot->itemCount(); ++i)
        if (plot->item(i)->objectName() == "emptyStateText") return qobject_cast<QCPItemText*>(plot->item(i));
    return nullptr;
}

}  // namespace

void showPlotEmptyState(QCustomPlot* plot, const QString& text) {
    plot->legend->setVisible(false);
    for (QCPAxis* axis : {plot->xAxis, plot->yAxis}) {
        axis->setTickLabels(false);
        axis->setLabel(QString());
    }
    QCPItemText* item = emptyStateItem(plot);
    if (!item) {
        item = new QCPItemText(plot);
        item->setObjectName("emptyStateText");
        item->position->setType(QCPItemPosition::ptAxisRectRatio);
        item->position->setCoords(0.5, 0.5);
    }
    item->setText(text);
    plot->replot();
}

void clearPlotEmptyState(QCustomPlot* plot, bool legend) {
    if (QCPItemText* item = emptyStateItem(plot)) plot->removeItem(item);
    plot->legend->setVisible(legend);
    for (QCPAxis* axis : {plot->xAxis, plot->yAxis}) axis->setTickLabels(true);
}

QString plotEmptyStateText(const QCustomPlot* plot) {
    const QCPItemText* item = emptyStateItem(plot);
    return item ? item->text() : QString();
}

}  // namespace spillway::views
