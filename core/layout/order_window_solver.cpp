#include "core/layout/order_window_solver.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <stdexcept>
#include <unordered_map>

namespace spillway {

namespace {

using Mask = std::uint64_t;
using Clock = std::chrono::steady_clock;

// Dominance entries kept per window; past this the search goes on without remembering more
// (still exact, only slower), so a wide window cannot exhaust memory.
constexpr size_t kMaxMemoEntries = size_t(1) << 21;

struct LocalTensor {
    Bytes size = 0;
    bool startedBefore = false;  // some earlier kernel touched it: live when the window starts
    bool usedAfter = false;      // a later kernel touches it: it stays live past the window
    int touchers = 0;            // kernels in the window touching it
};

class WindowSearch {
public:
    WindowSearch(const OrderMemoryModel& model, const DependencyGraph& graph, const OrderMemoryModel::State& before,
                 const std::vector<std::int64_t>& window)
        : window_(window), m_(int(window.size())) {
        std::unordered_map<std::int64_t, int> local;
        for (int i = 0; i < m_; ++i) local[window[i]] = i;
        std::unordered_map<std::int32_t, int> tensorLocal;
        pred_.assign(m_, 0);
        tensorsOf_.resize(m_);
        ws_.resize(m_);
        for (int i = 0; i < m_; ++i) {
            for (auto p : graph.predecessors(size_t(window[i])))
                if (auto it = local.find(p); it != local.end()) pred_[i] |= Mask(1) << it->second;
            ws_[i] = model.workspace(size_t(window[i]));
            for (auto t : model.touched(size_t(window[i]))) {
                auto [it, fresh] = tensorLocal.try_emplace(t, int(tensors_.size()));
                if (fresh) {
                    LocalTensor lt;
                    lt.size = model.size(t);
                    lt.startedBefore = before.remaining[t] < model.touchCount(t);
                    tensors_.push_back(lt);
                    remainingOf_.push_back(before.remaining[t]);
                }
                ++tensors_[it->second].touchers;
                tensorsOf_[i].push_back(it->second);
            }
        }
        base_ = model.persistentBytes() + before.live;
        for (size_t t = 0; t < tensors_.size(); ++t) {
            tensors_[t].usedAfter = remainingOf_[t] > tensors_[t].touchers;
            if (tensors_[t].startedBefore) base_ -= tensors_[t].size;  // tracked as local live bytes
        }
        // Lower bound of a kernel's step in any order: the base, every tensor it touches, its
        // workspace, and the tensors live through the whole window (started before, used after).
        Bytes pinned = 0;
        for (auto& t : tensors_)
            if (t.startedBefore && t.usedAfter) pinned += t.size;
        stepBound_.resize(m_);
        for (int i = 0; i < m_; ++i) {
            Bytes b = base_ + pinned + ws_[i];
            for (int t : tensorsOf_[i])
                if (!(tensors_[t].startedBefore && tensors_[t].usedAfter)) b += tensors_[t].size;
            stepBound_[i] = b;
            lowerBound_ = std::max(lowerBound_, b);
        }
    }

    WindowSolution run(double timeLimitSeconds) {
        const auto start = Clock::now();
        deadline_ = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeLimitSeconds));
        WindowSolution solution;
        // Incumbent: the window's own order.
        resetState();
        Bytes peak = 0;
        std::vector<int> identity(m_);
        for (int i = 0; i < m_; ++i) {
            identity[i] = i;
            peak = std::max(peak, apply(i));
        }
        best_ = peak;
        bestPath_ = identity;
        bool finished = true;
        if (best_ > lowerBound_) {
            resetState();
            path_.clear();
            memo_.clear();
            aborted_ = Clock::now() >= deadline_;
            if (!aborted_) search(0, 0);
            finished = !aborted_;
        }
        solution.peak = best_;
        solution.provenOptimal = finished || best_ <= lowerBound_;
        for (int i : bestPath_) solution.order.push_back(window_[i]);
        solution.expansions = expansions_;
        solution.seconds = std::chrono::duration<double>(Clock::now() - start).count();
        return solution;
    }

private:
    void resetState() {
        live_ = 0;
        started_.assign(tensors_.size(), 0);
        left_.resize(tensors_.size());
        for (size_t t = 0; t < tensors_.size(); ++t) {
            started_[t] = tensors_[t].startedBefore;
            left_[t] = tensors_[t].touchers;
            if (started_[t]) live_ += tensors_[t].size;
        }
    }
    Bytes stepMemory(int i) const {
        Bytes during = base_ + live_ + ws_[i];
        for (int t : tensorsOf_[i])
            if (!started_[t]) during += tensors_[t].size;
        return during;
    }
    // Runs kernel i; returns the memory during its step.
    Bytes apply(int i) {
        const Bytes during = stepMemory(i);
        for (int t : tensorsOf_[i]) {
            if (!started_[t]) started_[t] = 1, live_ += tensors_[t].size;
            if (--left_[t] == 0 && !tensors_[t].usedAfter) live_ -= tensors_[t].size;
        }
        return during;
    }
    void undo(int i) {
        for (int t : tensorsOf_[i]) {
            if (left_[t]++ == 0 && !tensors_[t].usedAfter) live_ += tensors_[t].size;
            if (!tensors_[t].startedBefore && left_[t] == tensors_[t].touchers) started_[t] = 0, live_ -= tensors_[t].size;
        }
    }

    void search(Mask done, Bytes prefixPeak) {
        if (aborted_) return;
        if ((++expansions_ & 1023) == 0 && Clock::now() >= deadline_) {
            aborted_ = true;
            return;
        }
        const int depth = std::popcount(done);
        if (depth == m_) {
            if (prefixPeak < best_) best_ = prefixPeak, bestPath_ = path_;
            return;
        }
        Bytes bound = prefixPeak;
        for (int i = 0; i < m_; ++i)
            if (!(done >> i & 1)) bound = std::max(bound, stepBound_[i]);
        if (bound >= best_) return;
        if (auto it = memo_.find(done); it != memo_.end()) {
            if (it->second <= prefixPeak) return;
            it->second = prefixPeak;
        } else if (memo_.size() < kMaxMemoEntries) {
            memo_.emplace(done, prefixPeak);
        }
        // Ready kernels, lowest step memory first (ties: program position), so good orders come
        // early and tighten the bound.
        std::pair<Bytes, int> candidates[64];
        int count = 0;
        for (int i = 0; i < m_; ++i)
            if (!(done >> i & 1) && (pred_[i] & ~done) == 0) candidates[count++] = {stepMemory(i), i};
        std::sort(candidates, candidates + count);
        for (int c = 0; c < count; ++c) {
            const auto [during, i] = candidates[c];
            const Bytes peak = std::max(prefixPeak, during);
            if (peak >= best_) break;  // sorted: the rest are no better
            apply(i);
            path_.push_back(i);
            search(done | Mask(1) << i, peak);
            path_.pop_back();
            undo(i);
            if (aborted_) return;
        }
    }

    const std::vector<std::int64_t>& window_;
    int m_;
    std::vector<Mask> pred_;
    std::vector<std::vector<int>> tensorsOf_;
    std::vector<Bytes> ws_;
    std::vector<LocalTensor> tensors_;
    std::vector<std::int32_t> remainingOf_;
    std::vector<Bytes> stepBound_;
    Bytes base_ = 0;
    Bytes lowerBound_ = 0;

    Bytes live_ = 0;
    std::vector<char> started_;
    std::vector<int> left_;
    std::vector<int> path_, bestPath_;
    Bytes best_ = 0;
    std::unordered_map<Mask, Bytes> memo_;
    Clock::time_point deadline_;
    bool aborted_ = false;
    std::int64_t expansions_ = 0;
};

}  // namespace

WindowSolution solveWindowExactly(const OrderMemoryModel& model, const DependencyGraph& graph,
                                  const OrderMemoryModel::State& before, const std::vector<std::int64_t>& window,
                                  double timeLimitSeconds) {
    if (window.size() > 64) throw std::invalid_argument("an exact window holds at most 64 kernels");
    if (window.empty()) return {};
    WindowSearch search(model, graph, before, window);
    return search.run(timeLimitSeconds);
}

}  // namespace spillway
