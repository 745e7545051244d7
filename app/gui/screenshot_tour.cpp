#include "app/gui/screenshot_tour.h"

#include "app/gui/lesson_player.h"
#include "app/gui/lesson_stage.h"
#include "app/gui/measured_page.h"
#include "core/analysis/frame_totals.h"
#include "views/filtered_table_view.h"
#include "views/measured_comparison_model.h"
#include "views/view_link.h"

#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QImage>
#include <QMainWindow>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTimer>

#include <cstdio>
#include <memory>

namespace spillway::app {

namespace {

constexpr int kSettleMs = 500;          // let a tab lay out and paint (and queued replots run)
constexpr qint64 kPngBudget = 200'000;  // bytes; larger pictures are saved with a palette

// "Kernels (1234)" -> "kernels"
QString slugOf(QString tabText) {
    tabText.remove('&');
    const int cut = tabText.indexOf(' ');
    return (cut < 0 ? tabText : tabText.left(cut)).toLower();
}

}  // namespace

ScreenshotTour::ScreenshotTour(LessonStage* stage, LessonPlayer* player, QString profile, QString outputDir,
                               QString lessonFolder, QObject* parent)
    : QObject(parent), stage_(stage), player_(player), profile_(std::move(profile)), outputDir_(std::move(outputDir)),
      lessonFolder_(std::move(lessonFolder)) {
    connect(stage_->stageSignals(), &StageSignals::runShown, this, [this] { ++runsShown_; });
    connect(player_, &LessonPlayer::stepReady, this, [this](int step) { lessonStepReady_ = step; });
    connect(stage_->stageSignals(), &StageSignals::loadFailed, this, [this](const QString&, const QString& where, const QString& message) {
        std::fprintf(stderr, "error: %s: %s\n", qPrintable(where), qPrintable(message));
        emit finished(2);
    });
}

void ScreenshotTour::start() {
    QDir().mkpath(outputDir_);
    // Open and simulate; then select the largest tensor and a kernel a third of the way in, so
    // the pictures show the highlight and the cursor.
    stages_.push_back({[this] { stage_->openProfileWith(profile_, {}); }, [this] { return runsShown_ > 0; }, {}});
    stages_.push_back({[this] {
                           const auto& run = stage_->currentRun();
                           const auto& tensors = run->profile->profile->tensors;
                           std::int64_t largest = -1;
                           for (size_t t = 0; t < tensors.size(); ++t)
                               if (tensors[t].kind == TensorKind::Activation &&
                                   (largest < 0 || tensors[t].bytes > tensors[size_t(largest)].bytes))
                                   largest = std::int64_t(t);
                           stage_->viewLink()->selectTensor(largest);
                           stage_->viewLink()->selectKernel(std::int64_t(run->result.kernels.size()) / 3);
                           // A profile without allocation stacks would show an empty Stack dock in
                           // every picture; the stack pictures show it.
                           if (auto* dock = stage_->stageWindow()->findChild<QDockWidget*>("stackDock"))
                               dock->setVisible(!run->profile->frameTotals.frames.empty());
                       },
                       [] { return true; }, {}});
    addTabStages();
    if (!stackProfile_.isEmpty()) addStackStages();
    if (!lessonFolder_.isEmpty()) addReplayModelStages();
    if (!lessonFolder_.isEmpty()) {
        const QDir lessons(lessonFolder_);
        const QStringList most = lessons.entryList({"02-*.lesson.json"});
        const QStringList layout = lessons.entryList({"04-*.lesson.json"});
        if (!most.isEmpty()) addLessonStage(lessons.filePath(most.first()), 2, "lesson-most.png");
        if (!layout.isEmpty()) addLessonStage(lessons.filePath(layout.first()), 2, "lesson-layout.png");
    }
    next_ = 0;
    runStage();
}

void ScreenshotTour::addTabStages() {
    // The Jobs tab shows the bundled two-job workload (samples/workloads, beside the lessons).
    const QString workload = QDir(lessonFolder_).filePath("../workloads/resnet18-x2.workload.json");
    for (int i = 0; i < stage_->tabCount(); ++i) {
        auto shownAt = std::make_shared<QElapsedTimer>();
        const LessonStage::TabKind kind = stage_->tabKind(i);
        if (kind == LessonStage::TabKind::Frames) continue;  // addStackStages shows it with stacks
        stages_.push_back({[this, i, shownAt, kind, workload] {
                               stage_->showTab(i);
                               if (kind == LessonStage::TabKind::Sweep) stage_->runSweep();
                               if (kind == LessonStage::TabKind::Jobs && !lessonFolder_.isEmpty() &&
                                   QFileInfo::exists(workload))
                                   stage_->openWorkload(workload);
                               shownAt->start();
                           },
                           [this, i, shownAt] { return shownAt->elapsed() > kSettleMs && !stage_->isTabBusy(i); },
                           slugOf(stage_->tabTitle(i)) + ".png"});
    }
}

int ScreenshotTour::tabOf(const std::function<bool(int)>& match) const {
    for (int i = 0; i < stage_->tabCount(); ++i)
        if (match(i)) return i;
    return 0;
}

// The stack profile opened and simulated; its largest tensor allocated through torch (so the
// marked user frame is further out) selected; the Stack dock beside the Memory tab, then the
// Frames tab.
void ScreenshotTour::addStackStages() {
    auto runsBefore = std::make_shared<int>(0);
    stages_.push_back({[this, runsBefore] {
                           *runsBefore = runsShown_;
                           stage_->openProfileWith(stackProfile_, {});
                       },
                       [this, runsBefore] { return runsShown_ > *runsBefore && stage_->currentPath() == stackProfile_; },
                       {}});
    auto settled = std::make_shared<QElapsedTimer>();
    stages_.push_back({[this, settled] {
                           const Profile& profile = *stage_->viewData()->profile;
                           std::int64_t chosen = -1;
                           for (size_t t = 0; t < profile.tensors.size(); ++t)
                               if (firstUserFrame(profile.tensors[t]) > 0 &&
                                   (chosen < 0 || profile.tensors[t].bytes > profile.tensors[size_t(chosen)].bytes))
                                   chosen = std::int64_t(t);
                           stage_->viewLink()->selectTensor(chosen);
                           QMainWindow* window = stage_->stageWindow();
                           if (auto* dock = window->findChild<QDockWidget*>("stackDock")) {
                               dock->show();
                               window->resizeDocks({dock}, {window->width() * 2 / 5}, Qt::Horizontal);
                           }
                           stage_->showTab(tabOf([this](int i) { return stage_->tabTitle(i).startsWith("Memory"); }));
                           settled->start();
                       },
                       [settled] { return settled->elapsed() > kSettleMs; }, "stack-pane.png"});
    auto shown = std::make_shared<QElapsedTimer>();
    stages_.push_back({[this, shown] {
                           stage_->showTab(tabOf([this](int i) { return stage_->tabKind(i) == LessonStage::TabKind::Frames; }));
                           selectLargestUserFrame();
                           shown->start();
                       },
                       [shown] { return shown->elapsed() > kSettleMs; }, "frames-table.png"});
}

// The small GPT lesson opened; in the Measured tab, the recorded H200 replay of its g10 plan in a
// managed arena (tests/fixtures/replays/h200-fixed-runtime) against the replay model on the
// machine it ran on, sorted by error. Needs the shared plan (../shared/data beside the checkout).
void ScreenshotTour::addReplayModelStages() {
    const QString root = QDir::cleanPath(QDir(lessonFolder_).absoluteFilePath("../.."));
    const QString profile = root + "/samples/lessons/small-gpt.profile.json";
    const QString fixtures = root + "/tests/fixtures/replays/h200-fixed-runtime/";
    const QString plan = QDir::cleanPath(root + "/../shared/data/h200/replays/gpt-g10.plan.json");
    if (!QFileInfo::exists(profile) || !QFileInfo::exists(plan) || !QFileInfo::exists(fixtures + "machine.hardware.json"))
        return;
    auto runsBefore = std::make_shared<int>(0);
    stages_.push_back({[this, runsBefore, profile] {
                           *runsBefore = runsShown_;
                           stage_->openProfileWith(profile, {});
                       },
                       [this, runsBefore, profile] { return runsShown_ > *runsBefore && stage_->currentPath() == profile; },
                       {}});
    auto shown = std::make_shared<QElapsedTimer>();
    stages_.push_back({[this, shown, fixtures, plan] {
                           if (auto* page = stage_->stageWindow()->findChild<MeasuredPage*>("measuredPage")) {
                               page->setErrorDialogsEnabled(false);
                               if (page->openTimeline(fixtures + "g10-managed-1.measured.json.gz") &&
                                   page->compareWithReplayModel(plan, fixtures + "machine.hardware.json"))
                                   page->table()->sortByColumn(views::MeasuredComparisonModel::DurationError,
                                                               Qt::DescendingOrder);
                           }
                           // The table needs the width: the Stack dock has nothing to show here.
                           if (auto* dock = stage_->stageWindow()->findChild<QDockWidget*>("stackDock")) dock->hide();
                           stage_->showTab(tabOf([this](int i) { return stage_->tabTitle(i).startsWith("Measured"); }));
                           shown->start();
                       },
                       [shown] { return shown->elapsed() > kSettleMs; }, "measured-replay-model.png"});
}

// In the Frames tab, the frame outside torch that allocated the most itself (a row click's
// effect: its largest tensor in the Stack dock).
void ScreenshotTour::selectLargestUserFrame() {
    auto* table = stage_->stageWindow()->findChild<views::FilteredTableView*>("framesTable");
    if (!table) return;
    const auto& frames = stage_->viewData()->frameTotals.frames;
    int best = -1;
    for (size_t f = 0; f < frames.size(); ++f)
        if (!frames[f].torch && (best < 0 || frames[f].selfBytes > frames[size_t(best)].selfBytes)) best = int(f);
    const QModelIndex shown = table->proxy()->mapFromSource(table->proxy()->sourceModel()->index(best, 0));
    if (shown.isValid()) table->table()->setCurrentIndex(shown);
}

void ScreenshotTour::addLessonStage(const QString& lessonFile, int step, const QString& file) {
    auto target = std::make_shared<int>(0);
    auto settled = std::make_shared<QElapsedTimer>();
    stages_.push_back({[this, lessonFile, step, target] {
                           QMainWindow* window = stage_->stageWindow();
                           if (auto* dock = window->findChild<QDockWidget*>("lessonDock")) {
                               dock->show();
                               // Wide enough for the text and two or three offset maps side by side.
                               window->resizeDocks({dock}, {window->width() * 2 / 5}, Qt::Horizontal);
                           }
                           lessonStepReady_ = -1;
                           if (!player_->openLesson(lessonFile)) {
                               std::fprintf(stderr, "warning: %s does not read\n", qPrintable(lessonFile));
                               *target = -1;  // nothing will come: save what is there
                               return;
                           }
                           // Only the step asked for last reports ready: earlier ones are dropped.
                           *target = std::min(step, player_->stepCount() - 1);
                           player_->goToStep(*target);
                       },
                       [this, target, settled] {
                           if (lessonStepReady_ != *target) return false;
                           if (!settled->isValid()) settled->start();
                           return settled->elapsed() > kSettleMs;
                       },
                       file});
}

void ScreenshotTour::runStage() {
    if (next_ >= stages_.size()) {
        emit finished(0);
        return;
    }
    Stage& stage = stages_[next_];
    stage.begin();
    auto* poll = new QTimer(this);
    poll->setInterval(50);
    connect(poll, &QTimer::timeout, this, [this, poll] {
        Stage& s = stages_[next_];
        if (!s.ready()) return;
        poll->stop();
        poll->deleteLater();
        if (!s.file.isEmpty() && !save(s.file)) {
            emit finished(1);
            return;
        }
        ++next_;
        runStage();
    });
    poll->start();
}

bool ScreenshotTour::save(const QString& file) {
    const QString path = QDir(outputDir_).filePath(file);
    QImage image = stage_->stageWindow()->grab().toImage();
    if (!image.save(path, "PNG")) return false;
    // Charts compress well with a palette; keep the repository's pictures small.
    if (QFileInfo(path).size() > kPngBudget)
        image.convertToFormat(QImage::Format_Indexed8, Qt::ThresholdDither | Qt::AvoidDither).save(path, "PNG");
    saved_ << path;
    std::printf("%s\n", qPrintable(path));
    std::fflush(stdout);
    return true;
}

}  // namespace spillway::app
