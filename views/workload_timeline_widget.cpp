#include "views/workload_timeline_widget.h"

#include "views/format_units.h"
#include "views/plot_empty_state.h"
#include "views/time_band.h"

#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>

namespace spillway::views {

namespace {

constexpr double kNsPerMs = 1e6;

QColor jobColour(int job) {
    static const QColor palette[] = {QColor(31, 119, 180), QColor(255, 127, 14), QColor(44, 160, 44),
                                     QColor(214, 39, 40),  QColor(148, 103, 189), QColor(140, 86, 75),
                                     QColor(227, 119, 194), QColor(188, 189, 34)};
    return palette[job % 8];
}

QString jobNames(const std::vector<int>& jobs, const WorkloadResult& result) {
    QStringList names;
    for (int j : jobs)
        names << (j >= 0 && j < static_cast<int>(result.jobs.size()) ? toQString(result.jobs[size_t(j)].name)
                                                                     : QString::number(j));
    return names.join(QStringLiteral(", "));
}

}  // namespace

QString WorkloadTimelineWidget::replanLabel(const ReplanEvent& event, const WorkloadResult& result) {
    if (event.reason == ReplanReason::JobsChanged) {
        QStringList parts;
        if (!event.started.empty()) parts << QStringLiteral("+") + jobNames(event.started, result);
        if (!event.ended.empty()) parts << QStringLiteral("-") + jobNames(event.ended, result);
        return tr("jobs changed: %1").arg(parts.join(QStringLiteral(" ")));
    }
    // Drift: the job that drifted most, and by how much.
    size_t most = 0;
    for (size_t i = 1; i < event.driftPpm.size(); ++i)
        if (event.driftPpm[i] > event.driftPpm[most]) most = i;
    if (event.jobs.empty() || event.driftPpm.empty()) return tr("drift");
    return tr("drift: %1 %2%").arg(jobNames({event.jobs[most]}, result)).arg(double(event.driftPpm[most]) / 1e4, 0, 'f', 0);
}

WorkloadTimelineWidget::WorkloadTimelineWidget(QWidget* parent) : QWidget(parent) {
    plot_ = new QCustomPlot(this);
    plot_->setObjectName("workloadTimeline");
    plot_->setMinimumHeight(220);
    plot_->xAxis->setLabel(tr("time since the first job started (ms)"));
    plot_->legend->setVisible(true);
    plot_->legend->setFont(QFont(font().family(), 8));
    // Top left: the capacity's label is at the right end of its line.
    plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->axisRect()->setRangeDrag(Qt::Horizontal);
    plot_->axisRect()->setRangeZoom(Qt::Horizontal);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    redraw();
}

void WorkloadTimelineWidget::setResult(std::shared_ptr<const WorkloadResult> result, Bytes gpuCapacity) {
    result_ = std::move(result);
    capacity_ = gpuCapacity;
    windowFrom_ = windowTo_ = 0;
    redraw();
}

QCPGraph* WorkloadTimelineWidget::jobGraph(int job) const {
    return job >= 0 && job < jobGraphCount() ? jobGraphs_[size_t(job)] : nullptr;
}

void WorkloadTimelineWidget::setWindow(Nanoseconds from, Nanoseconds to) {
    windowFrom_ = from;
    windowTo_ = to;
    if (!band_ || !result_) return;
    band_->setVisible(to > from);
    band_->topLeft->setCoords(double(from - result_->start) / kNsPerMs, 0);
    band_->bottomRight->setCoords(double(to - result_->start) / kNsPerMs, 1);
    plot_->replot();
}

std::pair<double, double> WorkloadTimelineWidget::windowMs() const {
    if (!band_ || !band_->visible()) return {0, 0};
    return {band_->topLeft->coords().x(), band_->bottomRight->coords().x()};
}

void WorkloadTimelineWidget::redraw() {
    plot_->clearGraphs();
    plot_->clearItems();
    jobGraphs_.clear();
    total_ = nullptr;
    band_ = nullptr;
    markers_.clear();
    if (!result_) {
        showPlotEmptyState(plot_, tr("No workload run yet: open a workload (spillway.workload/1) with File ▸ Open, "
                                     "pick a policy and Run."));
        return;
    }
    clearPlotEmptyState(plot_, true);
    plot_->xAxis->setLabel(tr("time since the first job started (ms)"));
    const WorkloadResult& r = *result_;
    const Bytes top = std::max({capacity_, r.peakGpuBytes, Bytes(1)});
    QString unit;
    std::tie(byteScale_, unit) = byteAxisUnit(top);
    // Each sample holds from its time until the next one: a left step line through the samples
    // as they are (no point added), so what is plotted is exactly what the simulator recorded.
    auto series = [&](const std::vector<MemorySample>& samples, const QString& name, QPen pen) {
        QVector<double> x, y;
        for (const MemorySample& s : samples) {
            x << double(s.time - r.start) / kNsPerMs;
            y << double(s.bytes) / byteScale_;
        }
        auto* graph = plot_->addGraph();
        graph->setName(name);
        graph->setLineStyle(QCPGraph::lsStepLeft);
        graph->setPen(pen);
        graph->setData(x, y, true);
        return graph;
    };
    for (size_t j = 0; j < r.jobs.size(); ++j)
        jobGraphs_.push_back(series(r.jobs[j].memory, toQString(r.jobs[j].name), QPen(jobColour(int(j)), 1.5)));
    total_ = series(r.memory, tr("all jobs"), QPen(Qt::black, 2));
    const double endMs = std::max(double(r.end - r.start) / kNsPerMs, 1e-6);
    if (capacity_ > 0) {
        auto* line = new QCPItemStraightLine(plot_);
        line->setObjectName("capacityLine");
        line->point1->setCoords(0, double(capacity_) / byteScale_);
        line->point2->setCoords(1, double(capacity_) / byteScale_);
        line->setPen(QPen(Qt::red, 1.5, Qt::DashDotLine));
        auto* text = new QCPItemText(plot_);
        text->position->setCoords(endMs, double(capacity_) / byteScale_);
        text->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
        text->setText(tr("GPU capacity %1").arg(formatBytes(capacity_)));
        text->setColor(Qt::red);
    }
    // Re-plans: a vertical line each, labelled just right of it, reading upwards from the bottom
    // (rotated -90 degrees, the text's top edge faces right: anchored at its left and top).
    for (const ReplanEvent& event : r.replans) {
        const double x = double(event.time - r.start) / kNsPerMs;
        const QColor colour = event.reason == ReplanReason::JobsChanged ? QColor(0, 110, 0) : QColor(150, 90, 0);
        auto* line = new QCPItemStraightLine(plot_);
        line->setObjectName("replanMarker");
        line->point1->setCoords(x, 0);
        line->point2->setCoords(x, 1);
        line->setPen(QPen(colour, 1, Qt::DashLine));
        auto* text = new QCPItemText(plot_);
        text->setObjectName("replanLabel");
        text->position->setTypeX(QCPItemPosition::ptPlotCoords);
        text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        text->position->setCoords(x, 0.98);
        text->setRotation(-90);
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        text->setFont(QFont(font().family(), 7));
        text->setColor(colour);
        text->setBrush(QColor(255, 255, 255, 200));
        const QString label = replanLabel(event, r);
        text->setText(label);
        markers_.push_back({x, label});
    }
    band_ = addTimeBand(plot_, QStringLiteral("iterationBand"), 35);
    plot_->xAxis->setRange(0, endMs);
    plot_->yAxis->setRange(0, double(top) / byteScale_ * 1.1);
    plot_->yAxis->setLabel(tr("GPU resident (%1)").arg(unit));
    setWindow(windowFrom_, windowTo_);
    plot_->replot();
}

}  // namespace spillway::views
