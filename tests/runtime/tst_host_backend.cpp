// The host backend on hand-made plans: kernels run in the plan's order, directives at their
// anchors, a kernel waits for the prefetch it needs, the two side streams run at once, and the
// timeline round-trips through the core reader. The rules are checked in virtual time
// (host_clock.h), where every time follows from the program alone, exact to the nanosecond and
// free of the machine's scheduling; one case runs in real time and checks only what holds
// whatever the scheduler does (what happens after what it waits for).
#include "replay_test_support.h"

#include "core/hardware/hardware_presets.h"
#include "core/io/measured/measured_timeline.h"
#include "core/io/profile_loader.h"
#include "core/policy/planner.h"
#include "runtime/replay/host_backend.h"
#include "runtime/replay/replay_program_builder.h"
#include "runtime/replay/replay_runner.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace spillway;
using namespace replay_test;

namespace {

MeasuredTimeline replayOnHost(const Profile& profile, const ExportedPlan& plan, int iterations = 1,
                              replay::HostTime time = replay::HostTime::Virtual) {
    const replay::ReplayProgram program = replay::buildReplayProgram(profile, plan);
    replay::HostBackend backend(time);
    return replay::runReplay(program, backend, iterations);
}

const MeasuredTransfer& transferOf(const MeasuredIteration& it, std::int64_t planIndex) {
    for (const auto& t : it.transfers)
        if (t.directive == planIndex) return t;
    throw std::logic_error("no such transfer");
}

}  // namespace

class TestHostBackend : public QObject {
    Q_OBJECT
private slots:
    void kernelsRunInThePlansOrder() {
        const Profile profile = chainProfile();
        const MeasuredTimeline m = replayOnHost(profile, exported(profile, {}, {1, 0, 3, 2}));
        QCOMPARE(m.iterations.size(), std::size_t(1));
        const auto& ks = m.iterations[0].kernels;
        QCOMPARE(ks.size(), std::size_t(4));
        const std::int64_t expected[] = {1, 0, 3, 2};
        for (std::size_t r = 0; r < ks.size(); ++r) {
            QCOMPARE(ks[r].runIndex, std::int64_t(r));
            QCOMPARE(ks[r].position, expected[r]);
            QCOMPARE(ks[r].id, profile.kernels[expected[r]].id);
            // one after another, nothing waited for: back to back
            QCOMPARE(ks[r].readyNs, Nanoseconds(r) * kKernelNs);
            QCOMPARE(ks[r].startNs, ks[r].readyNs);
        }
    }

    void measuredDurationsAreTheProfiledOnes() {
        const Profile profile = chainProfile();
        const MeasuredTimeline m = replayOnHost(profile, exported(profile, {}), 2);
        QCOMPARE(m.iterations.size(), std::size_t(2));
        for (const auto& it : m.iterations)
            for (const auto& k : it.kernels) {
                QCOMPARE(k.startNs, k.readyNs);
                QCOMPARE(k.endNs - k.startNs, k.profiledNs);
            }
        // The second iteration starts as the first one ends.
        QCOMPARE(m.iterations[1].startNs, m.iterations[0].endNs);
        QCOMPARE(m.iterations[0].endNs, m.iterations[0].kernels.back().endNs);
        QCOMPARE(m.iterations[0].endNs, 4 * kKernelNs);
    }

    void aPrefetchBeforeKernelKStartsBeforeItAndTheKernelWaits() {
        // Prefetch w (2.01 ms) just before k2, which reads w: k2 must wait for it.
        const Profile profile = chainProfile();
        const MeasuredTimeline m =
            replayOnHost(profile, exported(profile, {directive(DirectiveKind::Prefetch, 2, 10)}));
        const auto& it = m.iterations[0];
        const MeasuredTransfer& t = transferOf(it, 0);
        const MeasuredKernel& k1 = it.kernels[1];
        const MeasuredKernel& k2 = it.kernels[2];
        QCOMPARE(t.kind, std::string("prefetch"));
        QCOMPARE(t.bytes, kWeightBytes);
        QCOMPARE(t.anchorRunIndex, std::int64_t(2));
        QCOMPARE(t.issueNs, k1.endNs);  // its anchor: the kernel before k2 ended
        QCOMPARE(t.startNs, t.issueNs);
        QCOMPARE(k2.readyNs, k1.endNs);
        QCOMPARE(t.endNs - t.startNs, kWeightPrefetchNs);  // the link's time
        QCOMPARE(k2.startNs, t.endNs);  // the dependency: k2 computed only once w arrived
    }

    void aKernelDoesNotWaitForAPrefetchItDoesNotNeed() {
        // The same 2.01 ms prefetch of w before k1, which does not read w: k1 does not wait.
        const Profile profile = chainProfile();
        const ExportedPlan plan = exported(profile, {directive(DirectiveKind::Prefetch, 1, 10)});
        const replay::ReplayProgram program = replay::buildReplayProgram(profile, plan);
        QVERIFY(program.kernels[1].waitsFor.empty());
        // k2 reads w and waits for the prefetch issued before k1 (the latest one before it).
        QCOMPARE(program.kernels[2].waitsFor.size(), std::size_t(1));
        replay::HostBackend backend(replay::HostTime::Virtual);
        const MeasuredTimeline m = replay::runReplay(program, backend, 1);
        const auto& it = m.iterations[0];
        const MeasuredTransfer& t = transferOf(it, 0);
        QCOMPARE(t.startNs, it.kernels[1].readyNs);
        QCOMPARE(it.kernels[1].startNs, it.kernels[1].readyNs);  // k1 ran while w was still moving
        QVERIFY(it.kernels[1].endNs < t.endNs);
        QCOMPARE(it.kernels[2].startNs, t.endNs);
    }

    void anAfterKernelDirectiveWaitsForItsDelay() {
        const Profile profile = chainProfile();
        const Nanoseconds delay = 500'000;
        const MeasuredTimeline m = replayOnHost(
            profile, exported(profile, {directive(DirectiveKind::PreEvict, 0, 10, Tier::Host, true, delay)}));
        const auto& it = m.iterations[0];
        const MeasuredTransfer& t = transferOf(it, 0);
        QCOMPARE(t.kind, std::string("pre-evict"));
        QCOMPARE(t.target, std::string("host"));
        QVERIFY(t.afterKernel);
        QCOMPARE(t.issueNs, it.kernels[0].endNs + delay);  // after k0 ended, plus the delay
        QCOMPARE(t.startNs, t.issueNs);
        QCOMPARE(t.endNs - t.startNs, kWeightPrefetchNs);  // GPU->host at 1 GB/s + 10 us
        // Pre-evicts are not waited for: k1 (which does not read w) ran during it.
        QCOMPARE(it.kernels[1].startNs, it.kernels[0].endNs);
        QVERIFY(it.kernels[1].startNs < t.endNs);
    }

    void inAndOutStreamsOverlapButATensorsDirectivesKeepTheirOrder() {
        // After k0: pre-evict w (out, 2.01 ms). Before k1: prefetch w2 (in) and w (in, after its
        // pre-evict). PCIe is full duplex: w2 comes in while w goes out; w comes back after.
        const Profile profile = chainProfile();
        const MeasuredTimeline m = replayOnHost(profile, exported(profile, {directive(DirectiveKind::PreEvict, 0, 10, Tier::Host, true),
                                                                            directive(DirectiveKind::Prefetch, 1, 15),
                                                                            directive(DirectiveKind::Prefetch, 1, 10)}));
        const auto& it = m.iterations[0];
        const MeasuredTransfer& evict = transferOf(it, 0);
        const MeasuredTransfer& w2 = transferOf(it, 1);
        const MeasuredTransfer& w = transferOf(it, 2);
        // k0 ends at 300 us: the pre-evict (anchored after k0) and w2's prefetch (before k1) both
        // start then, one on each stream, and run side by side for their 2.01 ms.
        QCOMPARE(evict.startNs, kKernelNs);
        QCOMPARE(w2.startNs, kKernelNs);
        QCOMPARE(evict.endNs, kKernelNs + kWeightPrefetchNs);
        QCOMPARE(w2.endNs, kKernelNs + kWeightPrefetchNs);
        QVERIFY(w2.startNs < evict.endNs);  // the two directions overlap
        QCOMPARE(w.startNs, evict.endNs);   // w's prefetch waited for w's pre-evict (and for w2)
        QVERIFY(w.startNs >= w2.endNs);     // one stream per direction: in order
        QCOMPARE(it.kernels[2].startNs, w.endNs);  // k2 reads w
        QVERIFY(it.kernels[3].startNs >= w2.endNs);  // k3 reads w2
    }

    void aPrefetchAtTheEndFeedsTheNextIterationsFirstKernel() {
        // Prefetch w after the last kernel: the next iteration's k0 (reads w) waits for it.
        const Profile profile = chainProfile();
        const replay::ReplayProgram program = replay::buildReplayProgram(
            profile, exported(profile, {directive(DirectiveKind::Prefetch, 3, 10, Tier::Gpu, true)}));
        QCOMPARE(program.kernels[0].waitsFor.size(), std::size_t(1));
        QVERIFY(program.kernels[0].waitsFor[0].previousIteration);
        replay::HostBackend backend(replay::HostTime::Virtual);
        const MeasuredTimeline m = replay::runReplay(program, backend, 2);
        const MeasuredTransfer& t0 = transferOf(m.iterations[0], 0);
        const MeasuredKernel& first = m.iterations[0].kernels[0];
        const MeasuredKernel& next = m.iterations[1].kernels[0];
        QCOMPARE(first.startNs, first.readyNs);  // nothing before the first iteration to wait for
        QCOMPARE(t0.issueNs, m.iterations[0].kernels[3].endNs);
        QCOMPARE(next.readyNs, m.iterations[0].kernels[3].endNs);
        QCOMPARE(next.startNs, t0.endNs);
    }

    void aRecomputeRerunsTheProducerInsideTheConsumer() {
        // Drop a2 (made by k1, read by k2) after k1: k2 re-runs k1 first.
        const Profile profile = chainProfile();
        const MeasuredTimeline m =
            replayOnHost(profile, exported(profile, {directive(DirectiveKind::Recompute, 1, 12, Tier::Gpu, true)}));
        const auto& k2 = m.iterations[0].kernels[2];
        QCOMPARE(k2.recomputeNs, kKernelNs);
        QCOMPARE(k2.endNs - k2.startNs, kKernelNs + kKernelNs);
        QCOMPARE(m.iterations[0].kernels[3].recomputeNs, Nanoseconds(0));
    }

    void virtualTimeGivesTheSameTimesEveryRun() {
        // Exact and repeatable: nothing in them comes from how the threads were scheduled.
        const Profile profile = chainProfile();
        const ExportedPlan plan = exported(profile, {directive(DirectiveKind::PreEvict, 0, 10, Tier::Host, true),
                                                     directive(DirectiveKind::Prefetch, 1, 15),
                                                     directive(DirectiveKind::Prefetch, 1, 10),
                                                     directive(DirectiveKind::Prefetch, 3, 10, Tier::Gpu, true)});
        const MeasuredTimeline first = replayOnHost(profile, plan, 3);
        for (int run = 0; run < 20; ++run) QCOMPARE(replayOnHost(profile, plan, 3), first);
    }

    void aRealPlanRunsInVirtualTimeTheSameEveryRun() {
        // MOST's plan of the small GPT lesson on 60% of its footprint: hundreds of pre-evicts and
        // prefetches on both streams, cross waits and previous-iteration waits.
        const Profile profile = loadProfile(SPILLWAY_SOURCE_DIR "/samples/lessons/small-gpt.profile.json");
        HardwareConfig hw = hardwarePreset("most-rtx4090");
        hw.gpuCapacity = profile.totalTensorBytes() * 6 / 10;
        const ExportedPlan plan = makeExportedPlan(profile, hw, makePlan("most", profile, hw));
        QVERIFY(plan.plan.directives.size() > 10);
        const MeasuredTimeline first = replayOnHost(profile, plan, 2);
        QCOMPARE(replayOnHost(profile, plan, 2), first);
        for (const auto& it : first.iterations)
            for (std::size_t r = 0; r < it.kernels.size(); ++r) {
                const MeasuredKernel& k = it.kernels[r];
                QCOMPARE(k.endNs - k.startNs, k.profiledNs + k.recomputeNs);
                if (r > 0) QCOMPARE(k.readyNs, it.kernels[r - 1].endNs);
            }
    }

    void realTimeKeepsWhatTheWaitsPromise() {
        // The real clock, for what holds however late a thread wakes: each thing starts after
        // what it waits for ended and lasts at least its time. (Whether the two directions
        // overlap depends on the scheduler here; virtual time shows it above.)
        const Profile profile = chainProfile();
        const MeasuredTimeline m = replayOnHost(profile,
                                                exported(profile, {directive(DirectiveKind::PreEvict, 0, 10, Tier::Host, true),
                                                                   directive(DirectiveKind::Prefetch, 1, 15),
                                                                   directive(DirectiveKind::Prefetch, 1, 10)}),
                                                2, replay::HostTime::Real);
        QCOMPARE(m.device, std::string("host CPU (threads and timers; transfers timed by the plan's hardware links)"));
        for (const auto& it : m.iterations) {
            const MeasuredTransfer& evict = transferOf(it, 0);
            const MeasuredTransfer& w2 = transferOf(it, 1);
            const MeasuredTransfer& w = transferOf(it, 2);
            QVERIFY(evict.startNs >= it.kernels[0].endNs);
            QVERIFY(w.startNs >= evict.endNs);
            QVERIFY(w.startNs >= w2.endNs);
            for (const MeasuredTransfer* t : {&evict, &w2, &w}) QVERIFY(t->endNs - t->startNs >= kWeightPrefetchNs);
            QVERIFY(it.kernels[2].startNs >= w.endNs);
            QVERIFY(it.kernels[3].startNs >= w2.endNs);
            for (std::size_t r = 0; r < it.kernels.size(); ++r) {
                QVERIFY(it.kernels[r].endNs - it.kernels[r].startNs >= it.kernels[r].profiledNs);
                if (r > 0) QVERIFY(it.kernels[r].readyNs >= it.kernels[r - 1].endNs);
            }
        }
        QVERIFY(m.iterations[1].startNs >= m.iterations[0].endNs);
    }

    void theTimelineRoundTripsThroughTheCoreReader() {
        const Profile profile = chainProfile();
        const MeasuredTimeline m = replayOnHost(
            profile,
            exported(profile, {directive(DirectiveKind::Prefetch, 2, 10), directive(DirectiveKind::Discard, 3, 13, Tier::Gpu, true)}),
            2);
        QCOMPARE(m.backend, std::string("host"));
        QCOMPARE(m.profileHash, profileHash(profile));
        QCOMPARE(m.planHardware, std::string("replay-test-links"));
        QTemporaryDir dir;
        const std::string path = dir.filePath("measured.json").toStdString();
        writeMeasuredTimeline(m, path);
        QCOMPARE(readMeasuredTimeline(path), m);
    }
};

QTEST_GUILESS_MAIN(TestHostBackend)
#include "tst_host_backend.moc"
