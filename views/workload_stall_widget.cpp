#include "views/workload_stall_widget.h"

#include "views/format_units.h"
#include "views/plot_empty_state.h"
#include "views/stacked_bars.h"
#include "views/stall_colours.h"

#include <QVBoxLayout>
#include <qcustomplot.h>

namespace spillway::views {

namespace {

constexpr double kNsPerMs = 1e6;

struct PartStyle {
    JobTimePart part;
    const char* name;
    QColor colour;
};
// The colours of the single-run stall view where the meaning matches: compute green, waiting for
// a swap-in as late prefetch (purple), passive swap-out as oversubscription (orange).
const PartStyle kParts[] = {
    {JobTimePart::Compute, QT_TRANSLATE_NOOP("WorkloadStallWidget", "compute"), stall_colours::kCompute},
    {JobTimePart::SwapStall, QT_TRANSLATE_NOOP("WorkloadStallWidget", "swap stall"), stall_colours::kLatePrefetch},
    {JobTimePart::PassiveSwap, QT_TRANSLATE_NOOP("WorkloadStallWidget", "passive swap"), stall_colours::kOversub},
    {JobTimePart::Recompute, QT_TRANSLATE_NOOP("WorkloadStallWidget", "recompute"), stall_colours::kRecompute}};

}  // namespace

Nanoseconds WorkloadStallWidget::partOf(const WorkloadJobResult& job, JobTimePart part) {
    switch (part) {
    case JobTimePart::Compute: return job.compute;
    case JobTimePart::SwapStall: return job.swapStall;
    case JobTimePart::PassiveSwap: return job.passiveSwapStall;
    case JobTimePart::Recompute: return job.recompute;
    }
    return 0;
}

WorkloadStallWidget::WorkloadStallWidget(QWidget* parent) : QWidget(parent) {
    plot_ = new QCustomPlot(this);
    plot_->setObjectName("workloadStalls");
    plot_->setMinimumHeight(180);
    plot_->legend->setVisible(true);
    plot_->legend->setFont(QFont(font().family(), 8));
    plot_->yAxis->setLabel(tr("time, all iterations (ms)"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    redraw();
}

void WorkloadStallWidget::setResult(std::shared_ptr<const WorkloadResult> result) {
    result_ = std::move(result);
    redraw();
}

void WorkloadStallWidget::redraw() {
    plot_->clearPlottables();
    if (!result_) {
        showPlotEmptyState(plot_, tr("(each job's time by part, once a workload ran)"));
        return;
    }
    clearPlotEmptyState(plot_, true);
    plot_->yAxis->setLabel(tr("time, all iterations (ms)"));
    for (auto*& b : bars_) b = nullptr;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    QVector<double> keys;
    double top = 0;
    if (result_) {
        for (size_t j = 0; j < result_->jobs.size(); ++j) {
            keys << double(j + 1);
            ticker->addTick(double(j + 1), toQString(result_->jobs[j].name));
            Nanoseconds sum = 0;
            for (const PartStyle& s : kParts) sum += partOf(result_->jobs[j], s.part);
            top = std::max(top, double(sum) / kNsPerMs);
        }
    }
    QCPBars* below = nullptr;
    for (const PartStyle& style : kParts) {
        QVector<double> values;
        if (result_)
            for (const auto& job : result_->jobs) values << double(partOf(job, style.part)) / kNsPerMs;
        below = addStackedBars(plot_, QCoreApplication::translate("WorkloadStallWidget", style.name), style.colour,
                               0.6, keys, values, below);
        bars_[static_cast<int>(style.part)] = below;
    }
    plot_->xAxis->setTicker(ticker);
    plot_->xAxis->setRange(0.4, double(keys.size()) + 0.6);
    // Head room for the legend above the bars.
    plot_->yAxis->setRange(0, std::max(top * 1.6, 1e-6));
    plot_->replot();
}

}  // namespace spillway::views
