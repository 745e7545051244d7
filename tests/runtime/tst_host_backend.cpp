// The host backend on hand-made plans: kernels run in the plan's order, directives at their
// anchors, a kernel waits for the prefetch it needs, measured durations cover the profiled
// ones, and the timeline round-trips through the core reader.
#include "replay_test_support.h"

#include "core/io/measured/measured_timeline.h"
#include "runtime/replay/host_backend.h"
#include "runtime/replay/replay_program_builder.h"
#include "runtime/replay/replay_runner.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace spillway;
using namespace replay_test;

namespace {

MeasuredTimeline replayOnHost(const Profile& profile, const ExportedPlan& plan, int iterations = 1) {
    const replay::ReplayProgram program = replay::buildReplayProgram(profile, plan);
    replay::HostBackend backend;
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
            if (r > 0) QVERIFY(ks[r].readyNs >= ks[r - 1].endNs);
        }
    }

    void measuredDurationsCoverTheProfiledOnes() {
        const Profile profile = chainProfile();
        const MeasuredTimeline m = replayOnHost(profile, exported(profile, {}), 2);
        QCOMPARE(m.iterations.size(), std::size_t(2));
        for (const auto& it : m.iterations)
            for (const auto& k : it.kernels) {
                QVERIFY(k.startNs >= k.readyNs);
                QVERIFY2(k.endNs - k.startNs >= k.profiledNs, qPrintable(QString::fromStdString(k.name)));
            }
        // The second iteration starts after the first one ended.
        QVERIFY(m.iterations[1].startNs >= m.iterations[0].endNs);
        QCOMPARE(m.iterations[0].endNs, m.iterations[0].kernels.back().endNs);
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
        QVERIFY(t.issueNs >= k1.endNs);  // its anchor: the kernel before k2 ended
        QVERIFY(t.startNs >= t.issueNs);
        QVERIFY(t.startNs <= k2.startNs);  // started before k2
        QVERIFY(t.endNs - t.startNs >= kWeightPrefetchNs);  // the link's time
        QVERIFY(k2.startNs >= t.endNs);   // the dependency: k2 computed only once w arrived
    }

    void aKernelDoesNotWaitForAPrefetchItDoesNotNeed() {
        // The same 2.01 ms prefetch of w before k1, which does not read w: k1 does not wait.
        const Profile profile = chainProfile();
        const ExportedPlan plan = exported(profile, {directive(DirectiveKind::Prefetch, 1, 10)});
        const replay::ReplayProgram program = replay::buildReplayProgram(profile, plan);
        QVERIFY(program.kernels[1].waitsFor.empty());
        // k2 reads w and waits for the prefetch issued before k1 (the latest one before it).
        QCOMPARE(program.kernels[2].waitsFor.size(), std::size_t(1));
        replay::HostBackend backend;
        const MeasuredTimeline m = replay::runReplay(program, backend, 1);
        const auto& it = m.iterations[0];
        const MeasuredTransfer& t = transferOf(it, 0);
        QVERIFY(it.kernels[1].startNs < t.endNs);  // k1 ran while w was still moving
        QVERIFY(it.kernels[2].startNs >= t.endNs);
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
        QVERIFY(t.startNs >= t.issueNs);
        QVERIFY(t.endNs - t.startNs >= kWeightPrefetchNs);  // GPU->host at 1 GB/s + 10 us
        // Pre-evicts are not waited for: k1 (which does not read w) ran during it.
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
        QVERIFY(w2.startNs < evict.endNs);   // the two directions overlap
        QVERIFY(w.startNs >= evict.endNs);   // w's prefetch waited for w's pre-evict
        QVERIFY(w.startNs >= w2.endNs);      // one stream per direction: in order
        QVERIFY(it.kernels[2].startNs >= w.endNs);  // k2 reads w
        QVERIFY(it.kernels[3].startNs >= w2.endNs);  // k3 reads w2
    }

    void aPrefetchAtTheEndFeedsTheNextIterationsFirstKernel() {
        // Prefetch w after the last kernel: the next iteration's k0 (reads w) waits for it.
        const Profile profile = chainProfile();
        const replay::ReplayProgram program = replay::buildReplayProgram(
            profile, exported(profile, {directive(DirectiveKind::Prefetch, 3, 10, Tier::Gpu, true)}));
        QCOMPARE(program.kernels[0].waitsFor.size(), std::size_t(1));
        QVERIFY(program.kernels[0].waitsFor[0].previousIteration);
        replay::HostBackend backend;
        const MeasuredTimeline m = replay::runReplay(program, backend, 2);
        const MeasuredTransfer& t0 = transferOf(m.iterations[0], 0);
        const MeasuredKernel& next = m.iterations[1].kernels[0];
        QVERIFY(t0.issueNs >= m.iterations[0].kernels[3].endNs);
        QVERIFY(next.startNs >= t0.endNs);
    }

    void aRecomputeRerunsTheProducerInsideTheConsumer() {
        // Drop a2 (made by k1, read by k2) after k1: k2 re-runs k1 first.
        const Profile profile = chainProfile();
        const MeasuredTimeline m =
            replayOnHost(profile, exported(profile, {directive(DirectiveKind::Recompute, 1, 12, Tier::Gpu, true)}));
        const auto& k2 = m.iterations[0].kernels[2];
        QCOMPARE(k2.recomputeNs, kKernelNs);
        QVERIFY(k2.endNs - k2.startNs >= kKernelNs + kKernelNs);
        QCOMPARE(m.iterations[0].kernels[3].recomputeNs, Nanoseconds(0));
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
