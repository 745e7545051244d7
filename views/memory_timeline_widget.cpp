#include "views/memory_timeline_widget.h"

#include "views/format_units.h"
#include "views/time_band.h"
#include "views/time_window.h"

#include <QVBoxLayout>
#include <qcustomplot.h>

#include <cmath>
#include <limits>

namespace spillway::views {

namespace {

constexpr double kNsPerMs = 1e6;

// Kinds bottom to top: what stays longest at the bottom, so the churn is on top.
const TensorKind kStackOrder[] = {TensorKind::Weight,     TensorKind::OptimizerState, TensorKind::Gradient,
                                  TensorKind::Activation, TensorKind::Input,          TensorKind::Workspace,
                                  TensorKind::Temporary};

QColor kindColour(TensorKind kind) {
    switch (kind) {
    case TensorKind::Weight: return QColor(31, 119, 180);
    case TensorKind::OptimizerState: return QColor(148, 103, 189);
    case TensorKind::Gradient: return QColor(214, 39, 40);
    case TensorKind::Activation: return QColor(44, 160, 44);
    case TensorKind::Input: return QColor(140, 86, 75);
    case TensorKind::Workspace: return QColor(255, 127, 14);
    case TensorKind::Temporary: return QColor(127, 127, 127);
    }
    return Qt::gray;
}

double nanIfMissing(const QCustomPlot* plot, const char* name) {
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* line = qobject_cast<QCPItemStraightLine*>(plot->item(i)); line && line->objectName() == name)
            return line->point1->coords().y();
    return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

MemoryTimelineWidget::MemoryTimelineWidget(ViewLink* link, QWidget* parent) : QWidget(parent), link_(link) {
    plot_ = new QCustomPlot(this);
    plot_->setObjectName("memoryTimeline");
    plot_->setMinimumHeight(220);
    plot_->setNoAntialiasingOnDrag(true);
    plot_->xAxis->setLabel(tr("time (ms)"));
    plot_->yAxis2->setVisible(true);
    plot_->legend->setVisible(true);
    plot_->legend->setFont(QFont(font().family(), 8));
    plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    // A drag draws a selection rectangle; its horizontal extent becomes the shared time range.
    plot_->setSelectionRectMode(QCP::srmCustom);
    connect(plot_->selectionRect(), &QCPSelectionRect::accepted, this,
            [this](const QRect& rect, QMouseEvent*) { selectFromPixels(rect.left(), rect.right()); });
    connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent*) { link_->clearTimeRange(); });
    // The wheel zooms the shared window (the band) around the time under the cursor.
    connect(plot_, &QCustomPlot::mouseWheel, this, [this](QWheelEvent* event) {
        if (!run_ || event->angleDelta().y() == 0) return;
        const double anchor = plot_->xAxis->pixelToCoord(event->position().x()) * kNsPerMs;
        link_->setTimeRange(zoomWindow(link_->timeRange(), run_->result.iterationTime,
                                       event->angleDelta().y() > 0 ? 1.25 : 0.8, anchor));
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    connect(link_, &ViewLink::timeRangeChanged, this, &MemoryTimelineWidget::showRange);
    connect(link_, &ViewLink::selectedTensorChanged, this, &MemoryTimelineWidget::highlightTensor);
    connect(link_, &ViewLink::selectedKernelChanged, this, &MemoryTimelineWidget::showKernelCursor);
    redraw();
}

void MemoryTimelineWidget::setRun(std::shared_ptr<const RunViewData> run) {
    run_ = std::move(run);
    redraw();
}

void MemoryTimelineWidget::setTimeAxisEnd(Nanoseconds end) {
    timeAxisEnd_ = end;
    redraw();
}

double MemoryTimelineWidget::capacityLineBytes() const { return nanIfMissing(plot_, "capacityLine") * byteScale_; }

double MemoryTimelineWidget::theoreticalPeakLineBytes() const {
    return nanIfMissing(plot_, "theoreticalPeakLine") * byteScale_;
}

TimeRange MemoryTimelineWidget::shownRange() const {
    if (!rangeBand_ || !rangeBand_->visible()) return {};
    return {static_cast<Nanoseconds>(std::llround(rangeBand_->topLeft->coords().x() * kNsPerMs)),
            static_cast<Nanoseconds>(std::llround(rangeBand_->bottomRight->coords().x() * kNsPerMs))};
}

void MemoryTimelineWidget::selectFromPixels(int fromX, int toX) {
    if (!run_) return;
    const double a = plot_->xAxis->pixelToCoord(fromX) * kNsPerMs;
    const double b = plot_->xAxis->pixelToCoord(toX) * kNsPerMs;
    const double end = double(run_->result.iterationTime);
    auto clamp = [&](double v) { return static_cast<Nanoseconds>(std::llround(std::clamp(v, 0.0, end))); };
    link_->setTimeRange({clamp(std::min(a, b)), clamp(std::max(a, b))});
}

void MemoryTimelineWidget::redraw() {
    plot_->clearGraphs();
    plot_->clearItems();
    rangeBand_ = nullptr;
    stackedKinds_ = 0;
    highlighted_ = 0;
    cursorTime_ = -1;
    if (!run_) {
        plot_->replot();
        return;
    }
    const auto& r = run_->result;
    Bytes top = std::max<Bytes>({run_->hardware.gpuCapacity, run_->theoreticalPeak, r.peakGpuBytes});
    for (const KindStep& s : run_->gpuByKind) {
        Bytes sum = 0;
        for (Bytes b : s.bytes) sum += b;
        top = std::max(top, sum);
    }
    QString unit;
    std::tie(byteScale_, unit) = byteAxisUnit(top);
    const double endMs = double(r.iterationTime) / kNsPerMs;
    // The stack: one cumulative step graph per kind present, filled down to the one below.
    QVector<double> below(run_->gpuByKind.size() + 1, 0.0);
    QCPGraph* previous = nullptr;
    for (TensorKind kind : kStackOrder) {
        const size_t k = static_cast<size_t>(kind);
        bool present = false;
        for (const KindStep& s : run_->gpuByKind) present = present || s.bytes[k] > 0;
        if (!present) continue;
        QVector<double> x, y;
        for (size_t i = 0; i < run_->gpuByKind.size(); ++i) {
            below[int(i)] += double(run_->gpuByKind[i].bytes[k]) / byteScale_;
            x << double(run_->gpuByKind[i].time) / kNsPerMs;
            y << below[int(i)];
        }
        x << endMs;
        y << (y.isEmpty() ? 0.0 : y.back());
        auto* graph = plot_->addGraph();
        graph->setName(toQString(toString(kind)));
        graph->setLineStyle(QCPGraph::lsStepLeft);
        const QColor colour = kindColour(kind);
        graph->setPen(QPen(colour.darker(120), 1));
        graph->setBrush(QColor(colour.red(), colour.green(), colour.blue(), 150));
        if (previous) graph->setChannelFillGraph(previous);
        graph->setData(x, y, true);
        previous = graph;
        ++stackedKinds_;
    }
    // Exact totals from the simulator's residency samples.
    auto series = [&](const char* name, QColor colour, Qt::PenStyle style, QCPAxis* axis, auto value) {
        QVector<double> x, y;
        for (const ResidencySample& s : r.residency) {
            x << double(s.time - run_->iterationStart) / kNsPerMs;
            y << double(value(s)) / byteScale_;
        }
        if (!x.isEmpty()) {
            x << endMs;
            y << y.back();
        }
        auto* graph = plot_->addGraph(plot_->xAxis, axis);
        graph->setName(name);
        graph->setLineStyle(QCPGraph::lsStepLeft);
        graph->setPen(QPen(colour, 1.5, style));
        graph->setData(x, y, true);
    };
    series("GPU total", Qt::black, Qt::SolidLine, plot_->yAxis, [](const ResidencySample& s) { return s.gpu; });
    series("host", QColor(23, 190, 207), Qt::DashLine, plot_->yAxis2, [](const ResidencySample& s) { return s.host; });
    series("SSD", QColor(188, 189, 34), Qt::DashLine, plot_->yAxis2, [](const ResidencySample& s) { return s.ssd; });
    auto hline = [&](const char* name, Bytes bytes, QColor colour, const QString& label) {
        auto* line = new QCPItemStraightLine(plot_);
        line->setObjectName(name);
        line->point1->setCoords(0, double(bytes) / byteScale_);
        line->point2->setCoords(1, double(bytes) / byteScale_);
        line->setPen(QPen(colour, 1.5, Qt::DashDotLine));
        auto* text = new QCPItemText(plot_);
        text->setObjectName(QString(name) + "Label");
        text->position->setCoords(endMs, double(bytes) / byteScale_);
        text->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
        text->setText(label);
        text->setColor(colour);
    };
    hline("capacityLine", run_->hardware.gpuCapacity, Qt::red,
          tr("GPU capacity %1").arg(formatBytes(run_->hardware.gpuCapacity)));
    if (run_->theoreticalPeak > 0)
        hline("theoreticalPeakLine", run_->theoreticalPeak, QColor(90, 90, 90),
              tr("theoretical peak %1").arg(formatBytes(run_->theoreticalPeak)));
    Bytes offGpu = 1;
    for (const ResidencySample& s : r.residency) offGpu = std::max({offGpu, s.host, s.ssd});
    plot_->xAxis->setRange(0, std::max({endMs, double(timeAxisEnd_) / kNsPerMs, 1e-6}));
    plot_->yAxis->setRange(0, double(top) / byteScale_ * 1.1);
    plot_->yAxis->setLabel(tr("GPU resident (%1)").arg(unit));
    plot_->yAxis2->setRange(0, double(offGpu) / byteScale_ * 1.1);
    plot_->yAxis2->setLabel(tr("host / SSD (%1)").arg(unit));
    rangeBand_ = addTimeBand(plot_, QStringLiteral("timeRangeBand"), 40);
    showRange(link_->timeRange());
    highlightTensor(link_->selectedTensor());
    showKernelCursor(link_->selectedKernel());
}

void MemoryTimelineWidget::showRange(TimeRange range) {
    if (!rangeBand_) return;
    rangeBand_->setVisible(!range.isEmpty());
    rangeBand_->topLeft->setCoords(double(range.start) / kNsPerMs, 0);
    rangeBand_->bottomRight->setCoords(double(range.end) / kNsPerMs, 1);
    plot_->replot();
}

void MemoryTimelineWidget::highlightTensor(std::int64_t tensorPos) {
    for (int i = plot_->itemCount() - 1; i >= 0; --i)
        if (plot_->item(i)->objectName() == "tensorHighlight") plot_->removeItem(i);
    highlighted_ = 0;
    if (run_ && tensorPos >= 0 && tensorPos < static_cast<std::int64_t>(run_->result.tensorResidency.size())) {
        for (const ResidencyInterval& iv : run_->result.tensorResidency[static_cast<size_t>(tensorPos)]) {
            if (iv.where != Residence::Gpu) continue;
            // A strip along the top of the plot while the tensor is on the GPU.
            auto* strip = new QCPItemRect(plot_);
            strip->setObjectName("tensorHighlight");
            strip->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
            strip->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
            strip->topLeft->setCoords(double(iv.start - run_->iterationStart) / kNsPerMs, 0.0);
            strip->bottomRight->setCoords(double(iv.end - run_->iterationStart) / kNsPerMs, 0.04);
            strip->setPen(Qt::NoPen);
            strip->setBrush(QColor(255, 200, 0));
            ++highlighted_;
        }
    }
    plot_->replot();
}

// A vertical line at the selected kernel's start: the cursor play mode moves kernel by kernel.
void MemoryTimelineWidget::showKernelCursor(std::int64_t runIndex) {
    for (int i = plot_->itemCount() - 1; i >= 0; --i)
        if (plot_->item(i)->objectName() == "kernelCursor") plot_->removeItem(i);
    cursorTime_ = -1;
    if (run_ && runIndex >= 0 && runIndex < static_cast<std::int64_t>(run_->result.kernels.size())) {
        cursorTime_ = run_->result.kernels[static_cast<size_t>(runIndex)].start - run_->iterationStart;
        auto* cursor = new QCPItemStraightLine(plot_);
        cursor->setObjectName("kernelCursor");
        cursor->point1->setCoords(double(cursorTime_) / kNsPerMs, 0);
        cursor->point2->setCoords(double(cursorTime_) / kNsPerMs, 1);
        cursor->setPen(QPen(QColor(0, 90, 200), 1.5));
    }
    // Queued: play mode may move the cursor faster than the screen refreshes.
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace spillway::views
