#include "app/gui/screenshot_tour.h"

#include "app/gui/lesson_player.h"
#include "app/gui/lesson_stage.h"
#include "views/view_link.h"

#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QImage>
#include <QMainWindow>
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
                       },
                       [] { return true; }, {}});
    addTabStages();
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
