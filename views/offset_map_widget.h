#pragma once
// Offset map: the arena of a placement, address up against time (ticks of the run order) across,
// one rectangle per buffer, free space left blank, the step with the most live bytes marked, and
// the arena, lower bound and fragmentation written above, the address ticks (bytes) on the left,
// the tick axis and its name under each panel, and a legend of the colours and lines below; the
// selected tensor is framed black around white (tier_colours.h). Several placements of one problem
// draw side by side on the same address scale so they compare at a glance. Clicking a buffer
// that stands for a tensor selects it on the ViewLink; the selected tensor is outlined.
#include "core/layout/allocation_problem.h"
#include "views/view_link.h"

#include <QString>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

namespace spillway::views {

struct PlacedArena {
    QString name;  // "exact", "caching-allocator" ...
    AllocationProblem problem;
    Layout layout;
};

class OffsetMapWidget : public QWidget {
    Q_OBJECT
public:
    explicit OffsetMapWidget(ViewLink* link, QWidget* parent = nullptr);

    void setArenas(std::vector<std::shared_ptr<const PlacedArena>> arenas);

    int panelCount() const { return static_cast<int>(panels_.size()); }
    QRect panelRect(int panel) const;                 // the drawing area of one arena
    std::int64_t peakTick(int panel) const;           // first tick with the most live bytes
    double fragmentation(int panel) const;            // (arena - lower bound) / arena
    std::optional<size_t> bufferAt(int panel, QPoint pixel) const;
    QPoint pixelOf(int panel, std::int64_t tick, Bytes offset) const;
    QString toolTipAt(QPoint pixel) const;
    // The axes as drawn: address ticks (bytes) on the shared scale, a panel's tick ticks, the names.
    std::vector<double> addressTicks() const;
    std::vector<double> tickTicks(int panel) const;
    QString addressAxisTitle() const;
    QString tickAxisTitle() const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct Panel {
        std::shared_ptr<const PlacedArena> arena;
        Bytes arenaBytes = 0;
        Bytes lowerBound = 0;
        std::int64_t firstTick = 0, endTick = 1;
        std::int64_t peakTick = 0;
    };
    int panelAt(QPoint pixel) const;
    void paintAxes(class QPainter& p) const;
    void paintLegend(class QPainter& p) const;
    Bytes scaleTop() const;  // the address shared by every panel's top edge

    ViewLink* link_;
    std::vector<Panel> panels_;
};

}  // namespace spillway::views
