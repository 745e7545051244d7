#include "runtime/replay/host_backend.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

namespace spillway::replay {

namespace {

using Clock = std::chrono::steady_clock;

// Sleeping is coarse (tens of microseconds late, more on a loaded machine); spinning is exact
// but burns a core, and a spinning thread on a busy machine loses whole time slices. Sleep while
// the deadline is far, spin the last stretch (1 ms here made replays slower, not more exact).
constexpr Nanoseconds kSpinBelow = 200'000;

class Timer {
public:
    Nanoseconds now() const {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - origin_).count();
    }
    void waitUntil(Nanoseconds deadline) const {
        for (Nanoseconds left = deadline - now(); left > 0; left = deadline - now()) {
            if (left > kSpinBelow) std::this_thread::sleep_for(std::chrono::nanoseconds(left - kSpinBelow / 2));
        }
    }

private:
    Clock::time_point origin_ = Clock::now();
};

// What the threads share: when each anchor was reached and which directives are done. A
// waiting thread says what it waits for, so the others wake it only for that (waking the side
// streams at every anchor cost more than a short kernel on a loaded machine).
class Progress {
public:
    Progress(std::size_t anchors, std::size_t directives) : anchorAt_(anchors, -1), done_(directives, 0) {}

    void reachAnchor(std::size_t a, Nanoseconds t) {
        bool wake = false;
        {
            std::lock_guard lock(mutex_);
            anchorAt_[a] = t;
            wake = std::find(awaitedAnchors_.begin(), awaitedAnchors_.end(), a) != awaitedAnchors_.end();
        }
        if (wake) changed_.notify_all();
    }
    Nanoseconds waitAnchor(std::size_t a) {
        std::unique_lock lock(mutex_);
        awaitedAnchors_.push_back(a);
        changed_.wait(lock, [&] { return anchorAt_[a] >= 0 || aborted_; });
        awaitedAnchors_.erase(std::find(awaitedAnchors_.begin(), awaitedAnchors_.end(), a));
        return anchorAt_[a];
    }
    void finish(std::size_t d) {
        bool wake = false;
        {
            std::lock_guard lock(mutex_);
            done_[d] = 1;
            wake = std::find(awaitedDirectives_.begin(), awaitedDirectives_.end(), d) != awaitedDirectives_.end();
        }
        if (wake) changed_.notify_all();
    }
    void waitDone(std::size_t d) {
        std::unique_lock lock(mutex_);
        awaitedDirectives_.push_back(d);
        changed_.wait(lock, [&] { return done_[d] != 0 || aborted_; });
        awaitedDirectives_.erase(std::find(awaitedDirectives_.begin(), awaitedDirectives_.end(), d));
    }
    void abort() {
        {
            std::lock_guard lock(mutex_);
            aborted_ = true;
        }
        changed_.notify_all();
    }
    bool aborted() {
        std::lock_guard lock(mutex_);
        return aborted_;
    }

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<Nanoseconds> anchorAt_;
    std::vector<char> done_;
    std::vector<std::size_t> awaitedAnchors_;     // one entry per waiting thread
    std::vector<std::size_t> awaitedDirectives_;
    bool aborted_ = false;
};

}  // namespace

std::string HostBackend::device() const {
    return "host CPU (threads and timers; transfers timed by the plan's hardware links)";
}

BackendRun HostBackend::run(const ReplayProgram& program, int iterations) {
    const std::size_t n = program.kernels.size();
    const std::size_t d = program.directives.size();
    const auto iters = static_cast<std::size_t>(std::max(iterations, 0));
    BackendRun out;
    out.iterations.assign(iters, IterationTimes{std::vector<KernelTimes>(n), std::vector<DirectiveTimes>(d)});
    Progress progress(iters * 2 * n, iters * d);
    const Timer timer;

    // The side streams (in: prefetches; out: the rest): one directive after another, each at its
    // anchor plus its delay, after the other stream's latest directive on its tensor.
    std::exception_ptr sideError[2];
    auto sideStream = [&](SideStream stream, std::exception_ptr& error) {
        try {
            for (std::size_t it = 0; it < iters; ++it)
                for (std::size_t j = 0; j < d; ++j) {
                    const ReplayDirective& dir = program.directives[j];
                    if (dir.stream != stream) continue;
                    const std::size_t anchor = it * 2 * n + 2 * dir.anchorRunIndex + (dir.afterKernel ? 1 : 0);
                    const Nanoseconds reached = progress.waitAnchor(anchor);
                    if (dir.hasCrossWait && !(dir.crossWait.previousIteration && it == 0))
                        progress.waitDone((dir.crossWait.previousIteration ? it - 1 : it) * d + dir.crossWait.directive);
                    if (progress.aborted()) return;
                    DirectiveTimes& t = out.iterations[it].directives[j];
                    t.issue = reached + dir.delay;
                    timer.waitUntil(t.issue);
                    t.start = timer.now();
                    timer.waitUntil(t.start + dir.modelledDuration);
                    t.end = timer.now();
                    t.call = "host model: " + dir.modelledPath;
                    progress.finish(it * d + j);
                }
        } catch (...) {
            error = std::current_exception();
            progress.abort();
        }
    };
    std::thread in(sideStream, SideStream::In, std::ref(sideError[0]));
    std::thread outStream(sideStream, SideStream::Out, std::ref(sideError[1]));
    auto joinSides = [&] {
        in.join();
        outStream.join();
    };

    // The compute stream, on this thread.
    try {
        for (std::size_t it = 0; it < iters && !progress.aborted(); ++it)
            for (std::size_t r = 0; r < n; ++r) {
                const ReplayKernel& k = program.kernels[r];
                KernelTimes& t = out.iterations[it].kernels[r];
                t.ready = timer.now();
                progress.reachAnchor(it * 2 * n + 2 * r, t.ready);
                for (const ReplayDependency& dep : k.waitsFor) {
                    if (dep.previousIteration && it == 0) continue;
                    progress.waitDone((dep.previousIteration ? it - 1 : it) * d + dep.directive);
                }
                t.start = timer.now();
                for (const ReplayRecompute& rc : k.recomputes)
                    if (!rc.previousIteration || it > 0) t.recompute += rc.duration;
                timer.waitUntil(t.start + t.recompute + k.duration);
                t.end = timer.now();
                progress.reachAnchor(it * 2 * n + 2 * r + 1, t.end);
            }
    } catch (...) {
        progress.abort();
        joinSides();
        throw;
    }
    joinSides();
    for (const auto& error : sideError)
        if (error) std::rethrow_exception(error);
    return out;
}

}  // namespace spillway::replay
