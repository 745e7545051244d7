#pragma once
// Memory timeline of one run: GPU-resident bytes over time stacked by tensor kind, the exact GPU
// total over the stack, host and SSD bytes on the right axis, the GPU capacity and the
// theoretical peak as lines. Dragging selects a time range on the shared ViewLink (double-click
// clears it); the selected tensor's GPU residency is highlighted.
#include "views/run_view_data.h"
#include "views/view_link.h"

#include <QWidget>

#include <memory>

class QCustomPlot;
class QCPItemRect;

namespace spillway::views {

class MemoryTimelineWidget : public QWidget {
    Q_OBJECT
public:
    explicit MemoryTimelineWidget(ViewLink* link, QWidget* parent = nullptr);

    // nullptr shows an empty chart.
    void setRun(std::shared_ptr<const RunViewData> run);
    // Compare mode: timelines of several runs share one time scale, the longest run's.
    void setTimeAxisEnd(Nanoseconds end);

    // What is drawn, for tests and for the app's export: values in bytes and nanoseconds.
    QCustomPlot* plot() const { return plot_; }
    int stackedKindCount() const { return stackedKinds_; }
    double capacityLineBytes() const;       // NaN when not drawn
    double theoreticalPeakLineBytes() const;  // NaN when not drawn
    TimeRange shownRange() const;           // the band drawn for the link's time range
    int highlightedIntervalCount() const { return highlighted_; }
    // Where the cursor for the link's selected kernel is drawn (its start, ns from the iteration
    // start; play mode moves it); -1 when no kernel is selected.
    Nanoseconds kernelCursorTime() const { return cursorTime_; }

private:
    void redraw();
    void showRange(TimeRange range);
    void highlightTensor(std::int64_t tensorPos);
    void selectFromPixels(int fromX, int toX);
    void showKernelCursor(std::int64_t runIndex);

    ViewLink* link_;
    std::shared_ptr<const RunViewData> run_;
    QCustomPlot* plot_;
    QCPItemRect* rangeBand_ = nullptr;
    double byteScale_ = 1.0;  // bytes per axis unit
    int stackedKinds_ = 0;
    int highlighted_ = 0;
    Nanoseconds cursorTime_ = -1;
    Nanoseconds timeAxisEnd_ = 0;
};

}  // namespace spillway::views
