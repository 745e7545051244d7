#include "views/sweep_widget.h"

#include "views/format_units.h"
#include "views/plot_empty_state.h"
#include "views/plot_tooltips.h"
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
    // Hovering a point: the policy, the swept value and what the cell measured.
    installDataToolTips(plot_, [this](const QCPAbstractPlottable& line, int index) { return describeCell(line, index, false); });
    installDataToolTips(stallPlot_, [this](const QCPAbstractPlottable& line, int index) { return describeCell(line, index, true); });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_, 3);
    layout->addWidget(stallPlot_, 2);
    setResult(nullptr);
}

QString SweepWidget::describeCell(const QCPAbstractPlottable& line, int index, bool stalls) const {
    if (!result_) return {};
    const auto& spec = result_->spec;
    const auto [key, value] = dataPointOf(line, index);
    const auto v = size_t(std::llround(key));
    size_t p = 0;
    while (p < spec.policies.size() && toQString(spec.policies[p]) != line.name()) ++p;
    if (v >= spec.values.size() || p >= spec.policies.size()) return {};
    const SweepCell& cell = result_->at(v, p);
    const QString where = tr("%1 at %2 = %3").arg(line.name(), spec.sweepsBatch() ? tr("batch") : toQString(spec.parameter),
                                                  toQString(spec.values[v]));
    if (!cell.ok) return tr("%1\ndid not run: %2").arg(where, toQString(cell.error));
    return tr("%1\niteration %2\n%3").arg(where, formatDuration(cell.iterationTime),
                                          stalls ? tr("stalled %1%").arg(value, 0, 'f', 1)
                                                 : tr("speedup %1x over %2").arg(value, 0, 'f', 3).arg(toQString(spec.policies.front())));
}

// Before any sweep: no empty legend, no axis of nothing; what to do instead.
void SweepWidget::showEmptyState() {
    showPlotEmptyState(plot_, emptyStateText());
    showPlotEmptyState(stallPlot_, tr("(the share of each iteration spent stalled, once a sweep ran)"));
}

QString SweepWidget::emptyStateText() {
    return tr("No sweep yet. Pick the value to sweep, its values and the policies above, then Run sweep;\n"
              "or File ▸ Open a sweep result (spillway.sweep/1), or open a merged design sweep in Sweep table.");
}

void SweepWidget::setResult(std::shared_ptr<const SweepResult> result) {
    result_ = std::move(result);
    plot_->clearGraphs();
    stallPlot_->clearGraphs();
    if (!result_) {
        showEmptyState();
        return;
    }
    clearPlotEmptyState(plot_, true);
    clearPlotEmptyState(stallPlot_, false);
    stallPlot_->yAxis->setLabel(tr("stalled %"));
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
