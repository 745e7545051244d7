#include "core/layout/greedy_placer.h"

#include <algorithm>
#include <limits>

namespace spillway {

namespace {
Bytes alignUp(Bytes value, Bytes alignment) {
    return alignment <= 1 ? value : (value + alignment - 1) / alignment * alignment;
}
}  // namespace

GreedyPlacer::GreedyPlacer(const AllocationProblem& problem, Bytes alignment)
    : problem_(problem), alignment_(std::max<Bytes>(1, alignment)), offsets_(problem.buffers.size(), -1) {
    placed_.reserve(problem.buffers.size());
}

void GreedyPlacer::insert(const Placed& p) {
    auto at = std::upper_bound(placed_.begin(), placed_.end(), p.offset,
                               [](Bytes offset, const Placed& q) { return offset < q.offset; });
    placed_.insert(at, p);
    top_ = std::max(top_, p.end);
}

void GreedyPlacer::fix(size_t index, Bytes offset) {
    const Buffer& b = problem_.buffers[index];
    offsets_[index] = offset;
    insert({offset, offset + b.size, b.lower, b.upper, index});
}

bool GreedyPlacer::liveWith(const Placed& p, const Buffer& b) const {
    if (p.upper <= b.lower || p.lower >= b.upper) return false;
    const Buffer& other = problem_.buffers[p.index];
    return (other.spans.empty() && b.spans.empty()) || liveAtSameTime(other, b);
}

Bytes GreedyPlacer::place(size_t index, GapFit fit) {
    const Buffer& b = problem_.buffers[index];
    Bytes cursor = floor_;  // lowest aligned offset above everything overlapping seen so far
    Bytes bestOffset = -1, bestGap = std::numeric_limits<Bytes>::max();
    for (const Placed& p : placed_) {
        if (!liveWith(p, b)) continue;
        if (p.offset >= cursor + b.size) {
            const Bytes gap = p.offset - cursor;
            if (fit == GapFit::Lowest) {
                bestOffset = cursor;
                break;
            }
            if (gap < bestGap) {
                bestGap = gap;
                bestOffset = cursor;
                if (gap == b.size) break;  // an exact fit cannot be beaten
            }
        }
        if (p.end > cursor) cursor = alignUp(p.end, alignment_);
    }
    const Bytes offset = bestOffset >= 0 ? bestOffset : cursor;
    offsets_[index] = offset;
    insert({offset, offset + b.size, b.lower, b.upper, index});
    return offset;
}

void GreedyPlacer::fixSorted(const std::vector<std::pair<std::int32_t, Bytes>>& byOffset) {
    for (auto [index, offset] : byOffset) {
        const Buffer& b = problem_.buffers[index];
        offsets_[index] = offset;
        placed_.push_back({offset, offset + b.size, b.lower, b.upper, static_cast<size_t>(index)});
        top_ = std::max(top_, offset + b.size);
    }
}

void GreedyPlacer::stackAtBottom(const std::vector<std::int32_t>& wholeRun) {
    for (std::int32_t i : wholeRun) {
        offsets_[i] = floor_;
        floor_ = alignUp(floor_ + problem_.buffers[i].size, alignment_);
        top_ = std::max(top_, offsets_[i] + problem_.buffers[i].size);
    }
}

std::vector<std::int32_t> wholeRunBuffers(const AllocationProblem& problem) {
    std::vector<std::int32_t> out;
    if (problem.buffers.empty()) return out;
    std::int64_t first = problem.buffers[0].lower, last = problem.buffers[0].upper;
    for (const Buffer& b : problem.buffers) {
        first = std::min(first, b.lower);
        last = std::max(last, b.upper);
    }
    for (size_t i = 0; i < problem.buffers.size(); ++i)
        if (const Buffer& b = problem.buffers[i]; b.lower == first && b.upper == last && liveTicks(b) == last - first)
            out.push_back(std::int32_t(i));
    return out;
}

void GreedyPlacer::placeAll(const std::vector<std::int32_t>& order, GapFit fit) {
    for (std::int32_t i : order) place(static_cast<size_t>(i), fit);
}

}  // namespace spillway
