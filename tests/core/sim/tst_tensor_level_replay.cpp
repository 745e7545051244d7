// The contiguous-first-fit memory model (FlashNeuron, G10's FlashNeuron_simulator): the
// allocator on its own, then the replay of the eight-kernel step (../policy/training_step_8.h)
// with every time worked out by hand below, then FlashNeuron's planner under G10's rule.
//
// Machine for the replays: pages of 1 MiB, weights W1 + W2 at pages [0, 8), no workspace, the
// largest non-persistent working set is b2's G2 + A1 + G1 = 24 MiB. Plan: pre-evict X before f2
// (kernel 1) and A1 before f3 (kernel 2), both to the SSD. Offloaded tensors are placed from the
// top of memory, the rest first fit from the bottom (as G10). Analytic fault model, so no G10
// GB-as-GiB scaling: link bandwidths are exact.
#include "../policy/training_step_8.h"
#include "core/policy/flashneuron_schedule.h"
#include "core/policy/planners.h"
#include "core/sim/first_fit_allocator.h"
#include "core/sim/simulator.h"

#include <QtTest>

using namespace spillway;

namespace {

constexpr Nanoseconds kMs = 1'000'000;

HardwareConfig machine(Bytes gpuMiB, std::int64_t msPerMiB) {
    HardwareConfig hw;
    hw.id = "unit";
    hw.gpuCapacity = gpuMiB * kMiB;
    hw.pageSize = kMiB;
    hw.hostToGpu = hw.gpuToHost = {kGiB, 0};
    hw.ssdToGpu = hw.gpuToSsd = {static_cast<std::int64_t>(kMiB) * 1000 / msPerMiB, 0};  // 1 MiB per msPerMiB ms
    hw.faultModel = FaultModel::Analytic;
    return hw;
}

Plan offloadXAndA1() {
    Plan plan;
    plan.policy = "hand";
    plan.memoryModel = MemoryModel::ContiguousFirstFit;
    plan.directives = {{1, DirectiveKind::PreEvict, 3, Tier::Ssd}, {2, DirectiveKind::PreEvict, 4, Tier::Ssd}};
    return plan;
}

Nanoseconds ms(Nanoseconds v) { return v * kMs; }

}  // namespace

class TestTensorLevelReplay : public QObject {
    Q_OBJECT
private slots:
    void allocatorFirstFitFromBothEnds() {
        sim::FirstFitAllocator a(10);
        QCOMPARE(a.allocateFromLeft(3), std::optional<std::int64_t>(0));   // [0,3)
        QCOMPARE(a.allocateFromLeft(2), std::optional<std::int64_t>(3));   // [3,5)
        QCOMPARE(a.allocateFromRight(2), std::optional<std::int64_t>(8));  // [8,10)
        a.release(0, 3);                                                   // free [0,3) and [5,8)
        QCOMPARE(a.freePages(), std::int64_t(6));
        QCOMPARE(a.largestFreeRun(), std::int64_t(3));
        QCOMPARE(a.allocateFromLeft(4), std::optional<std::int64_t>());    // 6 free, none 4 long
        QCOMPARE(a.allocateFromRight(3), std::optional<std::int64_t>(5));  // highest run that fits
        a.release(3, 2);                                                   // merges with [0,3)
        QCOMPARE(a.largestFreeRun(), std::int64_t(5));
        QCOMPARE(a.allocateFromLeft(5), std::optional<std::int64_t>(0));
        QCOMPARE(a.freePages(), std::int64_t(0));
        a.release(5, 3);
        a.release(0, 5);
        a.release(8, 2);  // merges on both sides
        QCOMPARE(a.largestFreeRun(), std::int64_t(10));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, a.release(2, 2));  // already free
    }

    void readsAheadInBackwardAndWaitsForWrites() {
        // 64 MiB, SSD 2 ms per MiB.
        // f1 0-10: X [62,64), A1 [54,62) (offloaded: from the top). f2 10-20: X's write 10-14,
        // A2 [8,16). f3 20-30: A1's write 20-36, T [16,18). loss: backward waits for A1's write:
        // 30-36 is oversubscription stall; A1 leaves; L [18,20); runs 36-41; T is freed. Free:
        // [16,18), [20,64): largest 44 - 24 = 20 MiB to read ahead: A1 (used by b2) [56,64),
        // read 41-57; X (b1) [54,56), read 57-61.
        // b3 41-51: G2 [20,28). b2: A1 arrives at 57, 6 ms late; G1 [8,16); runs 57-67.
        // b1 67-77 (X arrived at 61), opt 77-82.
        const Profile p = testing::trainingStep8();
        const HardwareConfig hw = machine(64, 2);
        const SimulationResult r = simulate(p, offloadXAndA1(), hw);
        QVERIFY2(r.cannotRun.empty(), r.cannotRun.c_str());
        QCOMPARE(r.iterationTime, ms(82));
        QCOMPARE(r.kernels[3].start, ms(30));
        QCOMPARE(r.kernels[3].oversubStall, ms(6));
        QCOMPARE(r.kernels[5].latePrefetchStall, ms(6));
        QCOMPARE(r.kernels[5].end, ms(67));
        QCOMPARE(r.totals.faultStall, Nanoseconds(0));
        QCOMPARE(r.totals.compute, ms(70));
        QCOMPARE(r.totals.oversubStall + r.totals.latePrefetchStall, ms(12));
        QCOMPARE(r.traffic[int(LinkId::GpuToSsd)], 10 * kMiB);
        QCOMPARE(r.traffic[int(LinkId::SsdToGpu)], 10 * kMiB);
        // The read of A1 runs beside all of b3 (41-51).
        QCOMPARE(r.kernels[4].overlap, ms(10));
        QCOMPARE(r.gpuBytesAtStart, 8 * kMiB);
        QCOMPARE(r.gpuBytesAtEnd, 8 * kMiB);
        QCOMPARE(r.kernelsWithAbsentBlocks, std::int64_t(0));
    }

    void readsOnDemandWhenThereIsNoRoom() {
        // 40 MiB, SSD 4 ms per MiB. f1 0-10: X [38,40), A1 [30,38); f2 10-20, X's write 10-18,
        // A2 [8,16); f3 20-30, A1's write 20-52, T [16,18). loss waits 30-52 (oversubscription),
        // L [18,20), runs 52-57; free [16,18), [20,40): 20 - 24 < 0, no reading ahead.
        // b3: G2 [20,28), 57-67; L and A2 leave: free [8,20), [28,40).
        // b2: A1 [32,40), read on demand 67-99 (fault stall 32), G1 [8,16), 99-109; then free
        // [16,40): 24 - 24 = 0, too little for X. b1: X [38,40), read 109-117 (8), runs 117-127.
        // opt 127-132.
        const Profile p = testing::trainingStep8();
        const SimulationResult r = simulate(p, offloadXAndA1(), machine(40, 4));
        QVERIFY2(r.cannotRun.empty(), r.cannotRun.c_str());
        QCOMPARE(r.iterationTime, ms(132));
        QCOMPARE(r.kernels[3].oversubStall, ms(22));
        QCOMPARE(r.kernels[5].faultStall, ms(32));
        QCOMPARE(r.kernels[6].faultStall, ms(8));
        QCOMPARE(r.kernels[5].faultedBytes, 8 * kMiB);
        QCOMPARE(r.totals.compute + r.totals.faultStall + r.totals.oversubStall + r.totals.latePrefetchStall, ms(132));
    }

    void fragmentationMakesTheRunImpossible() {
        // 30 MiB, SSD 1 ms per MiB. f1: X [28,30), A1 [20,28); f2: A2 [8,16), X leaves at 12;
        // f3: T [16,18), A1 leaves at 28; loss: L [18,20), T freed; b3: G2 [20,28), L and A2
        // freed: free [8,20), [28,30). b2: A1 [12,20) and its read; then G1 needs 8 MiB, but
        // the free ranges are [8,12) and [28,30): 6 MiB free, none longer than 4, nothing in
        // flight. G10 would stop here too ("No enough space to allocate tensor").
        const Profile p = testing::trainingStep8();
        const SimulationResult r = simulate(p, offloadXAndA1(), machine(30, 1));
        QVERIFY(!r.cannotRun.empty());
        QVERIFY2(r.cannotRun.find("'G1'") != std::string::npos, r.cannotRun.c_str());
        QVERIFY2(r.cannotRun.find("kernel 5 ('b2')") != std::string::npos, r.cannotRun.c_str());
        QVERIFY2(r.cannotRun.find("largest free range is 4.00 MiB (6.00 MiB free") != std::string::npos,
                 r.cannotRun.c_str());
        QCOMPARE(r.iterationTime, Nanoseconds(0));
        QVERIFY(r.kernels.empty());
    }

    void plannerFollowsG10UnderTheCalibratedModel() {
        // G10's room counts weights in the working set: b2 with W2 = 28 MiB. At 44 MiB:
        // 44 - 8 - 28 = 8 MiB. Candidates read again from the loss (3) on: X, A1, A2, T = 20 MiB.
        // X goes (18 left), A1 (10), A2 at the start of its gap 3 (2 <= 8: fits); T has no gap.
        // Our own rule (room 44 - 8 - 24 = 12) stops after A1.
        const Profile p = testing::trainingStep8();
        HardwareConfig hw = machine(44, 1);
        const auto g10 = scheduleFlashNeuron(p, hw, {.rule = FlashNeuronRule::G10});
        QCOMPARE(g10.memoryForActivations, 8 * kMiB);
        QCOMPARE(g10.offloadedBytes, 18 * kMiB);
        QVERIFY(g10.fits);
        QCOMPARE(g10.offloads.size(), std::size_t(3));
        QCOMPARE(g10.offloads[2].evictAt, std::int64_t(3));
        QCOMPARE(scheduleFlashNeuron(p, hw).offloadedBytes, 10 * kMiB);

        hw.faultModel = FaultModel::G10Calibrated;
        const Plan plan = planFlashNeuron(p, hw);
        QVERIFY(plan.memoryModel == MemoryModel::ContiguousFirstFit);
        QCOMPARE(testing::describeDirectives(p, plan),
                 (QStringList{"1 pre-evict X ssd", "2 pre-evict A1 ssd", "3 pre-evict A2 ssd"}));
        QVERIFY(plan.cannotRun.empty());

        // At 36 MiB G10's room is 0: FlashNeuron cannot run, and the replay says so.
        hw.gpuCapacity = 36 * kMiB;
        const Plan refused = planFlashNeuron(p, hw);
        QVERIFY(!refused.cannotRun.empty());
        const SimulationResult r = simulate(p, refused, hw);
        QCOMPARE(r.cannotRun, refused.cannotRun);
    }
};

QTEST_GUILESS_MAIN(TestTensorLevelReplay)
#include "tst_tensor_level_replay.moc"
