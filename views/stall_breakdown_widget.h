#pragma once
// Where each run's time went, like MOST's Figure 1: one stacked bar per run (compute, fault stall,
// oversubscription stall, late-prefetch stall, NVLink stall on several GPUs; transfer overlap as a thin bar beside it), over
// the whole iteration or over the kernels that start in the ViewLink's time range; below, one
// bar per kernel of the first run in that range, every one of them (the wheel zooms the kernel
// axis, a drag pans it). Clicking a kernel bar selects the kernel.
#include "views/run_view_data.h"
#include "views/view_link.h"

#include <QWidget>

#include <array>
#include <memory>
#include <vector>

class QCustomPlot;

namespace spillway::views {

enum class StallPart { Compute, FaultStall, OversubStall, LatePrefetchStall, NvlinkStall, Overlap };
inline constexpr int kStallPartCount = 6;

class StallBreakdownWidget : public QWidget {
    Q_OBJECT
public:
    explicit StallBreakdownWidget(ViewLink* link, QWidget* parent = nullptr);

    void setRuns(std::vector<std::shared_ptr<const RunViewData>> runs);

    // What the bars show, in nanoseconds (tests, CSV export).
    Nanoseconds shownValue(int runIndex, StallPart part) const;
    int kernelBarCount() const { return static_cast<int>(kernelRunIndex_.size()); }
    QCustomPlot* runPlot() const { return runs_plot_; }
    QCustomPlot* kernelPlot() const { return kernel_plot_; }

private:
    void redraw();
    void drawKernels();

    ViewLink* link_;
    std::vector<std::shared_ptr<const RunViewData>> runs_;
    std::vector<std::array<Nanoseconds, kStallPartCount>> shown_;  // per run
    std::vector<std::int64_t> kernelRunIndex_;                     // bar -> kernel run index
    QCustomPlot* runs_plot_;
    QCustomPlot* kernel_plot_;
};

}  // namespace spillway::views
