// The table of differences: values are the runs' own numbers, differences and ratios against
// the first run are worked out here by hand, a metric the baseline lacks has no ratio and
// sorts above every finite one, sorting a ratio column orders the metrics by change, and the
// TSV carries the raw numbers.
#include "tests/app/run_fixtures.h"
#include "views/run_difference_model.h"
#include "views/table_roles.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QtTest>

#include <cmath>

using namespace spillway;
using namespace spillway::views;

namespace {

// A run with chosen numbers only (no simulation needed for arithmetic).
std::shared_ptr<const RunViewData> handRun(const char* name, Nanoseconds iteration, Nanoseconds compute, Nanoseconds fault,
                                           Bytes hostToGpu, Bytes peak) {
    auto run = std::make_shared<RunViewData>();
    run->name = name;
    run->result.iterationTime = iteration;
    run->result.totals.compute = compute;
    run->result.totals.faultStall = fault;
    run->result.traffic[static_cast<int>(LinkId::HostToGpu)] = hostToGpu;
    run->result.peakGpuBytes = peak;
    return run;
}

int rowOf(const RunDifferenceModel& m, const QString& name) {
    for (int r = 0; r < m.rowCount(); ++r)
        if (m.metricName(r) == name) return r;
    return -1;
}

}  // namespace

class TestRunDifferenceModel : public QObject {
    Q_OBJECT
private slots:
    void valuesAreTheResultsNumbers() {
        RunDifferenceModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const auto small = test::simulatedRun("uvm", 30 * kMiB);
        const auto fits = test::simulatedRun("uvm", 1 * kGiB);
        model.setRuns({small, fits});
        QCOMPARE(model.rowCount(), RunDifferenceModel::metricCount());
        QCOMPARE(model.columnCount(), 5);  // metric, baseline, run 2, Δ run 2, × run 2
        const int iteration = rowOf(model, "iteration time");
        const int fault = rowOf(model, "fault stall");
        const int oversub = rowOf(model, "oversubscription stall");
        const int peak = rowOf(model, "peak GPU memory");
        const int h2d = rowOf(model, "traffic host→GPU");
        QVERIFY(iteration >= 0 && fault >= 0 && oversub >= 0 && peak >= 0 && h2d >= 0);
        QCOMPARE(model.value(iteration, 0), small->result.iterationTime);
        QCOMPARE(model.value(iteration, 1), fits->result.iterationTime);
        QCOMPARE(model.value(fault, 0), small->result.totals.faultStall);
        QCOMPARE(model.value(oversub, 0), small->result.totals.oversubStall);
        QCOMPARE(model.value(peak, 1), fits->result.peakGpuBytes);
        QCOMPARE(model.value(h2d, 0), small->result.traffic[static_cast<int>(LinkId::HostToGpu)]);
        // The same through the model's sort role, as the table sorts them.
        QCOMPARE(model.data(model.index(iteration, 1), kSortRole).toLongLong(), small->result.iterationTime);
        QCOMPARE(model.data(model.index(iteration, 2), kSortRole).toLongLong(), fits->result.iterationTime);
        QCOMPARE(model.data(model.index(iteration, 3), kSortRole).toLongLong(),
                 fits->result.iterationTime - small->result.iterationTime);
        // The small GPU stalls, the big one does not: the run that fits is faster.
        QVERIFY(model.delta(iteration, 1) < 0);
        model.setRuns({});
        QCOMPARE(model.rowCount(), 0);
    }

    void differencesAndRatiosByHand() {
        RunDifferenceModel model;
        // Baseline 1000 ns; run b 1500 ns (+500, 1.5x); run c 800 ns (-200, 0.8x). No fault
        // stall in the baseline: b's 300 ns has no ratio ("new"), c's 0 is 1x.
        model.setRuns({handRun("a", 1000, 1000, 0, 4096, 10 * kMiB), handRun("b", 1500, 1200, 300, 8192, 5 * kMiB),
                       handRun("c", 800, 800, 0, 0, 20 * kMiB)});
        QCOMPARE(model.columnCount(), 8);
        const int iteration = rowOf(model, "iteration time");
        const int fault = rowOf(model, "fault stall");
        const int h2d = rowOf(model, "traffic host→GPU");
        const int peak = rowOf(model, "peak GPU memory");
        QCOMPARE(model.delta(iteration, 1), Nanoseconds(500));
        QCOMPARE(*model.ratio(iteration, 1), 1.5);
        QCOMPARE(model.delta(iteration, 2), Nanoseconds(-200));
        QCOMPARE(*model.ratio(iteration, 2), 0.8);
        QVERIFY(!model.ratio(fault, 1).has_value());
        QCOMPARE(*model.ratio(fault, 2), 1.0);
        QCOMPARE(*model.ratio(h2d, 1), 2.0);
        QCOMPARE(*model.ratio(h2d, 2), 0.0);
        QCOMPARE(*model.ratio(peak, 1), 0.5);
        // Columns: metric, a, b, Δb, ×b, c, Δc, ×c.
        QCOMPARE(model.columnMeaning(6), std::make_pair(RunDifferenceModel::ColumnKind::Delta, 2));
        QCOMPARE(model.headerData(4, Qt::Horizontal).toString(), QString("× b"));
        QCOMPARE(model.data(model.index(iteration, 4)).toString(), QString("1.500×"));
        QCOMPARE(model.data(model.index(fault, 4)).toString(), QString("new"));
        QVERIFY(model.data(model.index(iteration, 6)).toString().startsWith("−"));  // c is 200 ns faster
        QVERIFY(model.data(model.index(iteration, 3)).toString().startsWith("+"));
    }

    void sortingARatioColumnOrdersByChange() {
        RunDifferenceModel model;
        model.setRuns({handRun("a", 1000, 1000, 0, 4096, 10 * kMiB), handRun("b", 1500, 1200, 300, 8192, 5 * kMiB)});
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(kSortRole);
        proxy.sort(4, Qt::DescendingOrder);  // × b, largest first
        // The fault stall came from nothing (no finite ratio): first; then traffic 2x, then
        // iteration time 1.5x, compute 1.2x; peak 0.5x below every 1x metric.
        QCOMPARE(proxy.data(proxy.index(0, 0)).toString(), QString("fault stall"));
        QCOMPARE(proxy.data(proxy.index(1, 0)).toString(), QString("traffic host→GPU"));
        QCOMPARE(proxy.data(proxy.index(2, 0)).toString(), QString("iteration time"));
        QCOMPARE(proxy.data(proxy.index(3, 0)).toString(), QString("compute"));
        QCOMPARE(proxy.data(proxy.index(proxy.rowCount() - 1, 0)).toString(), QString("peak GPU memory"));
        for (int r = 2; r < proxy.rowCount(); ++r)
            QVERIFY(proxy.data(proxy.index(r - 1, 4), kSortRole).toDouble() >= proxy.data(proxy.index(r, 4), kSortRole).toDouble());
        // Sorting by the baseline's values: bytes and nanoseconds compare as numbers.
        proxy.sort(3, Qt::AscendingOrder);  // Δ b
        QCOMPARE(proxy.data(proxy.index(0, 0)).toString(), QString("peak GPU memory"));  // -5 MiB
        // The metric column goes back to the table's order.
        proxy.sort(0, Qt::AscendingOrder);
        for (int r = 0; r < proxy.rowCount(); ++r) QCOMPARE(proxy.data(proxy.index(r, 0)).toString(), model.metricName(r));
    }

    void tsvHasTheRawNumbers() {
        RunDifferenceModel model;
        model.setRuns({handRun("a", 1000, 1000, 0, 4096, 10 * kMiB), handRun("b", 1500, 1200, 300, 8192, 5 * kMiB)});
        const QStringList lines = model.toTsv().split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1 + RunDifferenceModel::metricCount());
        QCOMPARE(lines[0], QString("Metric\ta (baseline)\tb\tΔ b\t× b"));
        const int iteration = rowOf(model, "iteration time");
        QCOMPARE(lines[1 + iteration], QString("iteration time (ns)\t1000\t1500\t500\t1.5"));
        const int fault = rowOf(model, "fault stall");
        QCOMPARE(lines[1 + fault], QString("fault stall (ns)\t0\t300\t300\t"));  // no ratio: empty
        const int peak = rowOf(model, "peak GPU memory");
        QCOMPARE(lines[1 + peak].split('\t')[1].toLongLong(), 10 * kMiB);
        QCOMPARE(lines[1 + peak].split('\t')[3].toLongLong(), -5 * kMiB);
    }
};

QTEST_MAIN(TestRunDifferenceModel)
#include "tst_run_difference_model.moc"
