#pragma once
// How the host backend's threads (compute, in, out) pass time and wait for each other.
//
// Real: the steady clock; a thread sleeps, then spins the last stretch, to reach a deadline.
// What it measures is what the program makes of the profiled times on this machine, scheduling
// included (`spillway-replay --backend host`).
//
// Virtual: time stands still while any thread can run, and moves, straight to the earliest
// deadline a thread sleeps until, only when every thread waits. A replay's times then follow from
// the program alone (its order, anchors, delays, waits and modelled durations), exact to the
// nanosecond and the same on an idle or a loaded machine: the tests of the backend's ordering
// rules use it.
//
// The threads' waits for each other go through the clock (under its mutex) so that a virtual
// clock knows when every thread waits.
#include "core/trace/units.h"

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>

namespace spillway::replay {

enum class HostTime { Real, Virtual };

class HostClock {
public:
    virtual ~HostClock() = default;
    // Nanoseconds since the clock was made.
    virtual Nanoseconds now() = 0;
    // Returns once now() >= deadline. Called without the mutex held.
    virtual void sleepUntil(Nanoseconds deadline) = 0;
    // With `lock` holding mutex(): returns once ready() (evaluated under the mutex).
    virtual void wait(std::unique_lock<std::mutex>& lock, const std::function<bool()>& ready) = 0;
    // With mutex() held, after a change a waiter's ready() may be waiting for.
    virtual void changed() = 0;
    // The calling thread waits for nothing more (it is about to end, or to join the others).
    virtual void leave() = 0;

    std::mutex& mutex() { return mutex_; }

protected:
    std::mutex mutex_;
};

// `threads`: how many threads use the clock (each calls leave() once when done).
std::unique_ptr<HostClock> makeHostClock(HostTime time, int threads);

}  // namespace spillway::replay
