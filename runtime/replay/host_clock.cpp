#include "runtime/replay/host_clock.h"

#include "runtime/replay/replay_backend.h"

#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

namespace spillway::replay {

namespace {

using Clock = std::chrono::steady_clock;

// Sleeping is coarse (tens of microseconds late, more on a loaded machine); spinning is exact
// but burns a core, and a spinning thread on a busy machine loses whole time slices. Sleep while
// the deadline is far, spin the last stretch (1 ms here made replays slower, not more exact).
constexpr Nanoseconds kSpinBelow = 200'000;

class RealClock final : public HostClock {
public:
    Nanoseconds now() override {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - origin_).count();
    }
    void sleepUntil(Nanoseconds deadline) override {
        for (Nanoseconds left = deadline - now(); left > 0; left = deadline - now()) {
            if (left > kSpinBelow) std::this_thread::sleep_for(std::chrono::nanoseconds(left - kSpinBelow / 2));
        }
    }
    void wait(std::unique_lock<std::mutex>& lock, const std::function<bool()>& ready) override {
        changed_.wait(lock, ready);
    }
    void changed() override { changed_.notify_all(); }
    void leave() override {}

private:
    const Clock::time_point origin_ = Clock::now();
    std::condition_variable changed_;
};

class VirtualClock final : public HostClock {
public:
    explicit VirtualClock(int threads) : running_(threads) {}

    Nanoseconds now() override {
        std::lock_guard lock(mutex_);
        return now_;
    }
    void sleepUntil(Nanoseconds deadline) override {
        std::unique_lock lock(mutex_);
        if (now_ >= deadline) return;
        Waiter w;
        w.deadline = deadline;
        block(lock, w);
    }
    void wait(std::unique_lock<std::mutex>& lock, const std::function<bool()>& ready) override {
        if (ready()) return;
        Waiter w;
        w.ready = &ready;
        block(lock, w);
    }
    void changed() override { wakeReady(); }
    void leave() override {
        std::lock_guard lock(mutex_);
        --running_;
        advanceWhenAllWait();
    }

private:
    struct Waiter {
        const std::function<bool()>* ready = nullptr;  // null: a sleeper, ready at `deadline`
        Nanoseconds deadline = 0;
        bool woken = false;
    };

    bool isReady(const Waiter& w) const { return w.ready ? (*w.ready)() : now_ >= w.deadline; }

    // The waker counts the woken as running at once, so time cannot move before they run.
    void wakeReady() {
        bool any = false;
        for (auto i = waiting_.begin(); i != waiting_.end();) {
            if (isReady(**i)) {
                (*i)->woken = true;
                ++running_;
                any = true;
                i = waiting_.erase(i);
            } else {
                ++i;
            }
        }
        if (any) wakeUp_.notify_all();
    }

    void advanceWhenAllWait() {
        if (running_ > 0 || waiting_.empty()) return;
        Nanoseconds next = -1;
        for (const Waiter* w : waiting_)
            if (!w->ready && (next < 0 || w->deadline < next)) next = w->deadline;
        if (next >= 0) {
            now_ = std::max(now_, next);
            wakeReady();
            return;
        }
        // Every thread waits for another and none for a time: the program's waits form a cycle,
        // on which real time would wait forever. Wake them all to fail (block()).
        stuck_ = true;
        for (Waiter* w : waiting_) w->woken = true;
        running_ += static_cast<int>(waiting_.size());
        waiting_.clear();
        wakeUp_.notify_all();
    }

    void block(std::unique_lock<std::mutex>& lock, Waiter& w) {
        waiting_.push_back(&w);
        --running_;
        advanceWhenAllWait();
        wakeUp_.wait(lock, [&] { return w.woken; });
        if (stuck_ && !isReady(w))
            throw ReplayError("host backend: every stream waits for another (the program's waits form a cycle)");
    }

    Nanoseconds now_ = 0;
    int running_;                    // threads not waiting (and not left)
    std::vector<Waiter*> waiting_;   // each on its thread's stack while it waits
    std::condition_variable wakeUp_;
    bool stuck_ = false;
};

}  // namespace

std::unique_ptr<HostClock> makeHostClock(HostTime time, int threads) {
    if (time == HostTime::Virtual) return std::make_unique<VirtualClock>(threads);
    return std::make_unique<RealClock>();
}

}  // namespace spillway::replay
