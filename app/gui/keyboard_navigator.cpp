#include "app/gui/keyboard_navigator.h"

#include "views/time_window.h"

#include <algorithm>

namespace spillway::app {

KeyboardNavigator::KeyboardNavigator(views::ViewLink* link, RunSource run, QObject* parent)
    : QObject(parent), link_(link), run_(std::move(run)) {}

void KeyboardNavigator::zoomBy(double factor) {
    const auto run = run_();
    if (!run) return;
    const Nanoseconds end = run->result.iterationTime;
    const views::TimeRange w = views::shownWindow(link_->timeRange(), end);
    link_->setTimeRange(views::zoomWindow(link_->timeRange(), end, factor, double(w.start + w.end) / 2));
}

void KeyboardNavigator::zoomIn() { zoomBy(kZoomStep); }
void KeyboardNavigator::zoomOut() { zoomBy(1 / kZoomStep); }

void KeyboardNavigator::panLeft() {
    if (const auto run = run_()) link_->setTimeRange(views::panWindow(link_->timeRange(), run->result.iterationTime, -kPanStep));
}

void KeyboardNavigator::panRight() {
    if (const auto run = run_()) link_->setTimeRange(views::panWindow(link_->timeRange(), run->result.iterationTime, kPanStep));
}

void KeyboardNavigator::reset() { link_->clearTimeRange(); }

void KeyboardNavigator::nextKernel() {
    const auto run = run_();
    if (!run || run->result.kernels.empty()) return;
    const auto last = static_cast<std::int64_t>(run->result.kernels.size()) - 1;
    showKernel(std::min(link_->selectedKernel() + 1, last));
}

void KeyboardNavigator::previousKernel() {
    const auto run = run_();
    if (!run || run->result.kernels.empty()) return;
    const auto last = static_cast<std::int64_t>(run->result.kernels.size()) - 1;
    // From no selection, backwards starts at the last kernel.
    const std::int64_t current = link_->selectedKernel() < 0 ? last + 1 : link_->selectedKernel();
    showKernel(std::max<std::int64_t>(current - 1, 0));
}

void KeyboardNavigator::showKernel(std::int64_t runIndex) {
    const auto run = run_();
    link_->selectKernel(runIndex);
    const KernelTiming& k = run->result.kernels[size_t(runIndex)];
    link_->setTimeRange(views::windowShowing(link_->timeRange(), run->result.iterationTime,
                                             k.start - run->iterationStart, k.end - run->iterationStart));
}

void KeyboardNavigator::showTensor(std::int64_t tensorPos) {
    link_->selectTensor(tensorPos);
    const auto run = run_();
    if (!run || tensorPos < 0 || size_t(tensorPos) >= run->result.tensorResidency.size()) return;
    // Where it first lives on the GPU, else anywhere (a tensor kept on the host all along).
    const auto& intervals = run->result.tensorResidency[size_t(tensorPos)];
    const ResidencyInterval* first = nullptr;
    for (const ResidencyInterval& iv : intervals)
        if (iv.where == Residence::Gpu && iv.end > iv.start) {
            first = &iv;
            break;
        }
    if (!first)
        for (const ResidencyInterval& iv : intervals)
            if (iv.where != Residence::Absent && iv.where != Residence::Discarded && iv.end > iv.start) {
                first = &iv;
                break;
            }
    if (!first) return;
    link_->setTimeRange(views::windowShowing(link_->timeRange(), run->result.iterationTime,
                                             first->start - run->iterationStart, first->end - run->iterationStart));
}

}  // namespace spillway::app
