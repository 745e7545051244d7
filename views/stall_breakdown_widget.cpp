#include "views/stall_breakdown_widget.h"

#include "views/format_units.h"
#include "views/plot_empty_state.h"
#include "views/plot_tooltips.h"
#include "views/stacked_bars.h"
#include "views/stall_colours.h"

#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>

namespace spillway::views {

namespace {

constexpr double kNsPerMs = 1e6;

struct PartStyle {
    StallPart part;
    const char* name;
    QColor colour;
};
const PartStyle kStacked[] = {
    {StallPart::Compute, QT_TRANSLATE_NOOP("StallBreakdownWidget", "compute"), stall_colours::kCompute},
    {StallPart::FaultStall, QT_TRANSLATE_NOOP("StallBreakdownWidget", "fault stall"), stall_colours::kFault},
    {StallPart::OversubStall, QT_TRANSLATE_NOOP("StallBreakdownWidget", "oversubscription stall"), stall_colours::kOversub},
    {StallPart::LatePrefetchStall, QT_TRANSLATE_NOOP("StallBreakdownWidget", "late-prefetch stall"), stall_colours::kLatePrefetch},
    {StallPart::NvlinkStall, QT_TRANSLATE_NOOP("StallBreakdownWidget", "NVLink stall"), stall_colours::kNvlink}};

std::array<Nanoseconds, kStallPartCount> partsOf(const KernelTiming& k) {
    return {k.compute, k.faultStall, k.oversubStall, k.latePrefetchStall, k.nvlinkStall, k.overlap};
}

bool startsIn(const KernelTiming& k, Nanoseconds iterationStart, TimeRange range) {
    const Nanoseconds start = k.start - iterationStart;
    return range.isEmpty() || (start >= range.start && start < range.end);
}

// Stacked bars over `keys`, one QCPBars per part, values in ms.
void drawStack(QCustomPlot* plot, const QVector<double>& keys,
               const std::vector<std::array<Nanoseconds, kStallPartCount>>& values, double width, bool legend) {
    QCPBars* below = nullptr;
    for (const PartStyle& style : kStacked) {
        QVector<double> v;
        for (const auto& row : values) v << double(row[static_cast<size_t>(style.part)]) / kNsPerMs;
        below = addStackedBars(plot, QCoreApplication::translate("StallBreakdownWidget", style.name), style.colour,
                               width, keys, v, below);
        if (!legend) plot->legend->removeItem(plot->legend->itemCount() - 1);
    }
}

}  // namespace

StallBreakdownWidget::StallBreakdownWidget(ViewLink* link, QWidget* parent) : QWidget(parent), link_(link) {
    runs_plot_ = new QCustomPlot(this);
    runs_plot_->setObjectName("stallBreakdownRuns");
    runs_plot_->setMinimumHeight(200);
    runs_plot_->legend->setVisible(true);
    runs_plot_->legend->setFont(QFont(font().family(), 8));
    runs_plot_->yAxis->setLabel(tr("time (ms)"));
    kernel_plot_ = new QCustomPlot(this);
    kernel_plot_->setObjectName("stallBreakdownKernels");
    // Its bars are the parts of the legend right above it, in the same colours: one legend for both.
    kernel_plot_->setProperty("legendShownBy", runs_plot_->objectName());
    kernel_plot_->setMinimumHeight(160);
    kernel_plot_->xAxis->setLabel(tr("kernel (run order; wheel zooms, drag pans)"));
    kernel_plot_->yAxis->setLabel(tr("time (ms)"));
    // Every kernel is drawn (BERT-256: 1,369); a bar thinner than a pixel is zoomed into, not left out.
    kernel_plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    kernel_plot_->axisRect()->setRangeDrag(Qt::Horizontal);
    kernel_plot_->axisRect()->setRangeZoom(Qt::Horizontal);
    connect(kernel_plot_, &QCustomPlot::plottableClick, this, [this](QCPAbstractPlottable*, int dataIndex, QMouseEvent*) {
        if (dataIndex >= 0 && dataIndex < kernelBarCount()) link_->selectKernel(kernelRunIndex_[size_t(dataIndex)]);
    });
    // Hovering a bar says which part of which run (or kernel) it is, and how long.
    installDataToolTips(runs_plot_, [this](const QCPAbstractPlottable& bars, int index) {
        const auto [key, ms] = dataPointOf(bars, index);
        const int run = int(std::llround(key - (bars.name() == tr("transfer overlap (hidden)") ? 0.34 : 0.0))) - 1;
        const QString name = run >= 0 && run < int(runs_.size()) ? runs_[size_t(run)]->name : QString();
        return tr("%1\n%2: %3").arg(name, bars.name(), formatDuration(std::llround(ms * kNsPerMs)));
    });
    installDataToolTips(kernel_plot_, [this](const QCPAbstractPlottable& bars, int index) {
        const auto [key, ms] = dataPointOf(bars, index);
        const auto k = size_t(std::llround(key));
        const auto& profile = runs_.empty() || !runs_.front()->profile ? nullptr : runs_.front()->profile->profile;
        const QString kernel = profile && k < profile->kernels.size() ? toQString(profile->kernels[k].name)
                                                                       : tr("kernel %1").arg(k);
        return tr("%1 (kernel %2)\n%3: %4").arg(kernel).arg(k).arg(bars.name(), formatDuration(std::llround(ms * kNsPerMs)));
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(runs_plot_, 3);
    layout->addWidget(kernel_plot_, 2);
    connect(link_, &ViewLink::timeRangeChanged, this, [this] { redraw(); });
    redraw();
}

void StallBreakdownWidget::setRuns(std::vector<std::shared_ptr<const RunViewData>> runs) {
    runs_ = std::move(runs);
    redraw();
}

Nanoseconds StallBreakdownWidget::shownValue(int runIndex, StallPart part) const {
    if (runIndex < 0 || runIndex >= static_cast<int>(shown_.size())) return 0;
    return shown_[size_t(runIndex)][static_cast<size_t>(part)];
}

void StallBreakdownWidget::redraw() {
    const TimeRange range = link_->timeRange();
    shown_.clear();
    for (const auto& run : runs_) {
        std::array<Nanoseconds, kStallPartCount> sum{};
        if (range.isEmpty()) {
            const StallTotals& t = run->result.totals;
            sum = {t.compute, t.faultStall, t.oversubStall, t.latePrefetchStall, t.nvlinkStall, t.overlap};
        } else {
            for (const KernelTiming& k : run->result.kernels)
                if (startsIn(k, run->iterationStart, range)) {
                    const auto parts = partsOf(k);
                    for (int p = 0; p < kStallPartCount; ++p) sum[size_t(p)] += parts[size_t(p)];
                }
        }
        shown_.push_back(sum);
    }
    runs_plot_->clearPlottables();
    if (runs_.empty()) {
        showPlotEmptyState(runs_plot_, tr("No run yet: open a profile (File ▸ Open); in Compare, add runs with "
                                          "Add Run to Comparison (Ctrl+Shift+K)."));
        drawKernels();
        return;
    }
    clearPlotEmptyState(runs_plot_, true);
    runs_plot_->yAxis->setLabel(tr("time (ms)"));
    QVector<double> keys;
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    double top = 0;
    for (size_t i = 0; i < runs_.size(); ++i) {
        keys << double(i + 1);
        ticker->addTick(double(i + 1), runs_[i]->name);
        Nanoseconds stacked = 0;
        for (const PartStyle& style : kStacked) stacked += shown_[i][static_cast<size_t>(style.part)];
        const double overlapMs = double(shown_[i][static_cast<size_t>(StallPart::Overlap)]) / kNsPerMs;
        top = std::max({top, double(stacked) / kNsPerMs, overlapMs});
    }
    drawStack(runs_plot_, keys, shown_, 0.5, true);
    // Overlap: transfer time hidden behind compute, beside its run's bar, not part of the stack.
    auto* overlap = new QCPBars(runs_plot_->xAxis, runs_plot_->yAxis);
    overlap->setName(tr("transfer overlap (hidden)"));
    overlap->setWidth(0.12);
    overlap->setPen(QPen(QColor(31, 119, 180)));
    overlap->setBrush(QBrush(QColor(31, 119, 180), Qt::BDiagPattern));
    QVector<double> ok, ov;
    for (size_t i = 0; i < shown_.size(); ++i) {
        ok << keys[int(i)] + 0.34;
        ov << double(shown_[i][static_cast<size_t>(StallPart::Overlap)]) / kNsPerMs;
    }
    overlap->setData(ok, ov, true);
    runs_plot_->xAxis->setTicker(ticker);
    runs_plot_->xAxis->setRange(0.3, double(runs_.size()) + 0.7);
    runs_plot_->yAxis->setRange(0, std::max(top, 1e-6) * 1.1);
    runs_plot_->xAxis->setLabel(range.isEmpty() ? tr("whole iteration")
                                                : tr("kernels starting in %1 – %2")
                                                      .arg(formatDuration(range.start), formatDuration(range.end)));
    runs_plot_->replot();
    drawKernels();
}

void StallBreakdownWidget::drawKernels() {
    kernel_plot_->clearPlottables();
    kernelRunIndex_.clear();
    if (runs_.empty()) {
        showPlotEmptyState(kernel_plot_, tr("(one bar per kernel of the first run)"));
        return;
    }
    clearPlotEmptyState(kernel_plot_, false);
    kernel_plot_->xAxis->setLabel(tr("kernel (run order; wheel zooms, drag pans)"));
    kernel_plot_->yAxis->setLabel(tr("time (ms)"));
    const TimeRange range = link_->timeRange();
    const auto& kernels = runs_.front()->result.kernels;
    QVector<double> keys;
    std::vector<std::array<Nanoseconds, kStallPartCount>> values;
    double top = 0;
    for (size_t i = 0; i < kernels.size(); ++i) {
        if (!startsIn(kernels[i], runs_.front()->iterationStart, range)) continue;
        kernelRunIndex_.push_back(static_cast<std::int64_t>(i));
        keys << double(i);
        values.push_back(partsOf(kernels[i]));
        top = std::max(top, double(kernels[i].end - kernels[i].start) / kNsPerMs);
    }
    drawStack(kernel_plot_, keys, values, 0.8, false);
    if (!keys.isEmpty()) kernel_plot_->xAxis->setRange(keys.front() - 1, keys.back() + 1);
    kernel_plot_->yAxis->setRange(0, std::max(top, 1e-6) * 1.1);
    kernel_plot_->replot();
}

}  // namespace spillway::views
