#include "views/sweep_widget.h"

#include "views/format_units.h"

#include <QVBoxLayout>
#include <qcustomplot.h>

#include <cmath>
#include <limits>

namespace spillway::views {

namespace {

const QColor kPalette[] = {QColor(127, 127, 127), QColor(31, 119, 180), QColor(214, 39, 40), QColor(44, 160, 44),
                           QColor(148, 103, 189), QColor(255, 127, 14), QColor(140, 86, 75), QColor(23, 190, 207)};

}  // namespace

SweepWidget::SweepWidget(QWidget* parent) : QWidget(parent) {
    plot_ = new QCustomPlot(this);
    plot_->setObjectName("sweepPlot");
    plot_->setMinimumHeight(220);
    plot_->legend->setVisible(true);
    plot_->legend->setFont(QFont(font().family(), 8));
    plot_->yAxis->setLabel(tr("speedup"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
}

void SweepWidget::setResult(std::shared_ptr<const SweepResult> result) {
    result_ = std::move(result);
    plot_->clearGraphs();
    if (!result_) {
        plot_->replot();
        return;
    }
    const auto& spec = result_->spec;
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (size_t v = 0; v < spec.values.size(); ++v) ticker->addTick(double(v), toQString(spec.values[v]));
    plot_->xAxis->setTicker(ticker);
    plot_->xAxis->setLabel(toQString(spec.parameter));
    plot_->yAxis->setLabel(tr("speedup over %1").arg(toQString(spec.policies.front())));
    double top = 1.0;
    for (size_t p = 0; p < spec.policies.size(); ++p) {
        auto* graph = plot_->addGraph();
        graph->setName(toQString(spec.policies[p]));
        const QColor colour = kPalette[p % std::size(kPalette)];
        graph->setPen(QPen(colour, 2));
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, colour, colour, 6));
        for (size_t v = 0; v < spec.values.size(); ++v) {
            const double s = result_->speedup(v, p);
            // A failed cell is a gap, not a zero.
            graph->addData(double(v), s > 0 ? s : std::numeric_limits<double>::quiet_NaN());
            top = std::max(top, s);
        }
    }
    plot_->xAxis->setRange(-0.5, double(spec.values.size()) - 0.5);
    plot_->yAxis->setRange(0, top * 1.15);
    plot_->replot();
}

double SweepWidget::plottedSpeedup(int policyIndex, int valueIndex) const {
    if (policyIndex < 0 || policyIndex >= plot_->graphCount()) return std::numeric_limits<double>::quiet_NaN();
    const auto data = plot_->graph(policyIndex)->data();
    if (valueIndex < 0 || valueIndex >= data->size()) return std::numeric_limits<double>::quiet_NaN();
    return data->at(valueIndex)->value;
}

}  // namespace spillway::views
