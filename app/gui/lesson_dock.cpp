#include "app/gui/lesson_dock.h"

#include "app/gui/lesson_player.h"
#include "app/gui/lesson_stage.h"
#include "app/gui/play_controller.h"
#include "core/lesson/lesson.h"
#include "views/view_link.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QLabel>
#include <QMainWindow>
#include <QMenuBar>
#include <QMessageBox>
#include <QToolBar>

namespace spillway::app {

namespace {

void showLessonError(QWidget* window, const QString& message) {
    auto* box = new QMessageBox(QMessageBox::Warning, QObject::tr("Could not play the lesson"), message,
                                QMessageBox::Ok, window);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void openLessonInDock(QWidget* window, LessonPlayer* player, QDockWidget* dock, const QString& path) {
    QString error;
    if (!player->openLesson(path, &error)) {
        showLessonError(window, error);
        return;
    }
    dock->show();
    dock->raise();
}

// The lesson's title, or the file name when the file does not read (the error comes on opening).
QString lessonMenuText(const std::filesystem::path& file) {
    try {
        return QString::fromStdString(readLesson(file).title);
    } catch (const std::exception&) {
        return QString::fromStdString(file.filename().string());
    }
}

}  // namespace

LessonPlayer* installLessonPlayer(LessonStage* stage) {
    QMainWindow* window = stage->stageWindow();
    auto* dock = new QDockWidget(QObject::tr("Lesson"), window);
    dock->setObjectName("lessonDock");
    auto* player = new LessonPlayer(stage, dock);
    dock->setWidget(player);
    window->addDockWidget(Qt::RightDockWidgetArea, dock);
    dock->hide();
    QObject::connect(player, &LessonPlayer::lessonClosed, dock, &QDockWidget::hide);
    QObject::connect(player, &LessonPlayer::lessonFailed, window,
                     [window](const QString& message) { showLessonError(window, message); });

    auto* menu = new QMenu(QObject::tr("&Lessons"), window);
    menu->setObjectName("lessonsMenu");
    // Before Help, where a teacher looks for it.
    QAction* before = nullptr;
    for (QAction* a : window->menuBar()->actions())
        if (a->text().remove('&') == QObject::tr("Help")) before = a;
    window->menuBar()->insertMenu(before, menu);
    QObject::connect(menu, &QMenu::aboutToShow, window, [window, player, dock, menu] {
        menu->clear();
        const QString folder = LessonPlayer::bundledLessonFolder();
        const auto files = findLessons(QFile::encodeName(folder).toStdString());
        for (const auto& file : files) {
            const QString path = QString::fromStdString(file.string());
            QAction* a = menu->addAction(lessonMenuText(file), window,
                                         [window, player, dock, path] { openLessonInDock(window, player, dock, path); });
            a->setToolTip(path);
        }
        if (files.empty()) menu->addAction(QObject::tr("(no lessons in %1)").arg(folder))->setEnabled(false);
        menu->addSeparator();
        menu->addAction(QObject::tr("Open Lesson &File…"), window, [window, player, dock, folder] {
            const QString path = QFileDialog::getOpenFileName(window, QObject::tr("Open Lesson"), folder,
                                                              QObject::tr("Spillway lessons (*.lesson.json)"));
            if (!path.isEmpty()) openLessonInDock(window, player, dock, path);
        });
        menu->addAction(dock->toggleViewAction());
    });
    return player;
}

PlayController* installPlayToolBar(LessonStage* stage) {
    QMainWindow* window = stage->stageWindow();
    auto* play = new PlayController(stage->viewLink(), window);
    auto* bar = window->addToolBar(QObject::tr("Play"));
    bar->setObjectName("playToolBar");
    QAction* toggle = bar->addAction(QIcon::fromTheme("media-playback-start"), QObject::tr("Play"));
    toggle->setObjectName("playAction");
    toggle->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Space));
    toggle->setToolTip(QObject::tr("Animate the run kernel by kernel (Ctrl+Space)"));
    toggle->setEnabled(false);
    QObject::connect(toggle, &QAction::triggered, play, &PlayController::toggle);
    auto* speed = new QComboBox(bar);
    speed->setObjectName("playSpeed");
    speed->setToolTip(QObject::tr("Kernels per second"));
    for (int rate : {1, 5, 20, 100, 500, 2000}) speed->addItem(QObject::tr("%1 kernels/s").arg(rate), rate);
    speed->setCurrentIndex(2);
    play->setKernelsPerSecond(20);
    QObject::connect(speed, &QComboBox::currentIndexChanged, play,
                     [play, speed](int) { play->setKernelsPerSecond(speed->currentData().toDouble()); });
    bar->addWidget(speed);
    auto* where = new QLabel(bar);
    where->setObjectName("playPosition");
    where->setMinimumWidth(220);
    bar->addWidget(where);

    auto showPosition = [stage, where](std::int64_t kernel) {
        const auto& run = stage->currentRun();
        if (!run || kernel < 0 || kernel >= std::int64_t(run->result.kernels.size())) {
            where->clear();
            return;
        }
        const std::int64_t pos = run->plan.order.empty() ? kernel : run->plan.order[size_t(kernel)];
        where->setText(QObject::tr("  kernel %1 of %2: %3")
                           .arg(kernel + 1)
                           .arg(run->result.kernels.size())
                           .arg(QString::fromStdString(run->profile->profile->kernels[size_t(pos)].name)));
    };
    QObject::connect(stage->viewLink(), &views::ViewLink::selectedKernelChanged, where, showPosition);
    QObject::connect(stage->stageSignals(), &StageSignals::runShown, play, [stage, play, toggle] {
        const auto& run = stage->currentRun();
        play->setKernelCount(run ? std::int64_t(run->result.kernels.size()) : 0);
        toggle->setEnabled(play->kernelCount() > 0);
    });
    QObject::connect(stage->stageSignals(), &StageSignals::profileLoaded, play, [play, toggle] {
        play->setKernelCount(0);  // until the new profile's run is shown
        toggle->setEnabled(false);
    });
    QObject::connect(play, &PlayController::playingChanged, toggle, [toggle](bool playing) {
        toggle->setText(playing ? QObject::tr("Pause") : QObject::tr("Play"));
        toggle->setIcon(QIcon::fromTheme(playing ? "media-playback-pause" : "media-playback-start"));
    });
    return play;
}

}  // namespace spillway::app
