#pragma once
// Memory timeline of one run: GPU-resident bytes over time stacked by tensor kind, the GPU total
// over the stack, the GPU capacity and the theoretical peak as lines, and below, on an axis of
// their own, the bytes on the host and on the SSD. The legend sits under the charts, never over
// the data. The x axis shows the shared ViewLink window (the whole iteration when none): the
// wheel zooms it around the cursor, Shift+drag or a middle-button drag pans it, a drag selects a
// time range (which the window then shows), a double-click shows the whole iteration again.
// Hovering reads out the time, the kernel running, the bytes per kind and per tier. The selected
// tensor's GPU residency is highlighted.
#include "views/run_view_data.h"
#include "views/view_link.h"

#include <QPoint>
#include <QWidget>

#include <memory>
#include <optional>

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
    TimeRange shownRange() const { return shown_; }  // the link's time range the x axis shows
    // The hover readout at `time` (ns from the iteration start): time, kernel, bytes per kind
    // on the GPU, GPU total, host, SSD. Empty without a run.
    QString readoutAt(Nanoseconds time) const;
    class QCPAxisRect* offGpuRect() const { return offGpu_; }
    int highlightedIntervalCount() const { return highlighted_; }
    // Where the cursor for the link's selected kernel is drawn (its start, ns from the iteration
    // start; play mode moves it); -1 when no kernel is selected.
    Nanoseconds kernelCursorTime() const { return cursorTime_; }

private:
    void redraw();
    Bytes drawKindStack();
    void drawTotals(double endMs);
    void drawLevel(const char* name, Bytes bytes, QColor colour, const QString& label);
    void placeAxes(Bytes top);
    void panBy(double pixels);
    bool eventFilter(QObject* watched, QEvent* event) override;
    void showRange(TimeRange range);
    void highlightTensor(std::int64_t tensorPos);
    void selectFromPixels(int fromX, int toX);
    void showKernelCursor(std::int64_t runIndex);

    ViewLink* link_;
    std::shared_ptr<const RunViewData> run_;
    QCustomPlot* plot_;
    class QCPAxisRect* offGpu_ = nullptr;  // host and SSD, under the GPU chart
    TimeRange shown_;
    std::optional<QPoint> panFrom_;
    double byteScale_ = 1.0;  // bytes per axis unit
    int stackedKinds_ = 0;
    int highlighted_ = 0;
    Nanoseconds cursorTime_ = -1;
    Nanoseconds timeAxisEnd_ = 0;
};

}  // namespace spillway::views
