#pragma once
// Play mode: animates a run kernel by kernel by stepping the ViewLink's selected kernel with a
// timer, so every view that follows the selected kernel (the memory timeline's cursor, the
// Gantt chart's cursor and scroll) moves with it. It stops by itself after the last kernel.
// The controller only moves the selection; it knows nothing about the views.
#include <QObject>

#include <cstdint>

class QTimer;

namespace spillway::views {
class ViewLink;
}

namespace spillway::app {

class PlayController : public QObject {
    Q_OBJECT
public:
    PlayController(views::ViewLink* link, QObject* parent = nullptr);

    // The number of kernels of the run shown; 0 stops play and disables it.
    void setKernelCount(std::int64_t kernels);
    std::int64_t kernelCount() const { return kernels_; }
    // Kernels advanced per second (at most 50 timer ticks a second; faster rates skip kernels
    // per tick rather than tick faster, so a 10,000-kernel run still plays in seconds).
    void setKernelsPerSecond(double rate);
    double kernelsPerSecond() const { return rate_; }
    bool isPlaying() const { return playing_; }

    void play();   // from the selected kernel, or from the first when none or at the end
    void pause();
    void toggle() { playing_ ? pause() : play(); }

signals:
    void playingChanged(bool playing);

private:
    void advance();
    void updateInterval();

    views::ViewLink* link_;
    QTimer* timer_;
    std::int64_t kernels_ = 0;
    double rate_ = 10.0;
    std::int64_t perTick_ = 1;
    bool playing_ = false;
};

}  // namespace spillway::app
