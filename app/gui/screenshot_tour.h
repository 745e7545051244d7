#pragma once
// The screenshot tour behind `spillway --screenshots DIR PROFILE` (and scripts/screenshots):
// opens the profile in the real window, lets it simulate, then shows every tab in turn (running
// the sweep first) and saves the window as DIR/<tab>.png, then plays two lesson steps and saves
// them too; with a stack profile (a memory snapshot with allocation stacks) it opens that one
// last and saves the Stack dock beside the Memory tab and the Frames tab; with ../shared/data
// beside the checkout, the Measured tab on a recorded H200 replay against the replay model.
// Used to make docs/images; each picture is what a user sees, rendered by grab(). It
// drives the window as a lesson stage (lesson_stage.h) and the lesson player in it.
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <vector>

namespace spillway::app {

class LessonPlayer;
class LessonStage;

class ScreenshotTour : public QObject {
    Q_OBJECT
public:
    // `player` plays the lessons in the stage's window; `lessonFolder` holds the bundled lessons
    // (empty: no lesson pictures).
    ScreenshotTour(LessonStage* stage, LessonPlayer* player, QString profile, QString outputDir, QString lessonFolder,
                   QObject* parent = nullptr);
    // A profile whose tensors have allocation stacks, for stack-pane.png and frames-table.png
    // (empty: no such pictures). Call before start().
    void setStackProfile(QString path) { stackProfile_ = std::move(path); }
    void start();
    const QStringList& saved() const { return saved_; }

signals:
    // 0: every picture saved; 1: a picture could not be written; 2: the profile did not open.
    void finished(int status);

private:
    struct Stage {
        std::function<void()> begin;
        std::function<bool()> ready;  // polled until true, then the window is saved
        QString file;                  // empty: nothing to save after this stage
    };
    void addTabStages();
    void addLessonStage(const QString& lessonFile, int step, const QString& file);
    void addStackStages();
    void addReplayModelStages();
    void selectLargestUserFrame();
    int tabOf(const std::function<bool(int)>& match) const;
    void runStage();
    bool save(const QString& file);

    LessonStage* stage_;
    LessonPlayer* player_;
    QString profile_, outputDir_, lessonFolder_, stackProfile_;
    std::vector<Stage> stages_;
    size_t next_ = 0;
    int runsShown_ = 0;
    int lessonStepReady_ = -1;  // the last step the lesson player said is on screen
    QStringList saved_;
};

}  // namespace spillway::app
