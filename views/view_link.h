#pragma once
// What every view of a run shares and follows: one time range, one selected tensor, one selected
// kernel. Views write to it when the user selects something and redraw when it changes; nothing
// else connects views to each other, so a new view only has to watch this object.
#include "core/trace/units.h"

#include <QObject>

#include <cstdint>

namespace spillway::views {

// Nanoseconds from the start of the reported iteration (see RunViewData::iterationStart).
struct TimeRange {
    Nanoseconds start = 0;
    Nanoseconds end = 0;  // end <= start: no range (the whole run)
    bool isEmpty() const { return end <= start; }
    bool operator==(const TimeRange&) const = default;
};

class ViewLink : public QObject {
    Q_OBJECT
public:
    explicit ViewLink(QObject* parent = nullptr) : QObject(parent) {}

    TimeRange timeRange() const { return range_; }
    std::int64_t selectedTensor() const { return tensor_; }  // tensor position, -1 = none
    std::int64_t selectedKernel() const { return kernel_; }  // kernel run index, -1 = none

    // Each setter emits only when the value really changes, so views may call them freely.
    void setTimeRange(TimeRange range);
    void clearTimeRange() { setTimeRange({}); }
    void selectTensor(std::int64_t tensorPos);
    void selectKernel(std::int64_t runIndex);

signals:
    void timeRangeChanged(spillway::views::TimeRange range);
    void selectedTensorChanged(std::int64_t tensorPos);
    void selectedKernelChanged(std::int64_t runIndex);

private:
    TimeRange range_;
    std::int64_t tensor_ = -1;
    std::int64_t kernel_ = -1;
};

}  // namespace spillway::views
