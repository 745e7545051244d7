// DeepUM's proactive pre-eviction (deepum_pre_eviction.cpp): on the eight-kernel step
// (training_step_8.h) squeezed into 32 MiB behind a slow SSD, the plan evicts ahead of the
// prefetches that need the room, and the simulated iteration stalls less on faults and
// evictions than the same prefetches without it; on BERT on MOST's machine it is not slower.
#include "core/hardware/hardware_presets.h"
#include "core/io/profile_loader.h"
#include "core/policy/planner.h"
#include "core/sim/simulator.h"
#include "directive_checks.h"
#include "training_step_8.h"

#include <QtTest>

#include <filesystem>

using namespace spillway;

namespace {

// MOST's machine (SSD only: evictions go to the SSD) with the step's 46 MiB squeezed into 32.
HardwareConfig squeezed(const std::string& bandwidth) {
    auto hw = hardwarePreset("most-rtx4090");
    setHardwareValue(hw, "ssd.bandwidth", bandwidth);
    hw.gpuCapacity = 32 * kMiB;
    return hw;
}

Plan withoutPreEvictions(Plan plan) {
    std::erase_if(plan.directives, [](const Directive& d) { return d.kind == DirectiveKind::PreEvict; });
    return plan;
}

SimulationResult run(const Profile& p, const Plan& plan, const HardwareConfig& hw) {
    SimulationOptions options;
    options.recordTensorResidency = false;
    options.recordResidencySamples = false;
    return simulate(p, plan, hw, options);
}

Nanoseconds memoryStall(const SimulationResult& r) {
    return r.totals.faultStall + r.totals.oversubStall + r.totals.latePrefetchStall;
}

}  // namespace

class TestDeepUmPreEviction : public QObject {
    Q_OBJECT
private slots:
    void preEvictionsLandBeforeThePrefetches() {
        const auto p = testing::trainingStep8();
        const auto hw = squeezed("1GB/s");
        const auto plan = makePlan("deepum", p, hw);
        QVERIFY2(testing::checkWellFormed(p, plan).empty(), testing::checkWellFormed(p, plan).c_str());
        // W1 and X are last used at 0 and G1 is next used at 5, so they go to the SSD at 1, a
        // whole 10 ms kernel before G2's prefetch at 2 needs their room (4, 2 and 8 MiB: each
        // less than 10 ms at 1 GB/s); DeepUM prefetches them back for their next use (W1, X at
        // 5 for b1, G1 at 4 for b2). T, L, A2, G2 are dead until the next iteration once used: evicted right after
        // their last use, for the prefetches of the same position. Without pre-eviction the plan
        // is its prefetches alone (tst_deepum).
        const QStringList want{"1 pre-evict W1 ssd", "1 pre-evict X ssd", "1 pre-evict G1 ssd",
                               "2 prefetch G2 keep 4", "4 pre-evict T ssd", "4 prefetch G1 keep 5",
                               "5 pre-evict L ssd", "5 pre-evict A2 ssd", "5 prefetch X keep 6",
                               "5 prefetch W1 keep 6", "6 pre-evict G2 ssd", "6 prefetch A2 keep 1",
                               "6 prefetch T keep 2", "7 prefetch L keep 3"};
        QCOMPARE(testing::describeDirectives(p, plan), want);
        QCOMPARE(plan.notes.at("pre_evictions"), std::string("7"));
        // Never a tensor the kernel at its position uses.
        for (const auto& e : plan.directives) {
            if (e.kind != DirectiveKind::PreEvict) continue;
            QVERIFY(e.target == Tier::Ssd);  // the machine evicts to its SSD
            QVERIFY(!testing::usesTensor(p.kernels[static_cast<size_t>(e.kernelPos)], e.tensor));
        }
        QCOMPARE(makePlan("deepum", p, hw), plan);  // deterministic
        // The same machine with room to spare: nothing to prefetch, nothing to pre-evict.
        auto roomy = hw;
        roomy.gpuCapacity = kGiB;
        QCOMPARE(makePlan("deepum", p, roomy).notes.at("pre_evictions"), std::string("0"));
    }

    void lessStallThanWithoutThem() {
        const auto p = testing::trainingStep8();
        for (const std::string bw : {"1GB/s", "3.2GB/s"}) {
            const auto hw = squeezed(bw);
            const auto plan = makePlan("deepum", p, hw);
            const auto with = run(p, plan, hw);
            const auto without = run(p, withoutPreEvictions(plan), hw);
            qInfo() << bw.c_str() << "fault" << with.totals.faultStall << without.totals.faultStall << "oversub"
                    << with.totals.oversubStall << without.totals.oversubStall << "late"
                    << with.totals.latePrefetchStall << without.totals.latePrefetchStall << "time"
                    << with.iterationTime << without.iterationTime;
            QVERIFY2(with.totals.oversubStall < without.totals.oversubStall, bw.c_str());
            QVERIFY2(memoryStall(with) < memoryStall(without), bw.c_str());
            QVERIFY2(with.iterationTime < without.iterationTime, bw.c_str());
        }
    }

    void bertOnMostsMachineIsNotSlower() {
        const auto dir = std::filesystem::path(SPILLWAY_SHARED_DATA) / "g10/derived/BERT_Base_256";
        if (!std::filesystem::exists(dir)) QSKIP("shared data BERT_Base_256 not present");
        const auto p = loadProfile(dir.string());
        for (const std::string bw : {"3.2GB/s", "12.8GB/s"}) {
            auto hw = hardwarePreset("most-rtx4090");
            setHardwareValue(hw, "ssd.bandwidth", bw);
            const auto plan = makePlan("deepum", p, hw);
            QVERIFY(std::stoll(plan.notes.at("pre_evictions")) > 0);
            const auto with = run(p, plan, hw);
            const auto without = run(p, withoutPreEvictions(plan), hw);
            qInfo() << bw.c_str() << "time with" << with.iterationTime << "without" << without.iterationTime;
            QVERIFY2(with.iterationTime <= without.iterationTime, bw.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestDeepUmPreEviction)
#include "tst_deepum_pre_eviction.moc"
