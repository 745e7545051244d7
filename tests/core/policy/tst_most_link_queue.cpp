// MOST's planner model of one link direction: a FIFO that repeats every iteration (period 1000 ns
// here). Expected times worked out by hand below.
#include "core/policy/most_link_queue.h"

#include <QtTest>

using namespace spillway;

class TestMostLinkQueue : public QObject {
    Q_OBJECT
private slots:
    void aTransferOnAnIdleLinkTakesItsDuration() {
        MostLinkQueue queue(1000);
        QCOMPARE(queue.finishIfAdded(100, 300), Nanoseconds{400});
        const int id = queue.add(100, 300, 500);
        QCOMPARE(queue.finishOf(id), Nanoseconds{400});
    }
    void aLaterTransferWaitsForTheLinkToBeFree() {
        // Issued at 200 while the first one (100..400) holds the link: starts at 400, ends at 700.
        MostLinkQueue queue(1000);
        queue.add(100, 300, 500);
        QCOMPARE(queue.finishIfAdded(200, 300), Nanoseconds{700});
        // The same point in the next iteration (unrolled time 1200) waits the same way.
        QCOMPARE(queue.finishIfAdded(1200, 300), Nanoseconds{1700});
    }
    void anEarlierTransferPushesAQueuedOneLate() {
        // A new transfer at 50 (50..350) delays the queued one to 350..650: 150 ns past its
        // deadline of 500. One issued after it delays nothing.
        MostLinkQueue queue(1000);
        queue.add(100, 300, 500);
        QCOMPARE(queue.addedLateness(50, 300), Nanoseconds{150});
        QCOMPARE(queue.addedLateness(600, 300), Nanoseconds{0});
    }
    void transfersSpillOverTheIterationEnd() {
        // 900..1200 occupies the link into the next iteration: a transfer at 50 (= 1050 in the
        // next iteration) starts at 1200 and ends at 1300, i.e. 300 on its own iteration's axis.
        MostLinkQueue queue(1000);
        queue.add(900, 300);
        QCOMPARE(queue.finishIfAdded(50, 100), Nanoseconds{300});
    }
    void equalIssueTimesQueueInTheOrderAdded() {
        MostLinkQueue queue(1000);
        const int a = queue.add(100, 200);
        const int b = queue.add(100, 200);
        QCOMPARE(queue.finishOf(a), Nanoseconds{300});
        QCOMPARE(queue.finishOf(b), Nanoseconds{500});
    }
};

QTEST_GUILESS_MAIN(TestMostLinkQueue)
#include "tst_most_link_queue.moc"
