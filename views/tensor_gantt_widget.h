#pragma once
// Tensor lifetime Gantt chart: one row per tensor (every row that passes the filters is shown), bars for where it lived (GPU, host, SSD, in
// flight, discarded) over time or over kernel index, a tick axis with units above, a legend of
// the tier colours and the axis's name below (tier_colours.h: one palette, colour-blind safe). Rows sort and filter by kind, size and job; hovering a
// row tells size, kind, producer and consumers; clicking selects the tensor on the ViewLink, and
// the link's time range zooms the chart. Painting costs at most one bar per pixel: when there are
// more rows than pixel rows, each pixel row shows the largest tensor of the rows it covers, and
// within a row a pixel column is painted once (what is loaded is never capped, what is drawn is).
#include "views/run_view_data.h"
#include "views/view_link.h"

#include <QRectF>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace spillway::views {

class TensorGanttWidget : public QWidget {
    Q_OBJECT
public:
    enum class SortKey { FirstUse, Size, Name, Kind };
    enum class Axis { Time, KernelIndex };

    explicit TensorGanttWidget(ViewLink* link, QWidget* parent = nullptr);

    void setRun(std::shared_ptr<const RunViewData> run);
    void setSortKey(SortKey key);
    void setKindFilter(std::optional<TensorKind> kind);  // nullopt = all kinds
    void setMinimumBytes(Bytes bytes);                    // hide smaller tensors
    void setJobFilter(std::optional<JobId> job);
    void setAxis(Axis axis);
    // The horizontal window, in nanoseconds from the iteration start (Time axis) or kernel
    // indices (KernelIndex axis); zoom and pan move it.
    void setView(double from, double to);
    void zoom(double factor, double anchor);  // anchor in axis units
    void pan(double fraction);                // of the current window
    void resetView();

    // For tests and tooltips.
    int rowCount() const { return static_cast<int>(rows_.size()); }
    std::int64_t tensorAtRow(int row) const;  // tensor position
    int rowOfTensor(std::int64_t tensorPos) const;  // -1 when filtered out
    int lastPaintedBars() const { return lastPaintedBars_; }
    std::pair<double, double> view() const { return {viewFrom_, viewTo_}; }
    QString toolTipForRow(int row) const;
    // Pixel geometry of the chart area (below the header line).
    QRect chartRect() const;
    int rowAtY(int y) const;
    // Below 1 rows are taller than a pixel (at most 14 px); above 1 several rows share a pixel row.
    double rowsPerPixel() const;
    int xOf(double axisValue) const;
    // The link's selected kernel on the horizontal axis (its start), where a cursor line is
    // drawn; NaN when none. Selecting a kernel outside the window scrolls the window to it.
    double kernelCursor() const;

    static QColor colourOf(Residence where);  // tier_colours.h
    // The axis as drawn: tick values (axis units), their labels with units, the axis's name.
    std::vector<double> axisTicks() const;
    QString axisLabel(double value) const;
    QString axisTitle() const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override;

private:
    void rebuildRows();
    void showLinkWindow();
    double toAxis(Nanoseconds sinceIterationStart) const;
    double axisEnd() const;
    void followKernel(std::int64_t runIndex);
    void paintAxis(class QPainter& p) const;
    void paintLegend(class QPainter& p) const;

    ViewLink* link_;
    std::shared_ptr<const RunViewData> run_;
    std::vector<std::int64_t> rows_;  // tensor positions, sorted and filtered
    SortKey sortKey_ = SortKey::FirstUse;
    std::optional<TensorKind> kindFilter_;
    std::optional<JobId> jobFilter_;
    Bytes minimumBytes_ = 0;
    Axis axis_ = Axis::Time;
    double viewFrom_ = 0, viewTo_ = 1;
    int lastPaintedBars_ = 0;
    std::optional<QPoint> dragFrom_;
    double dragViewFrom_ = 0;
};

}  // namespace spillway::views
