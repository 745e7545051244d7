#pragma once
// The Measured tab: a measured timeline (spillway.measured/1, written by spillway-replay) opened
// beside the current run and compared with it kernel by kernel (core/analysis/
// measured_comparison): a summary (what ran where, total error, worst kernels) and the
// per-kernel error table (views::MeasuredComparisonModel, sortable). The comparison follows
// the current run (what the What-if dock simulates); a timeline of another profile, or of a run
// with a different number of kernels, is shown with the reason instead of numbers. Files are
// small and read on the GUI thread; a bad file keeps what was shown and reports the file and
// the place in it.
//
// "Compare with the replay model…" re-simulates the timeline on the machine it ran on
// (runtime/replay/replay_model_comparison.h: the plan that ran, a preset or a spillway-calibrate
// file, the calls the replay made): the model's numbers, where the difference is, and a Why
// column in the table, which then shows either comparison. Worked out on the GUI thread: the
// recorded g10 replay (390 kernels, 3 iterations) takes 0.13 s with its files read (docs/app.md).
#include "core/deploy/measured_comparison.h"
#include "core/io/measured/measured_timeline.h"
#include "views/run_view_data.h"

#include <QString>

#include <QWidget>

#include <functional>
#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QPushButton;
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
    // The open timeline against the replay model on `machine` (a preset id or a
    // spillway.hardware/1 file) for the plan at `planPath`, which must be the plan that ran, of
    // the current run's profile. False, with the reason beside the button (and a message box
    // with dialogs on), when it cannot; what was shown stays.
    bool compareWithReplayModel(const QString& planPath, const QString& machine);
    void chooseReplayModel();  // the button: asks for the plan and the machine
    bool hasModelComparison() const { return modelComparison_.has_value(); }
    QString modelSummaryText() const;
    // The table shows the replay model's comparison (true) or the current run's.
    void showModelInTable(bool model);
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
    struct ModelComparison {
        MeasuredComparison comparison;
        std::vector<QString> why;  // per kernel in run order
    };
    void showProblem(const QString& title, const QString& message);
    bool modelProblem(const QString& message);
    void showTable();
    // profileHash of `profile`, kept for the last profile asked about (hashing is linear in it).
    const std::string& hashOf(const std::shared_ptr<const Profile>& profile);

    RunSource currentRun_;
    std::optional<MeasuredTimeline> timeline_;
    QString path_;
    bool compared_ = false;
    bool errorDialogs_ = true;
    std::shared_ptr<const Profile> hashedProfile_;  // hashOf's last profile and its hash
    std::string hash_;
    QLabel* summary_;
    QLabel* modelSummary_;
    QPushButton* modelButton_;
    QComboBox* tableSource_;
    QTableView* table_;
    std::optional<MeasuredComparison> runComparison_;
    std::optional<ModelComparison> modelComparison_;
    views::MeasuredComparisonModel* model_;
};

}  // namespace spillway::app
