// The g10 planner on hand-made profiles (expected directives worked out below) and on the real
// BERT-256 / ViT-1280 workloads (well-formed, deterministic plans).
#include "core/analysis/inactive_intervals.h"
#include "core/io/profile_loader.h"
#include "core/policy/planners.h"
#include "planner_test_support.h"

#include <QtTest>

using namespace spillway;

namespace {
HardwareConfig hostOnlyMachine(Bytes gpu) {
    HardwareConfig hw;
    hw.gpuCapacity = gpu;
    hw.hostCapacity = 64 * kGiB;
    hw.hostToGpu = {16 * kGiB, 0};
    hw.gpuToHost = {16 * kGiB, 0};
    hw.faultLatency = 45'000;
    hw.plannerSafetyPermille = 500;
    return hw;
}
HardwareConfig g10Machine() {
    HardwareConfig hw = hostOnlyMachine(40 * kGiB);
    hw.hostCapacity = 128 * kGiB;
    const auto pcie = static_cast<std::int64_t>(15.754 * kGiB);
    const auto ssd = static_cast<std::int64_t>(3.2 * kGiB);
    hw.hostToGpu = hw.gpuToHost = {pcie, 0};
    hw.ssdToGpu = hw.gpuToSsd = {ssd, 20'000};
    hw.allocFemtosecondsPerByte = 814;
    return hw;
}
}  // namespace

class TestG10Planner : public QObject {
    Q_OBJECT
private slots:
    void evictsTheLongIntervalToHostAndPrefetchesEarly() {
        // A (1 GiB) idles over kernels 1-4; B1..B4 (1 GiB each) need 2 GiB at kernels 1-4, over
        // the 99% line of a 1.5 GiB GPU. No SSD link, so host: moving 1 GiB at 16 GiB/s takes
        // 62.5 ms + 45 us; 2.5x that (156 ms) < the 400 ms interval. Budgets of 1.6 GiB per
        // kernel: the eviction is done in kernel 1, the prefetch must start at kernel 4, so
        // kernels 2-3 drop to 1 GiB. The prefetch then moves earlier while the kernel before
        // it is under the line: to kernel 2 (not before eviction done + 1).
        const auto profile = test::longGapProfile({kGiB, kGiB, kGiB, kGiB});
        const auto plan = planG10(profile, hostOnlyMachine(3 * kGiB / 2));
        const std::vector<Directive> expected{{1, DirectiveKind::PreEvict, 100, Tier::Host},
                                              {2, DirectiveKind::Prefetch, 100, Tier::Gpu}};
        QCOMPARE(test::migrations(profile, plan), expected);
    }
    void movesNothingWhenMemorySuffices() {
        const auto profile = test::longGapProfile({kGiB, kGiB, kGiB, kGiB});
        QVERIFY(test::migrations(profile, planG10(profile, hostOnlyMachine(4 * kGiB))).empty());
    }
    void skipsIntervalsTooShortForTheLink() {
        // Same shape at 1 GiB/s: a move takes 1 s + 45 us, 2.5x that exceeds the 400 ms interval.
        auto hw = hostOnlyMachine(3 * kGiB / 2);
        hw.hostToGpu = hw.gpuToHost = {kGiB, 0};
        const auto profile = test::longGapProfile({kGiB, kGiB, kGiB, kGiB});
        QVERIFY(test::migrations(profile, planG10(profile, hw)).empty());
    }
    void realWorkloadsGiveWellFormedDeterministicPlans_data() {
        QTest::addColumn<QString>("workload");
        QTest::newRow("BERT_Base_256") << "BERT_Base_256";
        QTest::newRow("VIT_1280") << "VIT_1280";
    }
    void realWorkloadsGiveWellFormedDeterministicPlans() {
        QFETCH(QString, workload);
        const auto profile = loadProfile(SPILLWAY_SHARED_DATA "/g10/derived/" + workload.toStdString());
        const auto plan = planG10(profile, g10Machine());
        QVERIFY(plan.directives.size() > 10);
        QCOMPARE(planG10(profile, g10Machine()), plan);
        test::checkWellFormed(profile, plan);
    }

};

QTEST_GUILESS_MAIN(TestG10Planner)
#include "tst_g10_planner.moc"
