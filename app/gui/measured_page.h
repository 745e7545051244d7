#pragma once
// The Measured tab: a measured timeline (spillway.measured/1, written by spillway-replay) opened
// beside the current run and compared with it kernel by kernel (core/analysis/
// measured_comparison): a summary (what ran where, total error, worst kernels) and the
// per-kernel error table (views::MeasuredComparisonModel, sortable). The comparison follows
// the current run (what the What-if dock simulates); a timeline of another profile, or of a run
// with a different number of kernels, is shown with the reason instead of numbers. Files are
// small and read on the GUI thread; a bad file keeps what was shown and reports the file and
// the place in it.
#include "core/deploy/measured_comparison.h"
#include "core/io/measured/measured_timeline.h"
#include "views/run_view_data.h"

#include <QWidget>

#include <functional>
#include <memory>
#include <optional>

class QLabel;
class QTableView;

namespace spillway::views {
class MeasuredComparisonModel;
}

namespace spillway::app {

class MeasuredPage : public QWidget {
    Q_OBJECT
public:
    using RunSource = std::function<std::shared_ptr<const views::RunViewData>()>;
    explicit MeasuredPage(RunSource currentRun, QWidget* parent = nullptr);

    // Reads the timeline and compares it with the current run; on a read error keeps the
    // previous timeline, emits loadFailed and (with dialogs enabled) shows a message box.
    bool openTimeline(const QString& path);
    void chooseFile();  // File > Open Measured Timeline...
    // Compares again with the current run (the window calls it when a run is shown).
    void refresh();
    void setErrorDialogsEnabled(bool enabled) { errorDialogs_ = enabled; }

    const std::optional<MeasuredTimeline>& timeline() const { return timeline_; }
    bool hasComparison() const { return compared_; }
    QString summaryText() const;
    QTableView* table() const { return table_; }
    views::MeasuredComparisonModel* model() const { return model_; }

signals:
    void timelineLoaded(const QString& path);
    void loadFailed(const QString& path, const QString& message);

private:
    void showProblem(const QString& title, const QString& message);

    RunSource currentRun_;
    std::optional<MeasuredTimeline> timeline_;
    QString path_;
    bool compared_ = false;
    bool errorDialogs_ = true;
    // profileHash of the last profile compared against (hashing is linear in the profile).
    std::shared_ptr<const Profile> hashedProfile_;
    std::string hash_;
    QLabel* summary_;
    QTableView* table_;
    views::MeasuredComparisonModel* model_;
};

}  // namespace spillway::app
