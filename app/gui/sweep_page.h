#pragma once
// The Sweep tab: which hardware value to sweep, over which values, for which policies; Run
// sweeps on the worker pool (every cell in parallel) with a progress bar and Cancel, on the
// what-if machine, and the SweepWidget draws the speedups when it finishes. "batch profiles"
// sweeps the batch size instead: one profile per batch (files, or profiles of the workspace),
// loaded and then run on the same worker, each on the what-if machine. "Open results…" shows a
// sweep that ran elsewhere (a spillway.sweep/1 file, as `spillway-cli reproduce` writes) exactly
// as one that ran here. The "Sweep table" pane beside it explores a merged design sweep
// (sweep_table_panel.h).
#include "app/gui/latest_job.h"
#include "app/gui/sweep_profile_list.h"
#include "core/sweep/parameter_sweep.h"
#include "views/profile_view_data.h"
#include "views/what_if_settings.h"

#include <QWidget>

#include <atomic>
#include <functional>
#include <memory>

class QComboBox;
class QFormLayout;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QLabel;
class QTabWidget;

namespace spillway::views {
class SweepWidget;
}

namespace spillway::app {

struct SweepOutcome;
class SweepTablePanel;

class SweepPage : public QWidget {
    Q_OBJECT
public:
    // The parameter box's entry for a sweep over batch profiles.
    static QString batchProfilesItem();

    // `currentProfile` and `currentMachine` are asked when Run is pressed.
    SweepPage(std::function<std::shared_ptr<const views::ProfileViewData>()> currentProfile,
              std::function<views::WhatIfSettings()> currentMachine, QWidget* parent = nullptr);

    void run();
    // Reads a spillway.sweep/1 file and shows it as a finished sweep (the form takes its parameter,
    // values and policies). A file that cannot be read says why in the status line (file and JSON
    // pointer), emits failed and leaves the chart as it was. False when it could not be shown.
    bool openResults(const QString& path);
    // Asks for the file to open.
    void chooseResults();
    // Asks the sweep to stop; it says "Cancelled." once its worker is back.
    void cancel();
    bool isRunning() const { return job_.isRunning(); }
    QComboBox* parameterBox() const { return parameter_; }
    QLineEdit* valuesEdit() const { return values_; }
    QLineEdit* policiesEdit() const { return policies_; }
    views::SweepWidget* chart() const { return chart_; }
    QLabel* statusLabel() const { return status_; }
    SweepProfileList* profileList() const { return profiles_; }
    bool sweepsBatchProfiles() const;
    // The merged-table pane, and the tabs that hold it and the one-parameter form.
    SweepTablePanel* tablePanel() const { return tablePanel_; }
    QTabWidget* modes() const { return modes_; }
    // Shows the table pane and starts reading a merged sweep table (.sqlite or .csv) there.
    void openTable(const QString& path);

signals:
    void finished(std::shared_ptr<const spillway::SweepResult> result);
    void failed(const QString& message);

private:
    void showRunning(bool running);
    void showParameterRows();
    // Runs `work` on a worker with a fresh cancel flag; its progress (0..total) drives the bar.
    void start(std::function<SweepResult(const std::atomic<bool>* cancel,
                                         const std::function<void(size_t done)>& progress)> work,
               size_t total, const QString& message);
    void runBatchProfiles(const SweepSpec& base);
    void showOutcome(const SweepOutcome& outcome);
    // Draws a finished sweep; the status line says `done` and which cells could not run.
    void showResult(std::shared_ptr<const SweepResult> result, const QString& done);
    void showSpec(const SweepSpec& spec);

    std::function<std::shared_ptr<const views::ProfileViewData>()> currentProfile_;
    std::function<views::WhatIfSettings()> currentMachine_;
    QComboBox* parameter_;
    QFormLayout* form_;
    QLineEdit* values_;
    SweepProfileList* profiles_;
    QLineEdit* policies_;
    QPushButton* runButton_;
    QPushButton* cancelButton_;
    QPushButton* openButton_;
    QProgressBar* progress_;
    QLabel* status_;
    views::SweepWidget* chart_;
    SweepTablePanel* tablePanel_;
    QTabWidget* modes_;
    LatestJob<SweepOutcome> job_{this};  // one at a time: Run is disabled while it runs
};

}  // namespace spillway::app
