#include "runtime/replay/host_backend.h"

#include <algorithm>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

namespace spillway::replay {

namespace {

// What the threads share: when each anchor was reached and which directives are done. A
// waiting thread says what it waits for, so the others wake it only for that (waking the side
// streams at every anchor cost more than a short kernel on a loaded machine).
class Progress {
public:
    Progress(HostClock& clock, std::size_t anchors, std::size_t directives)
        : clock_(clock), anchorAt_(anchors, -1), done_(directives, 0) {}

    void reachAnchor(std::size_t a, Nanoseconds t) {
        std::lock_guard lock(clock_.mutex());
        anchorAt_[a] = t;
        if (std::find(awaitedAnchors_.begin(), awaitedAnchors_.end(), a) != awaitedAnchors_.end()) clock_.changed();
    }
    Nanoseconds waitAnchor(std::size_t a) {
        std::unique_lock lock(clock_.mutex());
        awaitedAnchors_.push_back(a);
        clock_.wait(lock, [&] { return anchorAt_[a] >= 0 || aborted_; });
        awaitedAnchors_.erase(std::find(awaitedAnchors_.begin(), awaitedAnchors_.end(), a));
        return anchorAt_[a];
    }
    void finish(std::size_t d) {
        std::lock_guard lock(clock_.mutex());
        done_[d] = 1;
        if (std::find(awaitedDirectives_.begin(), awaitedDirectives_.end(), d) != awaitedDirectives_.end())
            clock_.changed();
    }
    void waitDone(std::size_t d) {
        std::unique_lock lock(clock_.mutex());
        awaitedDirectives_.push_back(d);
        clock_.wait(lock, [&] { return done_[d] != 0 || aborted_; });
        awaitedDirectives_.erase(std::find(awaitedDirectives_.begin(), awaitedDirectives_.end(), d));
    }
    void abort() {
        std::lock_guard lock(clock_.mutex());
        aborted_ = true;
        clock_.changed();
    }
    bool aborted() {
        std::lock_guard lock(clock_.mutex());
        return aborted_;
    }

private:
    HostClock& clock_;  // its mutex guards everything here
    std::vector<Nanoseconds> anchorAt_;
    std::vector<char> done_;
    std::vector<std::size_t> awaitedAnchors_;     // one entry per waiting thread
    std::vector<std::size_t> awaitedDirectives_;
    bool aborted_ = false;
};

// A thread that is done waits for nothing more, even when it leaves by an exception.
struct LeaveOnExit {
    HostClock& clock;
    ~LeaveOnExit() { clock.leave(); }
};

}  // namespace

std::string HostBackend::device() const {
    if (time_ == HostTime::Virtual)
        return "host CPU, virtual time (threads; kernels and transfers take exactly their profiled and modelled "
               "times)";
    return "host CPU (threads and timers; transfers timed by the plan's hardware links)";
}

BackendRun HostBackend::run(const ReplayProgram& program, int iterations) {
    const std::size_t n = program.kernels.size();
    const std::size_t d = program.directives.size();
    const auto iters = static_cast<std::size_t>(std::max(iterations, 0));
    BackendRun out;
    out.iterations.assign(iters, IterationTimes{std::vector<KernelTimes>(n), std::vector<DirectiveTimes>(d)});
    // Three threads use the clock: this one (the compute stream) and the two side streams.
    const std::unique_ptr<HostClock> clock = makeHostClock(time_, 3);
    Progress progress(*clock, iters * 2 * n, iters * d);

    // The side streams (in: prefetches; out: the rest): one directive after another, each at its
    // anchor plus its delay, after the other stream's latest directive on its tensor.
    std::exception_ptr sideError[2];
    auto sideStream = [&](SideStream stream, std::exception_ptr& error) {
        const LeaveOnExit leaving{*clock};
        try {
            for (std::size_t it = 0; it < iters; ++it)
                for (std::size_t j = 0; j < d; ++j) {
                    const ReplayDirective& dir = program.directives[j];
                    if (dir.stream != stream) continue;
                    const std::size_t anchor = it * 2 * n + 2 * dir.anchorRunIndex + (dir.afterKernel ? 1 : 0);
                    const Nanoseconds reached = progress.waitAnchor(anchor);
                    if (dir.hasCrossWait && !(dir.crossWait.previousIteration && it == 0))
                        progress.waitDone((dir.crossWait.previousIteration ? it - 1 : it) * d + dir.crossWait.directive);
                    for (const ReplayDependency& dep : dir.slotWaits)
                        if (!(dep.previousIteration && it == 0))
                            progress.waitDone((dep.previousIteration ? it - 1 : it) * d + dep.directive);
                    if (progress.aborted()) return;
                    DirectiveTimes& t = out.iterations[it].directives[j];
                    t.issue = reached + dir.delay;
                    clock->sleepUntil(t.issue);
                    t.start = clock->now();
                    clock->sleepUntil(t.start + dir.modelledDuration);
                    t.end = clock->now();
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

    // The compute stream, on this thread.
    std::exception_ptr computeError;
    {
        const LeaveOnExit leaving{*clock};
        try {
            for (std::size_t it = 0; it < iters && !progress.aborted(); ++it)
                for (std::size_t r = 0; r < n; ++r) {
                    const ReplayKernel& k = program.kernels[r];
                    KernelTimes& t = out.iterations[it].kernels[r];
                    t.ready = clock->now();
                    progress.reachAnchor(it * 2 * n + 2 * r, t.ready);
                    for (const ReplayDependency& dep : k.waitsFor) {
                        if (dep.previousIteration && it == 0) continue;
                        progress.waitDone((dep.previousIteration ? it - 1 : it) * d + dep.directive);
                    }
                    t.start = clock->now();
                    for (const ReplayRecompute& rc : k.recomputes)
                        if (!rc.previousIteration || it > 0) t.recompute += rc.duration;
                    clock->sleepUntil(t.start + t.recompute + k.duration);
                    t.end = clock->now();
                    progress.reachAnchor(it * 2 * n + 2 * r + 1, t.end);
                }
        } catch (...) {
            computeError = std::current_exception();
            progress.abort();
        }
    }
    in.join();
    outStream.join();
    if (computeError) std::rethrow_exception(computeError);
    for (const auto& error : sideError)
        if (error) std::rethrow_exception(error);
    return out;
}

}  // namespace spillway::replay
