#include "views/sweep_widget.h"

#include "views/format_units.h"
#include "views/series_colours.h"

#include <QVBoxLayout>
#include <qcustomplot.h>

#include <cmath>
#include <limits>

namespace spillway::views {

namespace {

double pointAt(const QCustomPlot* plot, int graphIndex, int valueIndex) {
    if (graphIndex < 0 || graphIndex >= plot->graphCount()) return std::numeric_limits<double>::quiet_NaN();
    const auto data = plot->graph(graphIndex)->data();
    if (valueIndex < 0 || valueIndex >= data->size()) return std::numeric_limits<double>::quiet_NaN();
    return data->at(valueIndex)->value;
}

// One line per policy in its palette colour, on the swept values' ticks.
QCPGraph* addPolicyLine(QCustomPlot* plot, const QString& policy, size_t index) {
    return addSeriesLine(plot, policy, seriesColour(index));
}

}  // namespace

SweepWidget::SweepWidget(QWidget* parent) : QWidget(parent) {
    plot_ = new QCustomPlot(this);
    plot_->setObjectName("sweepPlot");
    plot_->setMinimumHeight(220);
    plot_->legend->setVisible(true);
    plot_->legend->setFont(QFont(font().family(), 8));
    plot_->yAxis->setLabel(tr("speedup"));
    stallPlot_ = new QCustomPlot(this);
    stallPlot_->setObjectName("sweepStallPlot");
    stallPlot_->setMinimumHeight(140);
    stallPlot_->yAxis->setLabel(tr("stalled %"));
    stallPlot_->yAxis->setRange(0, 100);
    // The same left margin on both, so a batch (or value) sits at the same x in each.
    for (QCustomPlot* plot : {plot_, stallPlot_}) {
        plot->axisRect()->setAutoMargins(QCP::msTop | QCP::msRight | QCP::msBottom);
        plot->axisRect()->setMargins(QMargins(64, 0, 0, 0));
    }
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_, 3);
    layout->addWidget(stallPlot_, 2);
}

void SweepWidget::setResult(std::shared_ptr<const SweepResult> result) {
    result_ = std::move(result);
    plot_->clearGraphs();
    stallPlot_->clearGraphs();
    if (!result_) {
        plot_->replot();
        stallPlot_->replot();
        return;
    }
    const auto& spec = result_->spec;
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (size_t v = 0; v < spec.values.size(); ++v) ticker->addTick(double(v), toQString(spec.values[v]));
    const QString xLabel = spec.sweepsBatch() ? tr("batch size (one profile each)") : toQString(spec.parameter);
    for (QCustomPlot* plot : {plot_, stallPlot_}) {
        plot->xAxis->setTicker(ticker);
        plot->xAxis->setLabel(xLabel);
        plot->xAxis->setRange(-0.5, double(spec.values.size()) - 0.5);
    }
    plot_->yAxis->setLabel(tr("speedup over %1").arg(toQString(spec.policies.front())));
    const double nan = std::numeric_limits<double>::quiet_NaN();
    double top = 1.0;
    for (size_t p = 0; p < spec.policies.size(); ++p) {
        QCPGraph* speedups = addPolicyLine(plot_, toQString(spec.policies[p]), p);
        QCPGraph* stalls = addPolicyLine(stallPlot_, toQString(spec.policies[p]), p);
        for (size_t v = 0; v < spec.values.size(); ++v) {
            const SweepCell& cell = result_->at(v, p);
            const double s = result_->speedup(v, p);
            // A failed cell is a gap, not a zero.
            speedups->addData(double(v), s > 0 ? s : nan);
            top = std::max(top, s);
            const bool ran = cell.ok && cell.iterationTime > 0;
            stalls->addData(double(v), ran ? 100.0 * double(cell.iterationTime - cell.totals.compute) /
                                                 double(cell.iterationTime)
                                           : nan);
        }
    }
    plot_->yAxis->setRange(0, top * 1.15);
    plot_->replot();
    stallPlot_->replot();
}

double SweepWidget::plottedSpeedup(int policyIndex, int valueIndex) const {
    return pointAt(plot_, policyIndex, valueIndex);
}

double SweepWidget::plottedStallShare(int policyIndex, int valueIndex) const {
    return pointAt(stallPlot_, policyIndex, valueIndex);
}

}  // namespace spillway::views
