#pragma once
// The lesson player: a panel that plays a lesson (core/lesson) step by step over the real main
// window, through what the window offers a lesson (lesson_stage.h). Each step opens the step's profile if another one is open, applies the step's machine
// and policy to the what-if panel (which re-simulates), switches to the step's tab, selects the
// kernel, tensor or time range it names, simulates the policies it compares (shown together in
// the Stalls view) and plans the layouts it names (order and placement, drawn as offset maps in
// the panel itself). stepReady() tells when all of that is on screen.
#include "app/gui/latest_job.h"
#include "core/lesson/lesson.h"
#include "views/offset_map_widget.h"
#include "views/run_view_data.h"
#include "views/what_if_settings.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QLabel;
class QPushButton;
class QTextBrowser;

namespace spillway::app {

class LessonStage;
struct PlannedLayouts;

// One planned layout of a lesson step (what the offset-map figure shows), made off the GUI thread.
struct LessonLayout {
    std::shared_ptr<const views::PlacedArena> arena;
    std::string order;
    std::string placement;
    Bytes theoreticalPeak = 0;  // LOAD of the order's allocation problem
    Bytes arenaBytes = 0;       // what the placement needs
};

class LessonPlayer : public QWidget {
    Q_OBJECT
public:
    LessonPlayer(LessonStage* stage, QWidget* parent = nullptr);

    // Reads the lesson and shows its first step. On a bad file returns false and sets *error to
    // the place and the problem ("file: /steps/2/view: ..."); the lesson shown before stays.
    bool openLesson(const QString& path, QString* error = nullptr);
    bool hasLesson() const { return lesson_.has_value(); }
    const Lesson& lesson() const { return *lesson_; }
    int currentStep() const { return step_; }
    int stepCount() const { return lesson_ ? int(lesson_->steps.size()) : 0; }

    void goToStep(int step);
    void next() { goToStep(step_ + 1); }
    void back() { goToStep(step_ - 1); }
    // Ends the lesson: its jobs stop, the panel says no lesson, and the what-if settings the user
    // had before it are put back (quietly when `rerun` is false: a profile is about to open and
    // will run on them; otherwise the shown profile runs again). A lesson's settings never carry
    // over to what the user does next (issue 20). Emits lessonClosed; nothing when none is open.
    void closeLesson(bool rerun);

    // What the current step shows beside the main run.
    const std::vector<std::shared_ptr<const views::RunViewData>>& comparedRuns() const { return compared_; }
    const std::vector<LessonLayout>& layouts() const { return layouts_; }
    views::OffsetMapWidget* layoutFigure() const { return figure_; }
    QString stepTitleText() const;
    QString counterText() const;
    // The numbers a step talks about, for the run shown and each compared run: time, stalls,
    // traffic, what discard saved.
    QString runSummaryText() const;

    // Bundled lessons: SPILLWAY_LESSONS, or samples/lessons beside the installed or built app.
    static QString bundledLessonFolder();

signals:
    void stepReady(int step);
    void lessonFailed(const QString& message);
    void lessonClosed();

private:
    void applyStep();
    void applySettings(const LessonSettings& settings);
    void applySelection(const LessonSelection& selection);
    void switchTab(const std::string& view);
    void startComparisons(const LessonStep& step);
    void startLayouts(const LessonStep& step, const LessonSettings& settings);
    void showLayouts(PlannedLayouts planned);
    void onRunShown();
    void finishPart();
    void updateText();
    void updateRunSummary();

    LessonStage* stage_;
    std::optional<Lesson> lesson_;
    views::WhatIfSettings userSettings_;  // the what-if settings before the lesson began
    QPushButton* end_ = nullptr;
    int step_ = -1;
    // A step's runs and layouts come from workers; those of an earlier step are dropped.
    LatestJob<std::vector<std::shared_ptr<const views::RunViewData>>> comparisons_{this};
    LatestJob<PlannedLayouts> layoutJob_{this};
    bool waitingForProfile_ = false;
    bool waitingForRun_ = false;
    int partsPending_ = 0;
    std::vector<std::shared_ptr<const views::RunViewData>> compared_;
    std::vector<LessonLayout> layouts_;

    QLabel* lessonTitle_;
    QLabel* stepTitle_;
    QTextBrowser* text_;
    QLabel* counter_;
    QLabel* runSummary_;
    QLabel* figureCaption_;
    views::OffsetMapWidget* figure_;
    QPushButton* back_;
    QPushButton* next_;
};

}  // namespace spillway::app
