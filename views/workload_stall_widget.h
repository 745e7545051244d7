#pragma once
// Where each job's time went in a multi-job run (issue 6): one stacked bar per job, compute,
// swap stall, passive swap and recompute (ms, all its iterations), which sum to the job's
// kernel windows exactly (core/sim/workload_result.h).
#include "core/sim/workload_result.h"

#include <QWidget>

#include <memory>

class QCustomPlot;
class QCPBars;

namespace spillway::views {

enum class JobTimePart { Compute, SwapStall, PassiveSwap, Recompute };
inline constexpr int kJobTimePartCount = 4;

class WorkloadStallWidget : public QWidget {
    Q_OBJECT
public:
    explicit WorkloadStallWidget(QWidget* parent = nullptr);

    void setResult(std::shared_ptr<const WorkloadResult> result);

    // What is drawn (tests, export): bar key j + 1 is job j, values in ms.
    QCustomPlot* plot() const { return plot_; }
    QCPBars* bars(JobTimePart part) const { return bars_[static_cast<int>(part)]; }
    static Nanoseconds partOf(const WorkloadJobResult& job, JobTimePart part);

private:
    void redraw();

    std::shared_ptr<const WorkloadResult> result_;
    QCustomPlot* plot_;
    QCPBars* bars_[kJobTimePartCount] = {};
};

}  // namespace spillway::views
