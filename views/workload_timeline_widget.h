#pragma once
// Memory over time of a multi-job run (issue 6): one step line per job (its own GPU bytes) and
// the system total over them, on the workload's clock (ms from the first job's start), with
// the GPU capacity and one labelled vertical line per re-plan (jobs started or ended, kernel
// times drifted), which is where the user sees the plan adapt. A shaded band marks a window
// (the iteration the run tabs show).
#include "core/sim/workload_result.h"

#include <QString>
#include <QWidget>

#include <memory>
#include <vector>

class QCustomPlot;
class QCPGraph;
class QCPItemRect;

namespace spillway::views {

class WorkloadTimelineWidget : public QWidget {
    Q_OBJECT
public:
    explicit WorkloadTimelineWidget(QWidget* parent = nullptr);

    // nullptr shows an empty chart.
    void setResult(std::shared_ptr<const WorkloadResult> result, Bytes gpuCapacity);
    // Workload-clock nanoseconds; from >= to hides the band.
    void setWindow(Nanoseconds from, Nanoseconds to);

    // What is drawn, for tests and export: x in ms from the first job's start, y in byteScale().
    QCustomPlot* plot() const { return plot_; }
    QCPGraph* jobGraph(int job) const;  // null when out of range
    QCPGraph* totalGraph() const { return total_; }
    int jobGraphCount() const { return static_cast<int>(jobGraphs_.size()); }
    double byteScale() const { return byteScale_; }
    struct Marker {
        double timeMs = 0;
        QString label;
    };
    const std::vector<Marker>& replanMarkers() const { return markers_; }
    // The band drawn by setWindow, in ms; {0, 0} when hidden.
    std::pair<double, double> windowMs() const;

    // "jobs changed: +b" / "drift: a 12%": what a re-plan marker says.
    static QString replanLabel(const ReplanEvent& event, const WorkloadResult& result);

private:
    void redraw();

    std::shared_ptr<const WorkloadResult> result_;
    Bytes capacity_ = 0;
    QCustomPlot* plot_;
    std::vector<QCPGraph*> jobGraphs_;
    QCPGraph* total_ = nullptr;
    QCPItemRect* band_ = nullptr;
    std::vector<Marker> markers_;
    double byteScale_ = 1.0;
    Nanoseconds windowFrom_ = 0, windowTo_ = 0;
};

}  // namespace spillway::views
