#include "views/memory_timeline_widget.h"

#include "views/format_units.h"
#include "views/time_window.h"

#include <QMouseEvent>
#include <QToolTip>
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

// Okabe-Ito: told apart by readers with any common colour-vision deficiency.
QColor kindColour(TensorKind kind) {
    switch (kind) {
    case TensorKind::Weight: return QColor(0, 114, 178);
    case TensorKind::OptimizerState: return QColor(204, 121, 167);
    case TensorKind::Gradient: return QColor(213, 94, 0);
    case TensorKind::Activation: return QColor(0, 158, 115);
    case TensorKind::Input: return QColor(86, 180, 233);
    case TensorKind::Workspace: return QColor(230, 159, 0);
    case TensorKind::Temporary: return QColor(153, 153, 153);
    }
    return Qt::gray;
}

double nanIfMissing(const QCustomPlot* plot, const char* name) {
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* line = qobject_cast<QCPItemStraightLine*>(plot->item(i)); line && line->objectName() == name)
            return line->point1->coords().y();
    return std::numeric_limits<double>::quiet_NaN();
}

// The last residency sample at or before `time` (absolute ns), or null.
const ResidencySample* sampleAt(const std::vector<ResidencySample>& samples, Nanoseconds time) {
    auto it = std::upper_bound(samples.begin(), samples.end(), time,
                               [](Nanoseconds t, const ResidencySample& s) { return t < s.time; });
    return it == samples.begin() ? nullptr : &*std::prev(it);
}

}  // namespace

MemoryTimelineWidget::MemoryTimelineWidget(ViewLink* link, QWidget* parent) : QWidget(parent), link_(link) {
    plot_ = new QCustomPlot(this);
    plot_->setObjectName("memoryTimeline");
    plot_->setMinimumHeight(260);
    plot_->setNoAntialiasingOnDrag(true);
    plot_->setMouseTracking(true);
    plot_->xAxis->setLabel(tr("time (ms)"));
    // Host and SSD under the GPU chart, on an axis of their own, the same time scale; the legend
    // under both (never over the data).
    offGpu_ = new QCPAxisRect(plot_);
    offGpu_->setObjectName("offGpuRect");
    offGpu_->axis(QCPAxis::atBottom)->setLabel(tr("time (ms)"));
    plot_->plotLayout()->addElement(1, 0, offGpu_);
    auto* margins = new QCPMarginGroup(plot_);
    plot_->axisRect()->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    offGpu_->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    plot_->axisRect()->insetLayout()->take(plot_->legend);
    plot_->plotLayout()->addElement(2, 0, plot_->legend);
    plot_->legend->setVisible(true);
    plot_->legend->setFont(QFont(font().family(), 8));
    plot_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot_->legend->setWrap(5);
    plot_->plotLayout()->setRowStretchFactor(0, 3);
    plot_->plotLayout()->setRowStretchFactor(1, 1);
    plot_->plotLayout()->setRowStretchFactor(2, 0.001);
    connect(plot_->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), offGpu_->axis(QCPAxis::atBottom),
            qOverload<const QCPRange&>(&QCPAxis::setRange));
    // A drag draws a selection rectangle; its horizontal extent becomes the shared time range.
    plot_->setSelectionRectMode(QCP::srmCustom);
    connect(plot_->selectionRect(), &QCPSelectionRect::accepted, this,
            [this](const QRect& rect, QMouseEvent*) { selectFromPixels(rect.left(), rect.right()); });
    connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent*) { link_->clearTimeRange(); });
    // The wheel zooms the shared window, which the x axis shows, around the time under the cursor.
    connect(plot_, &QCustomPlot::mouseWheel, this, [this](QWheelEvent* event) {
        if (!run_ || event->angleDelta().y() == 0) return;
        const double anchor = plot_->xAxis->pixelToCoord(event->position().x()) * kNsPerMs;
        link_->setTimeRange(zoomWindow(link_->timeRange(), run_->result.iterationTime,
                                       event->angleDelta().y() > 0 ? 1.25 : 0.8, anchor));
    });
    plot_->installEventFilter(this);
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

void MemoryTimelineWidget::selectFromPixels(int fromX, int toX) {
    if (!run_) return;
    const double a = plot_->xAxis->pixelToCoord(fromX) * kNsPerMs;
    const double b = plot_->xAxis->pixelToCoord(toX) * kNsPerMs;
    const double end = double(run_->result.iterationTime);
    auto clamp = [&](double v) { return static_cast<Nanoseconds>(std::llround(std::clamp(v, 0.0, end))); };
    link_->setTimeRange({clamp(std::min(a, b)), clamp(std::max(a, b))});
}

// Shift+drag or a middle-button drag pans the window; a plain drag stays the selection. The
// hover readout follows the mouse when no button is held.
bool MemoryTimelineWidget::eventFilter(QObject* watched, QEvent* event) {
    if (watched != plot_ || !run_) return QWidget::eventFilter(watched, event);
    auto* mouse = dynamic_cast<QMouseEvent*>(event);
    if (!mouse) return QWidget::eventFilter(watched, event);
    const bool panButton = mouse->button() == Qt::MiddleButton ||
                           (mouse->button() == Qt::LeftButton && (mouse->modifiers() & Qt::ShiftModifier));
    if (event->type() == QEvent::MouseButtonPress && panButton) {
        panFrom_ = mouse->position().toPoint();
        return true;  // not the selection rectangle
    }
    if (event->type() == QEvent::MouseMove && panFrom_) {
        panBy(mouse->position().x() - panFrom_->x());
        panFrom_ = mouse->position().toPoint();
        return true;
    }
    if (event->type() == QEvent::MouseButtonRelease && panFrom_) {
        panFrom_.reset();
        return true;
    }
    if (event->type() == QEvent::MouseMove && mouse->buttons() == Qt::NoButton) {
        const double ms = plot_->xAxis->pixelToCoord(mouse->position().x());
        const QString text = readoutAt(static_cast<Nanoseconds>(std::llround(ms * kNsPerMs)));
        QToolTip::showText(mouse->globalPosition().toPoint(), text, plot_);
    }
    return QWidget::eventFilter(watched, event);
}

void MemoryTimelineWidget::panBy(double pixels) {
    const double width = plot_->axisRect()->width();
    if (width <= 0) return;
    // Dragging right shows earlier times.
    link_->setTimeRange(panWindow(link_->timeRange(), run_->result.iterationTime, -pixels / width));
}

QString MemoryTimelineWidget::readoutAt(Nanoseconds time) const {
    if (!run_) return {};
    const auto& r = run_->result;
    QStringList lines{tr("%1 ms").arg(double(time) / kNsPerMs, 0, 'f', 3)};
    // The run replays the profile's order: run index i is the profile's kernel i.
    for (size_t i = 0; i < r.kernels.size(); ++i)
        if (r.kernels[i].start - run_->iterationStart <= time && time < r.kernels[i].end - run_->iterationStart) {
            const bool named = run_->profile && i < run_->profile->profile->kernels.size();
            lines << tr("kernel %1").arg(named ? toQString(run_->profile->profile->kernels[i].name) : QString::number(i));
            break;
        }
    auto step = std::upper_bound(run_->gpuByKind.begin(), run_->gpuByKind.end(), time,
                                 [](Nanoseconds t, const KindStep& s) { return t < s.time; });
    if (step != run_->gpuByKind.begin()) {
        const KindStep& s = *std::prev(step);
        for (TensorKind kind : kStackOrder)
            if (Bytes b = s.bytes[static_cast<size_t>(kind)]; b > 0)
                lines << tr("%1 on the GPU: %2").arg(toQString(toString(kind)), formatBytes(b));
    }
    if (const ResidencySample* s = sampleAt(r.residency, time + run_->iterationStart))
        lines << tr("GPU total (resident pages): %1").arg(formatBytes(s->gpu))
              << tr("host: %1").arg(formatBytes(s->host)) << tr("SSD: %1").arg(formatBytes(s->ssd));
    return lines.join('\n');
}

// One cumulative step graph per kind present, filled down to the one below; returns the top.
Bytes MemoryTimelineWidget::drawKindStack() {
    const double endMs = double(run_->result.iterationTime) / kNsPerMs;
    QVector<double> below(int(run_->gpuByKind.size()) + 1, 0.0);
    QCPGraph* previous = nullptr;
    double top = 0;
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
            top = std::max(top, below[int(i)]);
        }
        x << endMs;
        y << (y.isEmpty() ? 0.0 : y.back());
        auto* graph = plot_->addGraph();
        graph->setName(toQString(toString(kind)));
        graph->setLineStyle(QCPGraph::lsStepLeft);
        const QColor colour = kindColour(kind);
        graph->setPen(QPen(colour.darker(120), 1));
        graph->setBrush(QColor(colour.red(), colour.green(), colour.blue(), 170));
        if (previous) graph->setChannelFillGraph(previous);
        graph->setData(x, y, true);
        previous = graph;
        ++stackedKinds_;
    }
    return static_cast<Bytes>(top * byteScale_);
}

// The simulator's residency samples: the GPU total over the stack (it counts resident pages, so
// a partly resident tensor and page rounding make it differ from the whole tensors the stack
// adds up: the legend says so), host and SSD in the chart below.
void MemoryTimelineWidget::drawTotals(double endMs) {
    const auto& r = run_->result;
    auto series = [&](const QString& name, QColor colour, Qt::PenStyle style, QCPAxis* x, QCPAxis* y, auto value) {
        QVector<double> xs, ys;
        for (const ResidencySample& s : r.residency) {
            xs << double(s.time - run_->iterationStart) / kNsPerMs;
            ys << double(value(s)) / byteScale_;
        }
        if (!xs.isEmpty()) {
            xs << endMs;
            ys << ys.back();
        }
        auto* graph = plot_->addGraph(x, y);
        graph->setName(name);
        graph->setLineStyle(QCPGraph::lsStepLeft);
        graph->setPen(QPen(colour, 1.5, style));
        graph->setData(xs, ys, true);
    };
    QCPAxis* offX = offGpu_->axis(QCPAxis::atBottom);
    QCPAxis* offY = offGpu_->axis(QCPAxis::atLeft);
    series(tr("GPU total (resident pages; the stack adds whole tensors)"), Qt::black, Qt::SolidLine, plot_->xAxis,
           plot_->yAxis, [](const ResidencySample& s) { return s.gpu; });
    series(tr("host"), QColor(0, 114, 178), Qt::SolidLine, offX, offY, [](const ResidencySample& s) { return s.host; });
    series(tr("SSD"), QColor(213, 94, 0), Qt::DashLine, offX, offY, [](const ResidencySample& s) { return s.ssd; });
}

// A level across the GPU chart, named in the legend (an empty graph carries the entry), not over
// the data.
void MemoryTimelineWidget::drawLevel(const char* name, Bytes bytes, QColor colour, const QString& label) {
    auto* line = new QCPItemStraightLine(plot_);
    line->setObjectName(name);
    line->point1->setCoords(0, double(bytes) / byteScale_);
    line->point2->setCoords(1, double(bytes) / byteScale_);
    const QPen pen(colour, 1.5, Qt::DashDotLine);
    line->setPen(pen);
    auto* entry = plot_->addGraph();
    entry->setName(label);
    entry->setPen(pen);  // no data: it draws nothing but its legend sample, a piece of the line
}

void MemoryTimelineWidget::placeAxes(Bytes top) {
    QString unit;
    std::tie(byteScale_, unit) = byteAxisUnit(top);
    plot_->yAxis->setLabel(tr("on the GPU (%1)").arg(unit));
    plot_->xAxis->setLabel(QString());  // the chart below carries the time axis's name
    offGpu_->axis(QCPAxis::atLeft)->setLabel(tr("host / SSD (%1)").arg(unit));
}

void MemoryTimelineWidget::redraw() {
    plot_->clearGraphs();
    plot_->clearItems();
    stackedKinds_ = 0;
    highlighted_ = 0;
    cursorTime_ = -1;
    if (!run_) {
        plot_->yAxis->setLabel(tr("on the GPU"));
        offGpu_->axis(QCPAxis::atLeft)->setLabel(tr("host / SSD"));
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
    Bytes offGpu = 1;
    for (const ResidencySample& s : r.residency) offGpu = std::max({offGpu, s.host, s.ssd});
    const double endMs = double(r.iterationTime) / kNsPerMs;
    placeAxes(std::max(top, offGpu));
    drawKindStack();
    drawTotals(endMs);
    drawLevel("capacityLine", run_->hardware.gpuCapacity, QColor(200, 0, 0),
              tr("GPU capacity %1").arg(formatBytes(run_->hardware.gpuCapacity)));
    if (run_->theoreticalPeak > 0)
        drawLevel("theoreticalPeakLine", run_->theoreticalPeak, QColor(90, 90, 90),
                  tr("theoretical peak %1").arg(formatBytes(run_->theoreticalPeak)));
    plot_->yAxis->setRange(0, double(top) / byteScale_ * 1.1);
    offGpu_->axis(QCPAxis::atLeft)->setRange(0, double(offGpu) / byteScale_ * 1.1);
    showRange(link_->timeRange());
    highlightTensor(link_->selectedTensor());
    showKernelCursor(link_->selectedKernel());
}

// The x axis shows the link's window, or the whole iteration (the longest run's in compare mode).
void MemoryTimelineWidget::showRange(TimeRange range) {
    shown_ = range;
    const Nanoseconds end = std::max<Nanoseconds>(run_ ? run_->result.iterationTime : 0, timeAxisEnd_);
    if (range.isEmpty()) plot_->xAxis->setRange(0, std::max(double(end) / kNsPerMs, 1e-3));
    else plot_->xAxis->setRange(double(range.start) / kNsPerMs, double(range.end) / kNsPerMs);
    plot_->replot();
}

void MemoryTimelineWidget::highlightTensor(std::int64_t tensorPos) {
    for (int i = plot_->itemCount() - 1; i >= 0; --i)
        if (plot_->item(i)->objectName() == "tensorHighlight") plot_->removeItem(i);
    highlighted_ = 0;
    if (run_ && tensorPos >= 0 && tensorPos < static_cast<std::int64_t>(run_->result.tensorResidency.size())) {
        for (const ResidencyInterval& iv : run_->result.tensorResidency[static_cast<size_t>(tensorPos)]) {
            if (iv.where != Residence::Gpu) continue;
            // A strip along the top of the plot while the tensor is on the GPU: black edged, so it
            // stands out over every kind's colour.
            auto* strip = new QCPItemRect(plot_);
            strip->setObjectName("tensorHighlight");
            strip->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
            strip->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
            strip->topLeft->setCoords(double(iv.start - run_->iterationStart) / kNsPerMs, 0.0);
            strip->bottomRight->setCoords(double(iv.end - run_->iterationStart) / kNsPerMs, 0.04);
            strip->setPen(QPen(Qt::black, 1));
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
