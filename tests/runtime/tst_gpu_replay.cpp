// The CUDA backend on the hand-made chain plan (label gpu). Skipped, saying why, where this
// build has no CUDA backend or the machine has no CUDA device; never faked.
#include "replay_test_support.h"

#include "runtime/replay/cuda_backend.h"
#include "runtime/replay/replay_program_builder.h"
#include "runtime/replay/replay_runner.h"

#include <QtTest>

using namespace spillway;
using namespace replay_test;

class TestGpuReplay : public QObject {
    Q_OBJECT
private:
    std::unique_ptr<replay::ReplayBackend> backend_;

private slots:
    void initTestCase() {
        if (!replay::cudaBackendBuilt()) QSKIP("this build has no CUDA backend (nvcc was not found)");
        try {
            backend_ = replay::makeCudaBackend();
        } catch (const replay::ReplayError& e) {
            QSKIP(qPrintable(QString("no GPU here: ") + e.what()));
        }
    }

    void runsTheChainWithItsDirectives() {
        const Profile profile = chainProfile();
        ExportedPlan plan = exported(profile, {directive(DirectiveKind::PreEvict, 0, 10, Tier::Host, true),
                                                     directive(DirectiveKind::Prefetch, 2, 10),
                                                     directive(DirectiveKind::Discard, 3, 13, Tier::Gpu, true),
                                                     directive(DirectiveKind::Prefetch, 3, 10, Tier::Gpu, true, 50'000)});
        // An arena for the device-memory run: w and w2 apart, the activations after them.
        plan.plan.placement = "hand";
        plan.plan.arenaBytes = 5 * kMiB;
        plan.plan.arena = {{10, -1, 0, kWeightBytes},           {15, -1, 2 * kMiB, kWeightBytes},
                           {11, -1, 4 * kMiB, 4096},            {12, -1, 4 * kMiB + 4096, 4096},
                           {13, -1, 4 * kMiB, 4096},            {14, -1, 4 * kMiB + 4096, 4096}};
        for (const auto arena : {replay::ArenaChoice::Managed, replay::ArenaChoice::Device}) {
            replay::ReplayOptions options;
            options.arena = arena;
            const replay::ReplayProgram program = replay::buildReplayProgram(profile, plan, options);
            const MeasuredTimeline m = replay::runReplay(program, *backend_, 2);
            QCOMPARE(m.backend, std::string("cuda"));
            QCOMPARE(m.arenaKind, std::string(arena == replay::ArenaChoice::Device ? "device" : "managed"));
            QVERIFY(m.failures.empty());
            for (const MeasuredIteration& it : m.iterations) {
                for (std::size_t r = 0; r < it.kernels.size(); ++r) {
                    const MeasuredKernel& k = it.kernels[r];
                    // Event resolution is about 0.5 us.
                    QVERIFY2(k.endNs - k.startNs + 1000 >= k.profiledNs, qPrintable(QString::fromStdString(k.name)));
                    if (r > 0) QVERIFY(k.readyNs + 1000 >= it.kernels[r - 1].endNs);
                }
                for (const MeasuredTransfer& t : it.transfers) QVERIFY(t.endNs >= t.startNs);
                // The prefetch before k2 (k2 reads w) ended before k2 started.
                const auto& prefetch = it.transfers[1];
                QCOMPARE(prefetch.kind, std::string("prefetch"));
                QVERIFY(it.kernels[2].startNs + 1000 >= prefetch.endNs);
                // The delayed prefetch was not issued before its delay had passed.
                QVERIFY(it.transfers[3].startNs + 1000 >= it.kernels[3].endNs + 50'000);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestGpuReplay)
#include "tst_gpu_replay.moc"
