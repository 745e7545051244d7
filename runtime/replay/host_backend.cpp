#include "runtime/replay/host_backend.h"

#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

namespace spillway::replay {

namespace {

using Clock = std::chrono::steady_clock;

// Sleeping is coarse (tens of microseconds late, more on a loaded machine); spinning is exact
// but burns a core. Sleep while the deadline is more than a millisecond away, spin the rest.
constexpr Nanoseconds kSpinBelow = 1'000'000;

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

// What both threads share: when each anchor was reached and which directives are done. Each
// side waits for one thing at a time and says which, so the other wakes it only for that one
// (waking the side stream at every anchor cost more than a short kernel on a loaded machine).
class Progress {
public:
    Progress(std::size_t anchors, std::size_t directives) : anchorAt_(anchors, -1), done_(directives, 0) {}

    void reachAnchor(std::size_t a, Nanoseconds t) {
        bool wake = false;
        {
            std::lock_guard lock(mutex_);
            anchorAt_[a] = t;
            wake = awaitedAnchor_ == a;
        }
        if (wake) changed_.notify_all();
    }
    Nanoseconds waitAnchor(std::size_t a) {
        std::unique_lock lock(mutex_);
        awaitedAnchor_ = a;
        changed_.wait(lock, [&] { return anchorAt_[a] >= 0 || aborted_; });
        awaitedAnchor_ = kNone;
        return anchorAt_[a];
    }
    void finish(std::size_t d) {
        bool wake = false;
        {
            std::lock_guard lock(mutex_);
            done_[d] = 1;
            wake = awaitedDirective_ == d;
        }
        if (wake) changed_.notify_all();
    }
    void waitDone(std::size_t d) {
        std::unique_lock lock(mutex_);
        awaitedDirective_ = d;
        changed_.wait(lock, [&] { return done_[d] != 0 || aborted_; });
        awaitedDirective_ = kNone;
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
    static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<Nanoseconds> anchorAt_;
    std::vector<char> done_;
    std::size_t awaitedAnchor_ = kNone;
    std::size_t awaitedDirective_ = kNone;
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

    // The side stream: one directive after another, each at its anchor plus its delay.
    std::exception_ptr sideError;
    std::thread side([&] {
        try {
            for (std::size_t it = 0; it < iters; ++it)
                for (std::size_t j = 0; j < d; ++j) {
                    const ReplayDirective& dir = program.directives[j];
                    const std::size_t anchor = it * 2 * n + 2 * dir.anchorRunIndex + (dir.afterKernel ? 1 : 0);
                    const Nanoseconds reached = progress.waitAnchor(anchor);
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
            sideError = std::current_exception();
            progress.abort();
        }
    });

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
        side.join();
        throw;
    }
    side.join();
    if (sideError) std::rethrow_exception(sideError);
    return out;
}

}  // namespace spillway::replay
