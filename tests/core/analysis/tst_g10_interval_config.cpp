// G10's interval.config: the reader on small texts in G10's exact layout and on broken ones,
// and our analysis of the hand-made training step (small_training_step.h) in G10's conventions.
#include "core/analysis/g10_interval_config.h"
#include "core/io/base/import_error.h"
#include "small_training_step.h"

#include <QtTest>

#include <fstream>

using namespace spillway;

namespace {
// Two tensors as G10 prints them: a local one (liveness block, then intervals block) and a
// global one with a wrapping interval.
constexpr std::string_view kSample =
    "tensor0 Is weight (global)?: 0, Size in byte: 100663296, Range:0--100663296\n"
    "Liveness: Birth: 0, Death: 4.\n"
    "____________________________________________________________\n"
    "tensor0 Is weight (global)?: 0, Size in byte: 100663296, Range:0--100663296\n"
    "Hidding Intervals:\n"
    "interval 0: 1--------3\n"
    "Estimated Time:634.879\n"
    "_______________________________________________________________\n"
    "tensor5 Is weight (global)?: 1, Size in byte: 93765632, Range:8192--93773824\n"
    "Global!\n"
    "____________________________________________________________\n"
    "tensor5 Is weight (global)?: 1, Size in byte: 93765632, Range:8192--93773824\n"
    "Hidding Intervals:\n"
    "interval 0: 2--------1366\n"
    "Estimated Time:7.28461e+06\n"
    "interval 1: 1367--------1\n"
    "Estimated Time:407.551\n"
    "_______________________________________________________________\n";

QString describe(const G10TensorIntervals& r) {
    QString s = QStringLiteral("tensor%1 global %2 bytes %3 birth %4 death %5:")
                    .arg(r.tensor).arg(r.global).arg(r.bytes).arg(r.birth).arg(r.death);
    for (const auto& i : r.intervals)
        s += QStringLiteral(" [%1..%2 %3us]").arg(i.start).arg(i.end).arg(i.estimatedTimeUs, 0, 'g', 6);
    return s;
}
}  // namespace

class TestG10IntervalConfig : public QObject {
    Q_OBJECT
private slots:
    void readsG10Layout() {
        const auto records = parseG10IntervalConfig(kSample, "interval.config");
        QCOMPARE(records.size(), size_t(2));
        QCOMPARE(describe(records[0]),
                 QStringLiteral("tensor0 global 0 bytes 100663296 birth 0 death 4: [1..3 634.879us]"));
        QCOMPARE(describe(records[1]), QStringLiteral("tensor5 global 1 bytes 93765632 birth -1 death -1: "
                                                      "[2..1366 7.28461e+06us] [1367..1 407.551us]"));
        QCOMPARE(records[1].intervals[0].estimatedTimeUs, 7.28461e+06);
    }

    void rejectsBrokenInput_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("expected");
        const QString header = QStringLiteral("tensor0 Is weight (global)?: 0, Size in byte: 8, Range:0--8\n");
        QTest::newRow("garbage line") << header + "Hello\n" << 2 << "unexpected line";
        QTest::newRow("interval before any tensor") << "interval 0: 1--------3\n" << 1 << "header first";
        QTest::newRow("bad weight flag")
            << "tensor0 Is weight (global)?: 2, Size in byte: 8, Range:0--8\n" << 1 << "(global)?: 0";
        QTest::newRow("missing size") << "tensor0 Is weight (global)?: 0, Range:0--8\n" << 1 << "Size in byte";
        QTest::newRow("truncated liveness") << header + "Liveness: Birth: 0, Death: \n" << 2 << "Death";
        QTest::newRow("interval numbers skip") << header + "Hidding Intervals:\ninterval 1: 1--------3\n" << 3
                                               << "interval number 0";
        QTest::newRow("time missing at end of file") << header + "Hidding Intervals:\ninterval 0: 1--------3\n"
                                                     << 4 << "Estimated Time";
        QTest::newRow("time replaced by another interval")
            << header + "Hidding Intervals:\ninterval 0: 1--------3\ninterval 1: 4--------5\n" << 4
            << "Estimated Time";
        QTest::newRow("time without interval") << header + "Estimated Time:3.5\n" << 2 << "without an interval";
        QTest::newRow("time not a number") << header + "Hidding Intervals:\ninterval 0: 1--------3\nEstimated Time:abc\n"
                                           << 4 << "time in us";
        QTest::newRow("global tensor with liveness")
            << "tensor0 Is weight (global)?: 1, Size in byte: 8, Range:0--8\nLiveness: Birth: 0, Death: 4.\n" << 2
            << "global";
        QTest::newRow("Global! on a local tensor") << header + "Global!\n" << 2 << "Global!";
        QTest::newRow("tensor changes size")
            << header + "tensor0 Is weight (global)?: 0, Size in byte: 16, Range:0--16\n" << 2 << "differently";
        QTest::newRow("trailing text") << header + "Hidding Intervals: yes\n" << 2 << "end of the line";
    }
    void rejectsBrokenInput() {
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(QString, expected);
        const auto bytes = text.toStdString();
        try {
            parseG10IntervalConfig(bytes, "interval.config");
            QFAIL("accepted broken input");
        } catch (const ImportError& e) {
            QCOMPARE(e.location().file, std::string("interval.config"));
            QCOMPARE(e.location().line, std::int64_t(line));
            QVERIFY2(QString::fromStdString(e.message()).contains(expected), e.what());
        }
    }

    void emptyFileIsAnError() {
        QTemporaryDir dir;
        const auto path = dir.filePath("interval.config").toStdString();
        { std::ofstream(path).flush(); }
        QVERIFY_THROWS_EXCEPTION(ImportError, readG10IntervalConfig(path));
    }

    void smallTrainingStepInG10Conventions() {
        // Durations 10, 20, 5, 15, 40 ns: G10 times are in us, so 5 ns is 0.005.
        const auto p = testing::smallTrainingStep();
        const auto liveness = computeLiveness(p);
        const auto records = toG10Conventions(p, liveness, computeInactiveIntervals(p, liveness));
        QStringList got;
        for (const auto& r : records) got << describe(r);
        const QStringList want{
            // W: global; 2..4 (kernels 2, 3: 20 ns), then from its use at the last kernel to
            // kernel 1: G10 starts such an interval at 0 (kernel 0: 10 ns).
            "tensor10 global 1 bytes 100 birth -1 death -1: [2..4 0.02us] [0..1 0.01us]",
            // X: birth 0 = first use; death = last read + 1 = 1.
            "tensor11 global 0 bytes 10 birth 0 death 1:",
            "tensor12 global 0 bytes 40 birth 0 death 4: [2..3 0.005us]",
            "tensor13 global 0 bytes 20 birth 1 death 3:",
            "tensor14 global 0 bytes 5 birth 2 death 4:",
            "tensor15 global 0 bytes 100 birth 3 death 5:",
            // U: never used, never read.
            "tensor16 global 0 bytes 7 birth -1 death -1:",
            // S: one use at the last kernel: 0..4, all other kernels (50 ns).
            "tensor17 global 1 bytes 50 birth -1 death -1: [0..4 0.05us]",
            // E: wraps from after its use at 2 to its use at 1: kernels 3, 4, 0 (65 ns).
            "tensor18 global 1 bytes 60 birth -1 death -1: [3..1 0.065us]",
            // T: G10 ends its life at its last read (kernel 1): death 2, and the gap before the
            // write at kernel 3 is not one of its intervals.
            "tensor19 global 0 bytes 4 birth 0 death 2:",
        };
        QCOMPARE(got, want);
    }
};

QTEST_GUILESS_MAIN(TestG10IntervalConfig)
#include "tst_g10_interval_config.moc"
