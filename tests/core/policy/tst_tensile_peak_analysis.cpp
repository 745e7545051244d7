// TENSILE's GPU memory peak analysis (Algorithm 2) on hand-made access sequences: every
// expected peak, time and tensor set is worked out in the comments from the fixtures' tables.
#include "core/policy/tensile/memory_schedule.h"
#include "core/policy/tensile/peak_analysis.h"
#include "core/policy/tensile/task_anchor.h"
#include "core/policy/tensile/tensor_access_sequence.h"
#include "tests/core/policy/tensile_fixtures.h"

#include <QtTest>

using namespace spillway;
using namespace spillway::tensile;
using spillway::testing::backToBack;
using spillway::testing::ProfileBuilder;

namespace {

using K = TensorKind;
using P = KernelPhase;

std::vector<std::int32_t> ids(std::initializer_list<int> list) { return {list.begin(), list.end()}; }

}  // namespace

class TestTensilePeakAnalysis : public QObject {
    Q_OBJECT

private slots:
    void accessSequence() {
        const Profile p = testing::fourKernels();
        const auto tas = buildTensorAccessSequence({backToBack(p, 0)});
        QCOMPARE(tas.tensors.size(), size_t(3));
        const auto& a = tas.tensors[0];  // A: OTA at k0, ITA at k3
        QCOMPARE(a.accesses.size(), size_t(2));
        QVERIFY(a.accesses[0].kind == AccessKind::Output);
        QVERIFY(a.accesses[1].kind == AccessKind::Input);
        QCOMPARE(a.accesses[1].start, Nanoseconds(30));
        QCOMPARE(a.accesses[1].end, Nanoseconds(40));
        QVERIFY(!a.residentAtStart);
        QCOMPARE(tas.start, Nanoseconds(0));
        QCOMPARE(tas.end, Nanoseconds(40));
    }

    void vanillaPeak() {
        // 100 from 0, 150 from 10, 180 from 20, 130 from 30 (B released after k2), 0 from 40.
        const Profile p = testing::fourKernels();
        const auto tas = buildTensorAccessSequence({backToBack(p, 0)});
        const MemorySchedule none(tas.tensors.size());
        const auto peak = analysePeak(tas, none);
        QCOMPARE(peak.peak, Bytes(180));
        QCOMPARE(peak.peakTime, Nanoseconds(20));
        QCOMPARE(peak.peakTensors, ids({0, 1, 2}));  // A, B, C: largest first
        QCOMPARE(peak.lastInputAccess, std::vector<std::int64_t>({2}));  // k2 reads B at 20
        QCOMPARE(memoryAt(tas, none, 10), Bytes(150));
        QCOMPARE(memoryAt(tas, none, 30), Bytes(130));
        QCOMPARE(memoryAt(tas, none, 40), Bytes(0));
    }

    void swapReducesPeak() {
        // A out [10,15) (gone at 15), in [25,30) (back at 30): 100, 150 at 10, 50 at 15, 80 at
        // 20 (C), 130 at 30 (A back, B released): the peak is 150 at 10, without C's 180.
        const Profile p = testing::fourKernels();
        const auto tas = buildTensorAccessSequence({backToBack(p, 0)});
        MemorySchedule schedule(tas.tensors.size());
        schedule.add(0, {.afterAccess = 0, .action = GapAction::Swap, .swapOutStart = 10, .swapOutEnd = 15,
                         .swapInStart = 25, .swapInEnd = 30});
        const auto peak = analysePeak(tas, schedule);
        QCOMPARE(peak.peak, Bytes(150));
        QCOMPARE(peak.peakTime, Nanoseconds(10));
        QCOMPARE(peak.peakTensors, ids({0, 1}));
        QCOMPARE(memoryAt(tas, schedule, 15), Bytes(50));
        QCOMPARE(memoryAt(tas, schedule, 20), Bytes(80));
        QCOMPARE(memoryAt(tas, schedule, 30), Bytes(130));
        // Algorithm 2's inferred starts: out 0 ns after k0 ends, in 5 ns after k1 ends.
        const auto starts = swapTaskStarts(tas, schedule);
        QCOMPARE(starts.size(), size_t(2));
        QVERIFY(starts[0].direction == SwapDirection::Out);
        QCOMPARE(starts[0].anchor, (TaskAnchor{0, true, 0}));
        QVERIFY(starts[1].direction == SwapDirection::In);
        QCOMPARE(starts[1].anchor, (TaskAnchor{1, true, 5}));
    }

    void swapInCountsAtItsFinish() {
        // The swap-in runs [19,29): A counts from 29, not from 19. At 20 only B and C (80); at 29
        // A is back beside B and C: 180, the peak, at 29 (counted at its start it would be 20).
        const Profile p = testing::fourKernels();
        const auto tas = buildTensorAccessSequence({backToBack(p, 0)});
        MemorySchedule schedule(tas.tensors.size());
        schedule.add(0, {.afterAccess = 0, .action = GapAction::Swap, .swapOutStart = 10, .swapOutEnd = 15,
                         .swapInStart = 19, .swapInEnd = 29});
        QCOMPARE(memoryAt(tas, schedule, 20), Bytes(80));
        QCOMPARE(memoryAt(tas, schedule, 28), Bytes(80));
        QCOMPARE(memoryAt(tas, schedule, 29), Bytes(180));
        const auto peak = analysePeak(tas, schedule);
        QCOMPARE(peak.peak, Bytes(180));
        QCOMPARE(peak.peakTime, Nanoseconds(29));
    }

    void releaseBeforeASwappedAccess() {
        // D (40): written by k0, read by k1 and k3; E (70): written by k2, read by k3.
        // Vanilla: 40 from 0, 110 from 20, 0 from 40. Released after k1 (20) and swapped in
        // [25,30): D is gone in [20,30), so 70 there and 110 only from 30.
        const Profile p = ProfileBuilder("release")
                              .tensor(1, "D", 40, K::Activation, false)
                              .tensor(2, "E", 70, K::Activation, false)
                              .kernel(10, "k0", P::Forward, 10, {}, {1})
                              .kernel(11, "k1", P::Forward, 10, {1}, {})
                              .kernel(12, "k2", P::Backward, 10, {}, {2})
                              .kernel(13, "k3", P::Backward, 10, {1, 2}, {})
                              .build();
        const auto tas = buildTensorAccessSequence({backToBack(p, 0)});
        MemorySchedule schedule(tas.tensors.size());
        QCOMPARE(analysePeak(tas, schedule).peakTime, Nanoseconds(20));
        schedule.add(0, {.afterAccess = 1, .action = GapAction::Release, .swapInStart = 25, .swapInEnd = 30});
        QCOMPARE(memoryAt(tas, schedule, 19), Bytes(40));
        QCOMPARE(memoryAt(tas, schedule, 20), Bytes(70));
        QCOMPARE(memoryAt(tas, schedule, 29), Bytes(70));
        QCOMPARE(memoryAt(tas, schedule, 30), Bytes(110));
        const auto peak = analysePeak(tas, schedule);
        QCOMPARE(peak.peak, Bytes(110));
        QCOMPARE(peak.peakTime, Nanoseconds(30));
    }

    void twoJobsMerged() {
        // Job 0 from 0, job 1 (the same four kernels) from 15. Merged: 100 (0), 150 (10),
        // 250 (15), 280 (20), 330 (25: B' arrives), 280 (30: B released), 310 (35), 180 (40),
        // 130 (45), 0 (55). Peak 330 at 25: A, A', B, B', C.
        const Profile p = testing::fourKernels();
        const auto tas = buildTensorAccessSequence({backToBack(p, 0, 0), backToBack(p, 15, 1)});
        QCOMPARE(tas.tensors.size(), size_t(6));
        const MemorySchedule none(tas.tensors.size());
        const auto peak = analysePeak(tas, none);
        QCOMPARE(peak.peak, Bytes(330));
        QCOMPARE(peak.peakTime, Nanoseconds(25));
        QCOMPARE(peak.peakTensors, ids({0, 3, 1, 4, 2}));
        // Job 0's last input access by 25 is k2 (reads B from 20); job 1 has read nothing yet.
        QCOMPARE(peak.lastInputAccess, std::vector<std::int64_t>({2, -1}));
        QCOMPARE(memoryAt(tas, none, 35), Bytes(310));
        // Job 1 alone: its own 180 at 15 + 20 = 35.
        const auto own = analysePeak(tas, none, 1);
        QCOMPARE(own.peak, Bytes(180));
        QCOMPARE(own.peakTime, Nanoseconds(35));
    }

    void residentsAndUpdatedParameters() {
        // W (20, persistent) and the input X (10, read before written) are there from the start;
        // k0 [0,10) reads X, W and writes Y (30); k1 [10,20) (optimizer) reads Y, updates W in
        // place. 60 at 0; X released at 10: 50; the update adds nothing; Y released at 20: 20.
        const Profile p = ProfileBuilder("update")
                              .tensor(1, "W", 20, K::Weight, true)
                              .tensor(2, "X", 10, K::Input, false)
                              .tensor(3, "Y", 30, K::Activation, false)
                              .kernel(10, "k0", P::Forward, 10, {2, 1}, {3})
                              .kernel(11, "opt", P::Optimizer, 10, {1, 3}, {1})
                              .build();
        const auto tas = buildTensorAccessSequence({backToBack(p, 0)});
        QVERIFY(tas.tensors[0].residentAtStart);
        QVERIFY(tas.tensors[0].updatedParameter);
        QVERIFY(tas.tensors[0].accesses[1].writes);
        QVERIFY(tas.tensors[1].residentAtStart);
        QVERIFY(!tas.tensors[1].updatedParameter);
        QVERIFY(!tas.tensors[2].residentAtStart);
        const MemorySchedule none(tas.tensors.size());
        QCOMPARE(memoryAt(tas, none, 0), Bytes(60));
        QCOMPARE(memoryAt(tas, none, 10), Bytes(50));
        QCOMPARE(memoryAt(tas, none, 15), Bytes(50));
        QCOMPARE(memoryAt(tas, none, 20), Bytes(20));
        const auto peak = analysePeak(tas, none);
        QCOMPARE(peak.peak, Bytes(60));
        QCOMPARE(peak.peakTime, Nanoseconds(0));
        QCOMPARE(peak.peakTensors, ids({2, 0, 1}));
    }

    void workspacesCountWhileTheirKernelRuns() {
        // fourKernels with a 25-byte workspace on k2: 180 + 25 in [20,30).
        Profile p = testing::fourKernels();
        p.kernels[2].workspaceBytes = 25;
        const auto tas = buildTensorAccessSequence({backToBack(p, 0)});
        const MemorySchedule none(tas.tensors.size());
        QCOMPARE(analysePeak(tas, none).peak, Bytes(205));
        QCOMPARE(memoryAt(tas, none, 30), Bytes(130));
    }

    void anchors() {
        const Profile p = testing::fourKernels();
        const auto tas = buildTensorAccessSequence({backToBack(p, 100)});
        const auto& job = tas.jobs[0];
        QCOMPARE(anchorAt(job, 100), (TaskAnchor{0, false, 0}));  // before k0 ends: from its start
        QCOMPARE(anchorAt(job, 105), (TaskAnchor{0, false, 5}));
        QCOMPARE(anchorAt(job, 110), (TaskAnchor{0, true, 0}));
        QCOMPARE(anchorAt(job, 127), (TaskAnchor{1, true, 7}));
        QCOMPARE(anchorAt(job, 150), (TaskAnchor{3, true, 10}));
    }

    void badViewsAreNamed() {
        const Profile p = testing::fourKernels();
        auto view = backToBack(p, 0);
        view.name = "vgg";
        view.kernelDuration.pop_back();
        try {
            buildTensorAccessSequence({view});
            QFAIL("no error");
        } catch (const std::invalid_argument& e) {
            const std::string what = e.what();
            QVERIFY2(what.find("job 0 (vgg)") != std::string::npos && what.find("kernelDuration") != std::string::npos, e.what());
        }
        view.profile = nullptr;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, buildTensorAccessSequence({view}));
    }
};

QTEST_APPLESS_MAIN(TestTensilePeakAnalysis)
#include "tst_tensile_peak_analysis.moc"
