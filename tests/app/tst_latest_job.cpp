// LatestJob and runOnWorker (app/gui/latest_job.h), the one way the app runs work off the GUI
// thread: a newer job cancels the older one and only the newest result arrives, on the GUI
// thread; cancel() drops a result, requestStop() does not; progress is readable while a job
// runs; nothing arrives once the context is gone. No test waits on a clock to decide anything:
// workers are held on semaphores the test releases, and waits only end when what they wait for
// has happened (their timeouts are a safety net against a hang).
#include "app/gui/latest_job.h"

#include <QCoreApplication>
#include <QSemaphore>
#include <QThread>
#include <QThreadPool>
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <memory>
#include <vector>

using spillway::app::JobControl;
using spillway::app::LatestJob;
using spillway::app::runOnWorker;

namespace {

constexpr int kSafetyMs = 30000;

// A worker held until the test lets it go; it is let go at the latest when the test ends, so a
// failed check never leaves a worker blocked (the pool waits for its workers at exit).
struct Gate {
    QSemaphore entered;  // the worker reached the gate
    QSemaphore open;
    ~Gate() { open.release(1000); }
    void wait() {
        entered.release();
        open.acquire();
    }
};

// What a job saw: whether its cancel flag was set when it was let go, and on which thread it ran.
struct Seen {
    std::atomic<bool> cancelled{false};
    std::atomic<QThread*> thread{nullptr};
};

// A job that records what it saw and returns `value`.
auto heldJob(Gate& gate, Seen& seen, int value) {
    return [&gate, &seen, value](JobControl& control) {
        seen.thread = QThread::currentThread();
        gate.wait();
        seen.cancelled = control.cancel.load();
        return value;
    };
}

}  // namespace

class TestLatestJob : public QObject {
    Q_OBJECT
private slots:
    // Two held jobs must be able to run at once, whatever the machine's core count.
    void initTestCase() {
        QThreadPool* pool = QThreadPool::globalInstance();
        pool->setMaxThreadCount(std::max(pool->maxThreadCount(), 4));
    }

    void newestResultWinsAndOlderIsCancelled() {
        QObject context;
        LatestJob<int> job(&context);
        std::vector<int> delivered;
        QThread* deliveredOn = nullptr;
        const auto record = [&](int value) {
            delivered.push_back(value);
            deliveredOn = QThread::currentThread();
        };
        Gate first, second;
        Seen seenFirst, seenSecond;
        job.start(heldJob(first, seenFirst, 1), record);
        QVERIFY(first.entered.tryAcquire(1, kSafetyMs));  // the first job runs on a worker
        job.start(heldJob(second, seenSecond, 2), record);
        QVERIFY(job.isRunning());
        // The first comes back first, while the second is still held: it must not be shown.
        first.open.release();
        QTRY_COMPARE_WITH_TIMEOUT(job.unfinished(), 1, kSafetyMs);
        QVERIFY(delivered.empty());
        QVERIFY(seenFirst.cancelled);
        second.open.release();
        QTRY_COMPARE_WITH_TIMEOUT(delivered.size(), size_t(1), kSafetyMs);
        QCOMPARE(delivered.front(), 2);
        QVERIFY(!seenSecond.cancelled);
        QCOMPARE(job.unfinished(), 0);
        QVERIFY(!job.isRunning());
        // Work ran on a worker, the result came on the GUI thread.
        QVERIFY(seenFirst.thread != QCoreApplication::instance()->thread());
        QVERIFY(seenSecond.thread != QCoreApplication::instance()->thread());
        QCOMPARE(deliveredOn, QCoreApplication::instance()->thread());
    }

    void olderResultArrivingLastIsDropped() {
        QObject context;
        LatestJob<int> job(&context);
        std::vector<int> delivered;
        const auto record = [&](int value) { delivered.push_back(value); };
        Gate first, second;
        Seen seenFirst, seenSecond;
        job.start(heldJob(first, seenFirst, 1), record);
        QVERIFY(first.entered.tryAcquire(1, kSafetyMs));
        job.start(heldJob(second, seenSecond, 2), record);
        second.open.release();
        QTRY_COMPARE_WITH_TIMEOUT(delivered.size(), size_t(1), kSafetyMs);
        QCOMPARE(delivered.front(), 2);
        // The superseded job returns after the newest one was shown: still nothing of it arrives.
        first.open.release();
        QTRY_COMPARE_WITH_TIMEOUT(job.unfinished(), 0, kSafetyMs);
        QCOMPARE(delivered, std::vector<int>{2});
        QVERIFY(seenFirst.cancelled);
    }

    void cancelDropsTheResult() {
        QObject context;
        LatestJob<int> job(&context);
        int delivered = 0;
        Gate gate;
        Seen seen;
        QVERIFY(!job.cancel());  // nothing runs: nothing to cancel
        job.start(heldJob(gate, seen, 1), [&](int) { ++delivered; });
        QVERIFY(job.isRunning());
        QVERIFY(job.cancel());
        QVERIFY(!job.isRunning());
        QVERIFY(!job.control());
        QCOMPARE(job.unfinished(), 1);  // still winding down on its worker
        gate.open.release();
        QTRY_COMPARE_WITH_TIMEOUT(job.unfinished(), 0, kSafetyMs);
        QCOMPARE(delivered, 0);
        QVERIFY(seen.cancelled);
    }

    void requestStopStillDelivers() {
        QObject context;
        LatestJob<int> job(&context);
        std::vector<int> delivered;
        Gate gate;
        Seen seen;
        // The job reports whether it was asked to stop, as a sweep says "Cancelled.".
        job.start(
            [&](JobControl& control) {
                gate.wait();
                seen.cancelled = control.cancel.load();
                return control.cancel.load() ? -1 : 1;
            },
            [&](int value) {
                QVERIFY(!job.isRunning());  // done, as far as the receiver is concerned
                delivered.push_back(value);
            });
        job.requestStop();
        QVERIFY(job.isRunning());  // its result is still wanted
        gate.open.release();
        QTRY_COMPARE_WITH_TIMEOUT(delivered.size(), size_t(1), kSafetyMs);
        QCOMPARE(delivered.front(), -1);
        QVERIFY(seen.cancelled);
    }

    void progressIsReadWhileItRuns() {
        QObject context;
        LatestJob<int> job(&context);
        QVERIFY(!job.control());
        QSemaphore reported;
        Gate gate;
        int delivered = 0;
        job.start(
            [&](JobControl& control) {
                control.percent = 42;
                reported.release();
                gate.wait();
                return 7;
            },
            [&](int value) { delivered = value; });
        QVERIFY(reported.tryAcquire(1, kSafetyMs));
        QVERIFY(job.control());
        QCOMPARE(job.control()->percent.load(), 42);
        gate.open.release();
        QTRY_COMPARE_WITH_TIMEOUT(delivered, 7, kSafetyMs);
        QVERIFY(!job.control());  // the finished job's control is gone with it
    }

    // A control of the work's own kind (the app's plan export uses core's DeployablePlanControl).
    void takesTheWorksOwnControl() {
        struct StepControl {
            std::atomic<bool> cancel{false};
            std::atomic<int> step{0};
        };
        QObject context;
        LatestJob<int, StepControl> job(&context);
        int delivered = 0;
        job.start(
            [](StepControl& control) {
                control.step = 3;
                return control.step.load();
            },
            [&](int value) { delivered = value; });
        QTRY_COMPARE_WITH_TIMEOUT(delivered, 3, kSafetyMs);
    }

    void nothingArrivesOnceTheContextIsGone() {
        auto context = std::make_unique<QObject>();
        LatestJob<int> job(context.get());
        int delivered = 0;
        Gate gate;
        Seen seen;
        QSemaphore returned;
        job.start(
            [&](JobControl& control) {
                const int value = heldJob(gate, seen, 1)(control);
                returned.release();
                return value;
            },
            [&](int) { ++delivered; });
        QVERIFY(gate.entered.tryAcquire(1, kSafetyMs));
        context.reset();
        gate.open.release();
        QVERIFY(returned.tryAcquire(1, kSafetyMs));
        QThreadPool::globalInstance()->waitForDone(kSafetyMs);
        QCoreApplication::processEvents();
        QCOMPARE(delivered, 0);
    }

    void destroyingTheJobCancelsIt() {
        QObject context;
        int delivered = 0;
        Gate gate;
        Seen seen;
        {
            LatestJob<int> job(&context);
            job.start(heldJob(gate, seen, 1), [&](int) { ++delivered; });
            QVERIFY(gate.entered.tryAcquire(1, kSafetyMs));
        }
        gate.open.release();
        QThreadPool::globalInstance()->waitForDone(kSafetyMs);
        // The watcher still delivers to the context; the job it belonged to is gone, so it drops it.
        QTest::qWait(0);
        QCoreApplication::processEvents();
        QCOMPARE(delivered, 0);
        QVERIFY(seen.cancelled);
    }

    void runOnWorkerDeliversEveryJob() {
        QObject context;
        std::vector<int> delivered;
        Gate first, second;
        runOnWorker(
            &context,
            [&] {
                first.wait();
                return 1;
            },
            [&](int value) { delivered.push_back(value); });
        runOnWorker(
            &context,
            [&] {
                second.wait();
                return 2;
            },
            [&](int value) { delivered.push_back(value); });
        first.open.release();
        second.open.release();
        QTRY_COMPARE_WITH_TIMEOUT(delivered.size(), size_t(2), kSafetyMs);
        std::sort(delivered.begin(), delivered.end());
        QCOMPARE(delivered, (std::vector<int>{1, 2}));
    }
};

QTEST_MAIN(TestLatestJob)
#include "tst_latest_job.moc"
