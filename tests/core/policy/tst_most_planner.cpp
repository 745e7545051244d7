// The most planner on hand-made profiles (expected directives worked out below) and on the real
// BERT-256 / ViT-1280 workloads (well-formed, deterministic plans).
#include "core/io/profile_loader.h"
#include "core/policy/planners.h"
#include "planner_test_support.h"

#include <QtTest>

using namespace spillway;

namespace {
// A GPU with a direct SSD link at `ssdBytesPerSecond` each way, 20 us SSD latency, 45 us faults,
// and, as in MOST's evaluation, no host memory for evicted data: UVM evicts to the SSD too.
HardwareConfig ssdMachine(Bytes gpu, std::int64_t ssdBytesPerSecond) {
    HardwareConfig hw;
    hw.gpuCapacity = gpu;
    hw.hostCapacity = 0;
    hw.ssdCapacity = 1024 * kGiB;
    hw.hostToGpu = hw.gpuToHost = {32 * kGiB, 0};
    hw.ssdToGpu = hw.gpuToSsd = {ssdBytesPerSecond, 20'000};
    hw.faultLatency = 45'000;
    return hw;
}
}  // namespace

class TestMostPlanner : public QObject {
    Q_OBJECT
private slots:
    void prefetchesAtPSafeWhenThatPointIsNotOversubscribed() {
        // A (1 GiB) idles over kernels 1-4 (400 ms); B1..B3 = 1 GiB put kernels 1-3 at 2 GiB on
        // a 1.5 GiB GPU, B4 = 0.25 GiB leaves kernel 4 at 1.25 GiB. SSD 16 GiB/s: eviction
        // 62.5 ms + 20 us, done inside kernel 1; fetch latency the same, so P_safe = kernel 4
        // (starts 400 ms, data back by 462.52 ms < 500 ms). Kernel 4 with A back holds
        // 1.25 GiB: no oversubscription at P_safe -> pre-evict at 1, prefetch at 4, to SSD.
        const auto profile = test::longGapProfile({kGiB, kGiB, kGiB, kGiB / 4});
        const auto plan = planMost(profile, ssdMachine(3 * kGiB / 2, 16 * kGiB));
        const std::vector<Directive> expected{{1, DirectiveKind::PreEvict, 100, Tier::Ssd},
                                              {4, DirectiveKind::Prefetch, 100, Tier::Gpu}};
        QCOMPARE(test::migrations(profile, plan), expected);
        QCOMPARE(plan.notes.at("migrations_prefetched_at_p_safe"), std::string("1"));
    }
    void declinesWhenTheStallItSavesComesBackWithThePrefetch() {
        // Same, but B4 = 1 GiB: kernel 4 is over by 0.5 GiB with A back. Every prefetch point
        // from P_safe (4) to the use costs the eviction of 0.5 GiB (Oversub_stall), which is
        // exactly what keeping A resident costs: no gain, no migration.
        const auto profile = test::longGapProfile({kGiB, kGiB, kGiB, kGiB});
        const auto plan = planMost(profile, ssdMachine(3 * kGiB / 2, 16 * kGiB));
        QVERIFY(test::migrations(profile, plan).empty());
        QCOMPARE(plan.notes.at("migrations_declined"), std::string("1"));
    }
    void migratesATensorTooLargeForItsIntervalWhenTheTradeOffPays() {
        // Kernels 0-7, A used at 0 and 7 (its use at 700 ms). B1 = 2 GiB puts kernel 1 at 3 GiB
        // (1.5 GiB over a 1.5 GiB GPU): keeping A resident costs evicting all its 1 GiB on the
        // critical path (45 us + 20 us + 250 ms). SSD at 4 GiB/s: the pre-eviction takes 250 ms,
        // done in kernel 3; P_safe = kernel 4 (400 + 250 ms <= 700 ms). B4 = B5 = 1 GiB keep
        // kernels 4-5 over by 0.5 GiB with A back, B6 = 0.25 GiB leaves kernel 6 fine:
        //   p = 4: Oversub_stall 125.065 ms + P_delay 0      = 125.065 ms  <- lowest
        //   p = 5: Oversub_stall 125.065 ms + P_delay 50 ms  = 175.065 ms
        //   p = 6: Oversub_stall 0          + P_delay 150 ms = 150 ms
        // 125.065 ms < 250.065 ms, so MOST migrates with p = 4; G10 would refuse this tensor
        // (2.5 x 250 ms > the 600 ms interval).
        const auto profile = test::longGapProfile({2 * kGiB, kGiB, kGiB, kGiB, kGiB, kGiB / 4});
        const auto plan = planMost(profile, ssdMachine(3 * kGiB / 2, 4 * kGiB));
        const std::vector<Directive> expected{{1, DirectiveKind::PreEvict, 100, Tier::Ssd},
                                              {4, DirectiveKind::Prefetch, 100, Tier::Gpu}};
        QCOMPARE(test::migrations(profile, plan), expected);
        QCOMPARE(plan.notes.at("migrations_traded_against_delay"), std::string("1"));
    }
    void queuesASecondPrefetchBehindTheFirstOnTheSsdLink() {
        // A and C (1 GiB each) are written by kernel 0 and read by kernel 7; B1..B5 = 1 GiB and
        // B6 = 0.25 GiB; 2.5 GiB GPU, so kernels 1-5 are 0.5 GiB over. SSD 16 GiB/s: a move takes
        // 62.52 ms. A (first on equal benefit) is pre-evicted at 1 and prefetched at its P_safe,
        // kernel 6 (600 -> 662.52 ms, before the use at 700 ms; kernel 6 fits with A back).
        // C's fetch issued at 6 too would wait for A's on the SSD->GPU link and land at
        // 725.04 ms, 25 ms late: its P_safe is kernel 5 (500 -> 562.52 ms), where C fits.
        // Without the link queue both would be prefetched at kernel 6.
        Profile profile = test::longGapProfile({kGiB, kGiB, kGiB, kGiB, kGiB, kGiB / 4});
        profile.tensors.push_back({.id = 101, .name = "C", .bytes = kGiB});
        profile.kernels.front().outputs.push_back(101);
        profile.kernels.back().inputs.push_back(101);
        const auto plan = planMost(profile, ssdMachine(5 * kGiB / 2, 16 * kGiB));
        const std::vector<Directive> expected{{1, DirectiveKind::PreEvict, 100, Tier::Ssd},
                                              {1, DirectiveKind::PreEvict, 101, Tier::Ssd},
                                              {5, DirectiveKind::Prefetch, 101, Tier::Gpu},
                                              {6, DirectiveKind::Prefetch, 100, Tier::Gpu}};
        QCOMPARE(test::migrations(profile, plan), expected);
        QCOMPARE(plan.notes.at("foreseen_late_prefetch_ns"), std::string("0"));
    }
    void movesNothingWhenMemorySuffices() {
        const auto profile = test::longGapProfile({kGiB, kGiB, kGiB, kGiB});
        QVERIFY(test::migrations(profile, planMost(profile, ssdMachine(4 * kGiB, 16 * kGiB))).empty());
    }
    void realWorkloadsGiveWellFormedDeterministicPlans_data() {
        QTest::addColumn<QString>("workload");
        QTest::newRow("BERT_Base_256") << "BERT_Base_256";
        QTest::newRow("VIT_1280") << "VIT_1280";
    }
    void realWorkloadsGiveWellFormedDeterministicPlans() {
        // MOST's machine (Table I): 24 GB GPU, SSD 3.2 GB/s.
        QFETCH(QString, workload);
        const auto profile = loadProfile(SPILLWAY_SHARED_DATA "/g10/derived/" + workload.toStdString());
        const auto hw = ssdMachine(24'000'000'000, 3'200'000'000);
        const auto plan = planMost(profile, hw);
        QVERIFY(plan.directives.size() > 10);
        QCOMPARE(planMost(profile, hw), plan);
        test::checkWellFormed(profile, plan);
        for (const auto& d : plan.directives)
            if (d.kind == DirectiveKind::PreEvict) QVERIFY(d.target == Tier::Ssd);
    }
};

QTEST_GUILESS_MAIN(TestMostPlanner)
#include "tst_most_planner.moc"
