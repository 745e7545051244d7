#pragma once
// The Offsets tab: the arena of the open profile as the layout planner lays it out (core/layout:
// an operator order, then a placement method), drawn by OffsetMapWidget; a second placement can
// be chosen to compare, drawn beside the first on the same address scale. Planning runs on a
// worker thread when the tab is shown or a method changes; a newer request makes an older
// result stale (it is dropped), so the map never shows a method the boxes no longer name.
#include "app/gui/latest_job.h"
#include "views/offset_map_widget.h"
#include "views/profile_view_data.h"

#include <QWidget>

#include <memory>
#include <vector>

class QComboBox;
class QLabel;

namespace spillway::app {

struct LayoutRequest {
    QString order = QStringLiteral("program");
    QString placement = QStringLiteral("best");
    QString comparePlacement;  // "" = none
    double placementSeconds = 2.0;  // time limit of the search methods (exact, best)
    double orderSecondsPerSegment = 0.25;  // roam's exact search per segment
};

struct LayoutOutcome {
    std::vector<std::shared_ptr<const views::PlacedArena>> arenas;  // one per placement asked for
    QString summary;  // theoretical peak, arena and fragmentation of each, and the time taken
    QString error;    // "" when planned
    qint64 elapsedNs = 0;
};

// Orders, builds the allocation problem, places and verifies. Buffers' origin.tensor is the
// tensor's position in the profile (what the ViewLink selects), not its id. Never throws.
LayoutOutcome planLayoutsForView(std::shared_ptr<const views::ProfileViewData> profile, const LayoutRequest& request);

class OffsetsPage : public QWidget {
    Q_OBJECT
public:
    explicit OffsetsPage(views::ViewLink* link, QWidget* parent = nullptr);

    void setProfile(std::shared_ptr<const views::ProfileViewData> profile);
    LayoutRequest request() const;
    // Sets the boxes (and plans, when shown); unknown names are ignored.
    void setMethods(const QString& order, const QString& placement, const QString& comparePlacement = {});

    views::OffsetMapWidget* offsetMap() const { return map_; }
    QComboBox* orderBox() const { return order_; }
    QComboBox* placementBox() const { return placement_; }
    QComboBox* compareBox() const { return compare_; }
    QString summaryText() const;
    // Until every planning job is back, a stale one included.
    bool isPlanning() const { return planning_.unfinished() > 0; }

signals:
    void layoutsShown(qint64 elapsedNs);
    void planFailed(const QString& message);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void planIfShown();
    void showLayouts(const LayoutOutcome& outcome);

    views::ViewLink* link_;
    views::OffsetMapWidget* map_;
    QComboBox* order_;
    QComboBox* placement_;
    QComboBox* compare_;
    QLabel* summary_;
    std::shared_ptr<const views::ProfileViewData> profile_;
    bool dirty_ = true;
    LatestJob<LayoutOutcome> planning_{this};
};

}  // namespace spillway::app
