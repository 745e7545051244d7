// Liveness of the hand-made training step (small_training_step.h): first and last use,
// producer, last read and the use list of every tensor, worked out by hand from its table.
#include "core/analysis/liveness.h"
#include "small_training_step.h"

#include <QtTest>

using namespace spillway;

namespace {
QList<std::int32_t> asList(const std::vector<std::int32_t>& v) { return QList<std::int32_t>(v.begin(), v.end()); }
}  // namespace

class TestLiveness : public QObject {
    Q_OBJECT
private slots:
    void everyTensor_data() {
        QTest::addColumn<int>("pos");
        QTest::addColumn<QList<std::int32_t>>("uses");
        QTest::addColumn<qint64>("producer");
        QTest::addColumn<qint64>("lastRead");
        QTest::addColumn<bool>("persistent");
        // W: read by fwd2 (1), read and rewritten by update (4): its producer is the update.
        QTest::newRow("W") << 0 << QList<std::int32_t>{1, 4} << qint64(4) << qint64(4) << true;
        // X: read by kernel 0 only; no kernel writes it.
        QTest::newRow("X") << 1 << QList<std::int32_t>{0} << qint64(-1) << qint64(0) << false;
        QTest::newRow("A") << 2 << QList<std::int32_t>{0, 1, 3} << qint64(0) << qint64(3) << false;
        QTest::newRow("B") << 3 << QList<std::int32_t>{1, 2} << qint64(1) << qint64(2) << false;
        QTest::newRow("L") << 4 << QList<std::int32_t>{2, 3} << qint64(2) << qint64(3) << false;
        QTest::newRow("G") << 5 << QList<std::int32_t>{3, 4} << qint64(3) << qint64(4) << false;
        QTest::newRow("U never used") << 6 << QList<std::int32_t>{} << qint64(-1) << qint64(-1) << false;
        // S: read and written by the same kernel: one use, not two.
        QTest::newRow("S") << 7 << QList<std::int32_t>{4} << qint64(4) << qint64(4) << true;
        QTest::newRow("E") << 8 << QList<std::int32_t>{1, 2} << qint64(-1) << qint64(2) << true;
        // T: written again by kernel 3 after its last read at kernel 1.
        QTest::newRow("T") << 9 << QList<std::int32_t>{0, 1, 3} << qint64(0) << qint64(1) << false;
    }
    void everyTensor() {
        QFETCH(int, pos);
        QFETCH(QList<std::int32_t>, uses);
        QFETCH(qint64, producer);
        QFETCH(qint64, lastRead);
        QFETCH(bool, persistent);
        const auto liveness = computeLiveness(testing::smallTrainingStep());
        QCOMPARE(liveness.tensors.size(), size_t(10));
        const auto& l = liveness.tensors[pos];
        QCOMPARE(asList(l.uses), uses);
        QCOMPARE(l.firstUse, uses.isEmpty() ? -1 : uses.front());
        QCOMPARE(l.lastUse, uses.isEmpty() ? -1 : uses.back());
        QCOMPARE(l.used(), !uses.isEmpty());
        QCOMPARE(l.producer, producer);
        QCOMPARE(l.lastRead, lastRead);
        QCOMPARE(l.persistent, persistent);
    }

    void liveAtFollowsFirstAndLastUse() {
        const auto liveness = computeLiveness(testing::smallTrainingStep());
        // A (uses 0, 1, 3) is live at 2 although kernel 2 does not touch it, and dead at 4.
        const auto& a = liveness.tensors[2];
        QVERIFY(a.liveAt(0) && a.liveAt(2) && a.liveAt(3));
        QVERIFY(!a.liveAt(4));
        // E is persistent: live at kernel 4, which does not use it.
        QVERIFY(liveness.tensors[8].liveAt(4));
        // U is never used and not persistent: never live.
        for (int k = 0; k < 5; ++k) QVERIFY(!liveness.tensors[6].liveAt(k));
    }

    void repeatedAndUnknownIdsAreSkipped() {
        Profile p;
        p.tensors.push_back({});
        p.tensors[0].id = 1;
        p.tensors[0].bytes = 8;
        Kernel k;
        k.id = 0;
        k.duration = 1;
        k.inputs = {1, 1, 99};  // twice the same tensor, and an id no tensor has
        k.outputs = {1};
        p.kernels = {k, k};
        p.kernels[1].id = 1;
        const auto liveness = computeLiveness(p);
        QCOMPARE(liveness.tensors.size(), size_t(1));
        QCOMPARE(asList(liveness.tensors[0].uses), (QList<std::int32_t>{0, 1}));
        QCOMPARE(liveness.tensors[0].producer, 0);
        QCOMPARE(liveness.tensors[0].lastRead, 1);
    }

    void emptyProfile() {
        QVERIFY(computeLiveness(Profile{}).tensors.empty());
    }
};

QTEST_GUILESS_MAIN(TestLiveness)
#include "tst_liveness.moc"
