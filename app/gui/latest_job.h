#pragma once
// Work the GUI hands to a worker thread. runOnWorker runs one job and brings its result back to
// the GUI thread. LatestJob adds "the latest request wins" for what follows a setting the user
// keeps changing (a what-if run, a layout, the profile being opened): starting a job cancels the
// one before it and drops that one's result, so the screen never goes back to an older request
// however fast requests come, and a slow old job stops early instead of holding a worker.
#include "app/gui/job_control.h"

#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent/QtConcurrentRun>

#include <memory>
#include <type_traits>
#include <utility>

namespace spillway::app {

// Runs `work()` on the global thread pool, then `done(result)` on `context`'s thread. Nothing is
// delivered once `context` is destroyed (the worker still finishes; its result is thrown away).
// `work` must not throw: a job turns its failures into its result (job_outcome.h) for the GUI
// to show.
template <typename Work, typename Done>
void runOnWorker(QObject* context, Work work, Done done) {
    using Result = std::invoke_result_t<const Work&>;
    auto* watcher = new QFutureWatcher<Result>(context);
    QObject::connect(watcher, &QFutureWatcherBase::finished, context, [watcher, done = std::move(done)]() mutable {
        watcher->deleteLater();
        done(watcher->result());
    });
    watcher->setFuture(QtConcurrent::run(std::move(work)));
}

// The newest of a series of jobs. Each job gets a Control of its own (its cancel flag, and the
// progress it reports: JobControl, or whatever struct with a `cancel` atomic the work takes, such
// as core's DeployablePlanControl), which it keeps for as long as it runs.
template <typename Result, typename Control = JobControl>
class LatestJob {
public:
    // What becomes of a job still running when the LatestJob goes (its window closes).
    enum class WhenDestroyed {
        Cancel,     // asked to stop: nothing it would still do matters
        LetFinish,  // runs to its end (a file the user asked to write is still written)
    };
    // Results are delivered on `context`'s thread, never after `context` is destroyed.
    explicit LatestJob(QObject* context, WhenDestroyed whenDestroyed = WhenDestroyed::Cancel)
        : context_(context), whenDestroyed_(whenDestroyed) {}
    // Its result is dropped either way.
    ~LatestJob() {
        if (whenDestroyed_ == WhenDestroyed::Cancel) cancel();
        else ++state_->ticket;
    }
    LatestJob(const LatestJob&) = delete;
    LatestJob& operator=(const LatestJob&) = delete;

    // Cancels the job before (as cancel() does) and runs `work(control)` on a worker.
    // `done(result)` runs on the context's thread unless start() or cancel() is called meanwhile;
    // by then isRunning() is false again.
    template <typename Work, typename Done>
    void start(Work work, Done done) {
        cancel();
        auto control = std::make_shared<Control>();
        state_->control = control;
        ++state_->unfinished;
        // The state, not `this`, is what the callback holds: whoever owns the LatestJob may drop
        // it before the worker returns.
        runOnWorker(
            context_, [work = std::move(work), control]() -> Result { return work(*control); },
            [state = state_, ticket = state_->ticket, done = std::move(done)](Result result) mutable {
                --state->unfinished;
                if (ticket != state->ticket) return;  // a newer start() or a cancel() came first
                state->control.reset();
                done(std::move(result));
            });
    }

    // Sets the running job's cancel flag and drops its result, whenever it comes. Returns whether
    // a job was running (false: nothing to cancel, and nothing was emitted for it).
    bool cancel() {
        ++state_->ticket;
        if (!state_->control) return false;
        state_->control->cancel = true;
        state_->control.reset();
        return true;
    }
    // Sets the running job's cancel flag but keeps its result wanted: the job says it stopped.
    void requestStop() {
        if (state_->control) state_->control->cancel = true;
    }

    // The newest job runs and its result is still wanted.
    bool isRunning() const { return state_->control != nullptr; }
    // The running job's control (its progress), null when none runs.
    const Control* control() const { return state_->control.get(); }
    // Jobs whose results have not come back yet, dropped ones included: a cancelled job can still
    // be winding down on a worker.
    int unfinished() const { return state_->unfinished; }

private:
    struct State {
        quint64 ticket = 0;  // the only result delivered is the one started at this ticket
        int unfinished = 0;
        std::shared_ptr<Control> control;  // the running job's; null when none is wanted
    };
    QObject* context_;
    WhenDestroyed whenDestroyed_;
    std::shared_ptr<State> state_ = std::make_shared<State>();
};

}  // namespace spillway::app
