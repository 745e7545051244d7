#include "views/view_link.h"

#include <algorithm>

namespace spillway::views {

void ViewLink::setTimeRange(TimeRange range) {
    if (range.end < range.start) std::swap(range.start, range.end);  // a drag to the left
    if (range.isEmpty()) range = {};
    if (range == range_) return;
    range_ = range;
    emit timeRangeChanged(range_);
}

void ViewLink::selectTensor(std::int64_t tensorPos) {
    tensorPos = std::max<std::int64_t>(tensorPos, -1);
    if (tensorPos == tensor_) return;
    tensor_ = tensorPos;
    emit selectedTensorChanged(tensor_);
}

void ViewLink::selectKernel(std::int64_t runIndex) {
    runIndex = std::max<std::int64_t>(runIndex, -1);
    if (runIndex == kernel_) return;
    kernel_ = runIndex;
    emit selectedKernelChanged(kernel_);
}

}  // namespace spillway::views
