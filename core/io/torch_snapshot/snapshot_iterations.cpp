#include "core/io/torch_snapshot/snapshot_iterations.h"

#include <algorithm>
#include <unordered_map>

namespace spillway {

namespace {

constexpr double kMinMatch = 0.9;
constexpr size_t kMarkers = 8;           // rare sizes tried as iteration markers
constexpr size_t kCandidatesPerMarker = 16;
constexpr std::int64_t kMinPeriod = 2;

// How far back from the end the sizes keep repeating every `period` allocations: the earliest
// start from which at least kMinMatch of them equal the size one period later. The first
// iterations of a recording may differ (optimizer state created, autotuning); the ones after
// them repeat.
struct Repetition {
    std::int64_t start = 0;
    double share = 0.0;
};

Repetition repeatingSuffix(const std::vector<Bytes>& sizes, std::int64_t period) {
    const auto n = static_cast<std::int64_t>(sizes.size());
    Repetition best{n, 0.0};
    std::int64_t same = 0;
    for (auto i = n - period - 1; i >= 0; --i) {
        same += sizes[static_cast<size_t>(i)] == sizes[static_cast<size_t>(i + period)];
        const double share = static_cast<double>(same) / static_cast<double>(n - period - i);
        if (share >= kMinMatch) best = {i, share};
    }
    return best;
}

// The rarest sizes that occur at least twice, rarest first (larger first among equals: a big
// allocation is less likely to be a coincidence).
std::vector<Bytes> markerSizes(const std::vector<Bytes>& sizes) {
    std::unordered_map<Bytes, std::int64_t> count;
    for (auto s : sizes) ++count[s];
    std::vector<std::pair<std::int64_t, Bytes>> repeated;
    for (const auto& [size, c] : count)
        if (c >= 2) repeated.emplace_back(c, size);
    std::sort(repeated.begin(), repeated.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first < b.first : a.second > b.second;
    });
    std::vector<Bytes> out;
    for (size_t i = 0; i < repeated.size() && i < kMarkers; ++i) out.push_back(repeated[i].second);
    return out;
}

std::vector<std::int64_t> candidatePeriods(const std::vector<Bytes>& sizes) {
    std::vector<std::int64_t> out;
    for (auto marker : markerSizes(sizes)) {
        std::int64_t first = -1;
        size_t taken = 0;
        for (size_t i = 0; i < sizes.size() && taken < kCandidatesPerMarker; ++i) {
            if (sizes[i] != marker) continue;
            if (first < 0) {
                first = static_cast<std::int64_t>(i);
                continue;
            }
            out.push_back(static_cast<std::int64_t>(i) - first);
            ++taken;
        }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

}  // namespace

SnapshotIterations findSnapshotIterations(const std::vector<Bytes>& sizes, const std::vector<Bytes>& liveBefore) {
    SnapshotIterations best;
    const auto n = static_cast<std::int64_t>(sizes.size());
    std::int64_t bestStart = n;
    for (auto period : candidatePeriods(sizes)) {
        if (period < kMinPeriod || n / period < 2) continue;
        const auto r = repeatingSuffix(sizes, period);
        if (n - r.start < 2 * period) continue;
        // The period that explains the most of the trace; a multiple of the true one explains
        // as much, and candidates come shortest first.
        if (r.start < bestStart || (r.start == bestStart && r.share > best.matched + 1e-12)) {
            best.period = period;
            best.matched = r.share;
            bestStart = r.start;
        }
    }
    if (best.period == 0) return best;
    const auto p = best.period;
    const auto from = n - bestStart >= 3 * p ? bestStart + p : bestStart;
    std::int64_t lowest = from;
    for (auto i = from; i < from + p && i < n; ++i)
        if (liveBefore[static_cast<size_t>(i)] < liveBefore[static_cast<size_t>(lowest)]) lowest = i;
    // The earliest boundary at or after the repetition's start.
    best.offset = lowest - ((lowest - bestStart) / p) * p;
    best.found = (n - best.offset) / p;
    if (best.found < 2) return SnapshotIterations{};
    return best;
}

}  // namespace spillway
