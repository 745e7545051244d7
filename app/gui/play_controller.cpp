#include "app/gui/play_controller.h"

#include "views/view_link.h"

#include <QTimer>

#include <algorithm>
#include <cmath>

namespace spillway::app {

namespace {
constexpr double kMaxTicksPerSecond = 50.0;
}

PlayController::PlayController(views::ViewLink* link, QObject* parent)
    : QObject(parent), link_(link), timer_(new QTimer(this)) {
    connect(timer_, &QTimer::timeout, this, &PlayController::advance);
    updateInterval();
}

void PlayController::setKernelCount(std::int64_t kernels) {
    kernels_ = std::max<std::int64_t>(kernels, 0);
    if (kernels_ == 0) pause();
}

void PlayController::setKernelsPerSecond(double rate) {
    rate_ = std::clamp(rate, 0.1, 1e6);
    updateInterval();
}

void PlayController::updateInterval() {
    const double ticks = std::min(rate_, kMaxTicksPerSecond);
    perTick_ = std::max<std::int64_t>(1, std::llround(rate_ / ticks));
    timer_->setInterval(int(std::lround(1000.0 / ticks)));
}

void PlayController::play() {
    if (playing_ || kernels_ == 0) return;
    const std::int64_t k = link_->selectedKernel();
    if (k < 0 || k >= kernels_ - 1) link_->selectKernel(0);  // start over
    playing_ = true;
    timer_->start();
    emit playingChanged(true);
}

void PlayController::pause() {
    if (!playing_) return;
    timer_->stop();
    playing_ = false;
    emit playingChanged(false);
}

void PlayController::advance() {
    const std::int64_t next = std::min(link_->selectedKernel() + perTick_, kernels_ - 1);
    link_->selectKernel(next);
    if (next >= kernels_ - 1) pause();
}

}  // namespace spillway::app
