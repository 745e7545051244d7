#pragma once
// Compare mode: two or more runs side by side. A list of the runs taken into the comparison
// (the first is the baseline; remove, clear, move up to make another the baseline), the
// table of differences (views::RunDifferenceModel, sortable, copied as TSV), the stall
// breakdown of every run, and one memory timeline per run on a shared time scale. Every view
// here follows the window's ViewLink, so the time range and the selections are the same as
// in the single-run tabs. Runs come in through addRun(): the what-if dock's "Add to
// Comparison" and, later, the workspace.
#include "views/run_view_data.h"

#include <QWidget>

#include <memory>
#include <vector>

class QListWidget;
class QPushButton;
class QTableView;
class QVBoxLayout;

namespace spillway::views {
class MemoryTimelineWidget;
class RunDifferenceModel;
class StallBreakdownWidget;
class ViewLink;
}  // namespace spillway::views

namespace spillway::app {

class ComparePage : public QWidget {
    Q_OBJECT
public:
    explicit ComparePage(views::ViewLink* link, QWidget* parent = nullptr);

    // Adds a run at the end (a run already in the comparison is not added twice). A run whose
    // name is taken gets " #N" so the chart and the table tell them apart.
    void addRun(std::shared_ptr<const views::RunViewData> run);
    void removeRun(int index);
    void makeBaseline(int index);
    void clear();

    const std::vector<std::shared_ptr<const views::RunViewData>>& runs() const { return runs_; }
    int runCount() const { return static_cast<int>(runs_.size()); }

    // The table as tab-separated raw numbers, also put on the clipboard by copyTable().
    QString tableTsv() const;
    void copyTable();

    QListWidget* runList() const { return list_; }
    QTableView* differenceTable() const { return table_; }
    views::RunDifferenceModel* differenceModel() const { return model_; }
    views::StallBreakdownWidget* stallBreakdown() const { return stalls_; }
    const std::vector<views::MemoryTimelineWidget*>& memoryTimelines() const { return timelines_; }
    // The parts that show time (stalls, the timelines), for the arrow keys; not the list and
    // the table, which keep their own arrows.
    QList<QWidget*> timeViews() const;

signals:
    void runsChanged(int count);

private:
    void rebuild();

    views::ViewLink* link_;
    std::vector<std::shared_ptr<const views::RunViewData>> runs_;
    QListWidget* list_;
    QPushButton* removeButton_;
    QPushButton* baselineButton_;
    QPushButton* clearButton_;
    QPushButton* copyButton_;
    QTableView* table_;
    views::RunDifferenceModel* model_;
    views::StallBreakdownWidget* stalls_;
    QWidget* timelineBox_;
    QVBoxLayout* timelineLayout_;
    std::vector<views::MemoryTimelineWidget*> timelines_;
};

}  // namespace spillway::app
