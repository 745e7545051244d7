#pragma once
// Puts the lesson player and play mode into the main window, so the window itself only calls
// these two functions: a Lessons menu (every bundled lesson by title, and Open Lesson File…)
// that shows the lesson dock, and a Play toolbar (Play/Pause, speed, the kernel played).
namespace spillway::app {

class LessonPlayer;
class MainWindow;
class PlayController;

LessonPlayer* installLessonPlayer(MainWindow* window);
PlayController* installPlayToolBar(MainWindow* window);

}  // namespace spillway::app
