#pragma once
// What the View menu's keys do to the time views: zoom and pan the shared window (the
// ViewLink's time range, see views/time_window.h), reset it, step the selected kernel forward
// and back, and show a tensor (select it and move the window to where it first lives). Every
// time view follows the ViewLink, so this object never talks to a view.
#include "views/run_view_data.h"
#include "views/view_link.h"

#include <QObject>

#include <functional>
#include <memory>

namespace spillway::app {

class KeyboardNavigator : public QObject {
    Q_OBJECT
public:
    using RunSource = std::function<std::shared_ptr<const views::RunViewData>()>;

    // `run` gives the run the window is measured in (its iteration length and kernels).
    KeyboardNavigator(views::ViewLink* link, RunSource run, QObject* parent = nullptr);

    static constexpr double kZoomStep = 2.0;   // Ctrl++ halves the window
    static constexpr double kPanStep = 0.25;   // an arrow key moves it by a quarter

    void zoomIn();
    void zoomOut();
    void panLeft();
    void panRight();
    void reset();
    void nextKernel();
    void previousKernel();
    // Selects the tensor (position in the profile) and brings its first residency into view.
    void showTensor(std::int64_t tensorPos);

private:
    void showKernel(std::int64_t runIndex);
    void zoomBy(double factor);

    views::ViewLink* link_;
    RunSource run_;
};

}  // namespace spillway::app
