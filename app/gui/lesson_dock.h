#pragma once
// Puts the lesson player and play mode into the main window, so the window itself only calls
// these two functions: a Lessons menu (every bundled lesson by title, and Open Lesson File…)
// that shows the lesson dock, and a Play toolbar (Play/Pause, speed, the kernel played). They
// see the window as a lesson stage (lesson_stage.h) only.
namespace spillway::app {

class LessonPlayer;
class LessonStage;
class PlayController;

LessonPlayer* installLessonPlayer(LessonStage* stage);
PlayController* installPlayToolBar(LessonStage* stage);

}  // namespace spillway::app
