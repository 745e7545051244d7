// The multi-job simulator on hand-made workloads (unit machine: 1 B/ns each way, no latency):
// every expected value is worked out in the comment beside it.
#include "core/io/profile_loader.h"
#include "core/sim/workload_metrics.h"
#include "core/sim/workload_result_convert.h"
#include "core/sim/workload_sim.h"
#include "workload_test_support.h"

#include <QTest>

using namespace spillway;
using namespace spillway::testing;

namespace {

bool overlap(const SwapTask& a, const SwapTask& b) { return a.start < b.end && b.start < a.end; }

// k0 writes X (1000 B, 100 ns), k1 computes (1000 ns), k2 writes Y (1000 B, 1000 ns), k3 reads X.
Profile swapProfile(Nanoseconds k1 = 1000) {
    TinyProfile p;
    const auto x = p.tensor("X", 1000, false);
    const auto y = p.tensor("Y", 1000, false);
    p.kernel("k0", 100, {}, {x});
    p.kernel("k1", k1, {}, {});
    p.kernel("k2", 1000, {}, {y});
    p.kernel("k3", 100, {x}, {});
    return p.profile;
}

}  // namespace

class TestWorkloadSim : public QObject {
    Q_OBJECT
private slots:
    void processorSharingSlowsBothJobs() {
        TinyProfile p;
        p.kernel("k", 1000, {}, {});
        Workload w = unitWorkload(1000);
        addJob(w, "A", p.profile, 0);
        addJob(w, "B", p.profile, 500);
        const auto r = simulateWorkload(w, "none");
        QVERIFY(r.cannotRun.empty());
        // A alone 0-500 (500 of 1000 done); both from 500: A's last 500 at half speed takes
        // 1000 -> A ends at 1500, B has done 500 by then and its last 500 alone end at 2000.
        QCOMPARE(r.jobs[0].end, Nanoseconds(1500));
        QCOMPARE(r.jobs[1].end, Nanoseconds(2000));
        QCOMPARE(r.jobs[0].kernels[0].compute, Nanoseconds(1500));
        QCOMPARE(r.jobs[1].kernels[0].compute, Nanoseconds(1500));
        QCOMPARE(r.jobs[1].kernels[0].start, Nanoseconds(500));
        QCOMPARE(r.makespan(), Nanoseconds(2000));
        // Three jobs from 0: each at a third of the speed, all end at 3000.
        addJob(w, "C", p.profile, 0);
        w.jobs[1].start = 0;
        const auto three = simulateWorkload(w, "none");
        for (const auto& job : three.jobs) QCOMPARE(job.end, Nanoseconds(3000));
    }

    void lateSwapInStallsExactly() {
        // Swap X out after k0 (out 100-1100 at 1 B/ns, released at 1100). k1 runs 100-1100.
        Workload w = unitWorkload(10'000);
        addJob(w, "A", swapProfile(), 0);
        // Prefetch issued 1000 after k1 starts (1100): in 1100-2100, k3 starts at 2100: no stall.
        auto inTime = simulateWorkload(w, fixedPlanner({directive(0, DirectiveKind::PreEvict, 0, true),
                                                        directive(1, DirectiveKind::Prefetch, 0, false, 1000)}));
        QCOMPARE(inTime.jobs[0].swapStall, Nanoseconds(0));
        QCOMPARE(inTime.jobs[0].end, Nanoseconds(2200));
        // Issued 1500 after k1 starts (1600): lands at 2600, k3 waits 2100-2600: 500 of swap stall.
        auto late = simulateWorkload(w, fixedPlanner({directive(0, DirectiveKind::PreEvict, 0, true),
                                                      directive(1, DirectiveKind::Prefetch, 0, false, 1500)}));
        QCOMPARE(late.jobs[0].kernels[3].swapStall, Nanoseconds(500));
        QCOMPARE(late.jobs[0].kernels[3].start, Nanoseconds(2100));
        QCOMPARE(late.jobs[0].kernels[3].end, Nanoseconds(2700));
        QCOMPARE(late.jobs[0].swapStall, Nanoseconds(500));
        QCOMPARE(late.transfers.size(), std::size_t(2));
        QCOMPARE(late.transfers[1].start, Nanoseconds(1600));
        QCOMPARE(late.transfers[1].end, Nanoseconds(2600));
        // No prefetch at all: k3 swaps X in on demand, 1000 ns of stall.
        auto demand = simulateWorkload(w, fixedPlanner({directive(0, DirectiveKind::PreEvict, 0, true)}));
        QCOMPARE(demand.jobs[0].kernels[3].swapStall, Nanoseconds(1000));
        QVERIFY(demand.transfers.back().cause == SwapCause::Demand);
    }

    void metricsAgainstVanilla() {
        Workload w = unitWorkload(10'000);
        addJob(w, "A", swapProfile(), 0);
        const auto vanilla = simulateWorkload(w, "none");
        // Vanilla: X and Y both live during k2 -> peak 2000; 100 + 1000 + 1000 + 100 = 2200 ns.
        QCOMPARE(vanilla.peakGpuBytes, Bytes(2000));
        QCOMPARE(vanilla.jobs[0].totalTime(), Nanoseconds(2200));
        // X out after k0 (gone at 1100, before Y arrives), back on demand at k3 (Y is freed
        // after k2): peak 1000, k3 stalls 1000 -> 3200 ns.
        const auto run = simulateWorkload(w, fixedPlanner({directive(0, DirectiveKind::PreEvict, 0, true)}));
        QCOMPARE(run.peakGpuBytes, Bytes(1000));
        QCOMPARE(run.jobs[0].totalTime(), Nanoseconds(3200));
        const auto m = compareWithVanilla(run, vanilla);
        // MSR = 1 - 1000/2000 = 0.5; EOR = 3200/2200 - 1 = 1/2.2; CBR = 0.5 * 2.2 = 1.1.
        QCOMPARE(m.system.msr, 0.5);
        QVERIFY(std::abs(m.system.eor - 1000.0 / 2200.0) < 1e-12);
        QVERIFY(m.system.cbr.has_value());
        QVERIFY(std::abs(*m.system.cbr - 1.1) < 1e-12);
        QCOMPARE(m.jobs[0].msr, 0.5);
        // The vanilla run against itself: no saving, no overhead, CBR undefined.
        const auto self = compareWithVanilla(vanilla, vanilla);
        QCOMPARE(self.system.msr, 0.0);
        QCOMPARE(self.system.eor, 0.0);
        QVERIFY(!self.system.cbr.has_value());
    }

    void freeAfterTheLastUseIsNotADroppedDirective() {
        // Every planner frees a tensor after its last access; the engine already released it
        // there (reference counting, in every run). That free did what it asks: not dropped.
        // Y's last access is its write by k2, X's its read by k3.
        Workload w = unitWorkload(10'000);
        addJob(w, "A", swapProfile(), 0);
        const auto frees = simulateWorkload(w, fixedPlanner({directive(2, DirectiveKind::Free, 1, true),
                                                             directive(3, DirectiveKind::Free, 0, true)}));
        QCOMPARE(frees.jobs[0].droppedDirectives, std::int64_t(0));
        QCOMPARE(frees.peakGpuBytes, Bytes(2000));
        // A prefetch of Y before it was ever written (no host copy) is refused and still counted.
        const auto refused = simulateWorkload(w, fixedPlanner({directive(0, DirectiveKind::Prefetch, 1)}));
        QCOMPARE(refused.jobs[0].droppedDirectives, std::int64_t(1));
    }

    void singleLinkNeverOverlapsDuplexDoes() {
        // P: k0 writes X (100 ns), k1 computes 5000 ns, k2 reads X. Plan: X out after k0, in
        // 3000 after k1 starts. Job 0 from 0: out 100-1100, in 3100-4100. Job 1 from 3000: its
        // k0 shares the processor (200 ns), its swap-out is issued at 3200 while job 0's
        // swap-in is on the link.
        TinyProfile p;
        const auto x = p.tensor("X", 1000, false);
        p.kernel("k0", 100, {}, {x});
        p.kernel("k1", 5000, {}, {});
        p.kernel("k2", 100, {x}, {});
        const auto planner = fixedPlanner({directive(0, DirectiveKind::PreEvict, x, true),
                                           directive(1, DirectiveKind::Prefetch, x, false, 3000)});
        for (const auto mode : {LinkMode::Single, LinkMode::Duplex}) {
            Workload w = unitWorkload(10'000, mode);
            addJob(w, "A", p.profile, 0);
            addJob(w, "B", p.profile, 3000);
            const auto r = simulateWorkload(w, planner);
            QVERIFY(r.cannotRun.empty());
            QCOMPARE(r.transfers.size(), std::size_t(4));
            bool opposite = false;
            for (std::size_t a = 0; a < r.transfers.size(); ++a)
                for (std::size_t b = a + 1; b < r.transfers.size(); ++b) {
                    if (!overlap(r.transfers[a], r.transfers[b])) continue;
                    QVERIFY(mode == LinkMode::Duplex);                                // single: never
                    QVERIFY(r.transfers[a].direction != r.transfers[b].direction);  // duplex: one per direction
                    opposite = true;
                }
            const SwapTask& out1 = r.transfers[2];  // job 1's swap-out, issued at 3200
            QCOMPARE(out1.job, 1);
            QCOMPARE(out1.issue, Nanoseconds(3200));
            // single: behind job 0's swap-in (3100-4100); duplex: at once, beside it.
            QCOMPARE(out1.start, mode == LinkMode::Single ? Nanoseconds(4100) : Nanoseconds(3200));
            QCOMPARE(opposite, mode == LinkMode::Duplex);
        }
    }

    void passiveSwapWhenAnAllocationDoesNotFit() {
        // Capacity 1000. k0 writes A (600), k1 writes B (600), k2 reads A. At k1 A is swapped out
        // passively (600 ns, the job waits), at k2 it comes back on demand (600 ns; B was freed
        // after k1, its last use). k0 0-100, k1 100-800, k2 800-1500.
        TinyProfile p;
        const auto a = p.tensor("A", 600, false);
        const auto b = p.tensor("B", 600, false);
        p.kernel("k0", 100, {}, {a});
        p.kernel("k1", 100, {}, {b});
        p.kernel("k2", 100, {a}, {});
        Workload w = unitWorkload(1000);
        addJob(w, "A", p.profile, 0);
        const auto r = simulateWorkload(w, "none");
        QVERIFY(r.cannotRun.empty());
        QCOMPARE(r.jobs[0].kernels[1].passiveSwapStall, Nanoseconds(600));
        QCOMPARE(r.jobs[0].kernels[2].swapStall, Nanoseconds(600));
        QCOMPARE(r.jobs[0].end, Nanoseconds(1500));
        QVERIFY(r.transfers[0].cause == SwapCause::Passive);
        QVERIFY(r.transfers[1].cause == SwapCause::Demand);
        QVERIFY(r.peakGpuBytes <= 1000);
    }

    void anAllocationThatCanNeverFitIsImpossible() {
        // One tensor larger than the GPU.
        TinyProfile big;
        const auto t = big.tensor("huge", 2000, false);
        big.kernel("k0", 100, {}, {t});
        Workload w = unitWorkload(1000);
        addJob(w, "A", big.profile, 0);
        const auto r = simulateWorkload(w, "none");
        QVERIFY(r.cannotRun.find("huge") != std::string::npos);
        QVERIFY(r.cannotRun.find("2000 B") != std::string::npos);
        QVERIFY(r.cannotRun.find("1000 B") != std::string::npos);
        // A kernel reading A (600) and writing B (600) on 1000 B: both its own, nothing to swap.
        TinyProfile pair;
        const auto a = pair.tensor("A", 600, false);
        const auto b = pair.tensor("B", 600, false);
        pair.kernel("k0", 100, {}, {a});
        pair.kernel("k1", 100, {a}, {b});
        Workload w2 = unitWorkload(1000);
        addJob(w2, "A", pair.profile, 0);
        const auto r2 = simulateWorkload(w2, "none");
        QVERIFY(r2.cannotRun.find("tensor 1 (B)") != std::string::npos);
        QVERIFY(r2.cannotRun.find("nothing else can be swapped out") != std::string::npos);
    }

    void jobsWaitingForEachOtherTakeTurns() {
        // Capacity 1000; each job: k0 writes a (400), k1 reads a and writes b (400), 100 ns
        // each. Both k0 share the processor: 0-200. At 200 both k1 need 400 with 200 free and
        // each holds its own a: a deadlock. The first job (A) may swap B's a out (passive,
        // 200-600), allocates b and computes alone 600-700, then ends and frees its memory. B
        // starts k1 over at 600, waits for room until 700, swaps its a back in (700-1100), and
        // computes 1100-1200.
        TinyProfile p;
        const auto a = p.tensor("a", 400, false);
        const auto b = p.tensor("b", 400, false);
        p.kernel("k0", 100, {}, {a});
        p.kernel("k1", 100, {a}, {b});
        Workload w = unitWorkload(1000);
        addJob(w, "A", p.profile, 0);
        addJob(w, "B", p.profile, 0);
        const auto r = simulateWorkload(w, "none");
        QVERIFY2(r.cannotRun.empty(), r.cannotRun.c_str());
        const auto& ka = r.jobs[0].kernels[1];
        QCOMPARE(ka.start, Nanoseconds(200));
        QCOMPARE(ka.passiveSwapStall, Nanoseconds(400));
        QCOMPARE(ka.end, Nanoseconds(700));
        const auto& kb = r.jobs[1].kernels[1];
        QCOMPARE(kb.passiveSwapStall, Nanoseconds(500));
        QCOMPARE(kb.swapStall, Nanoseconds(400));
        QCOMPARE(kb.end, Nanoseconds(1200));
        QCOMPARE(r.transfers.size(), std::size_t(2));
        QVERIFY(r.transfers[0].job == 1 && r.transfers[0].cause == SwapCause::Passive);
        QVERIFY(r.transfers[1].job == 1 && r.transfers[1].cause == SwapCause::Demand);
        QVERIFY(r.peakGpuBytes <= 1000);
    }

    void recomputeRerunsTheProducerAsCompute() {
        // X released after k0 by Recompute; before k3 reads it, k0 (100 ns) re-runs: recompute
        // time 100, k3's window 100 + 100; total 2200 + 100.
        Workload w = unitWorkload(10'000);
        addJob(w, "A", swapProfile(), 0);
        const auto r = simulateWorkload(w, fixedPlanner({directive(0, DirectiveKind::Recompute, 0, true)}));
        QCOMPARE(r.jobs[0].kernels[3].recompute, Nanoseconds(100));
        QCOMPARE(r.jobs[0].recompute, Nanoseconds(100));
        QCOMPARE(r.jobs[0].end, Nanoseconds(2300));
        QCOMPARE(r.peakGpuBytes, Bytes(1000));
        QVERIFY(r.transfers.empty());
    }

    void oneJobAsASimulationResultForTheViews() {
        // The late swap-in run above: X out 100-1100, in 1600-2600, k3 waits 500.
        Workload w = unitWorkload(10'000);
        addJob(w, "A", swapProfile(), 0);
        const auto r = simulateWorkload(w, fixedPlanner({directive(0, DirectiveKind::PreEvict, 0, true),
                                                         directive(1, DirectiveKind::Prefetch, 0, false, 1500)}));
        const SimulationResult sim = jobSimulationResult(w, r, 0);
        QCOMPARE(sim.iterationTime, Nanoseconds(2700));
        QCOMPARE(sim.idealTime, Nanoseconds(2200));
        QCOMPARE(sim.kernels.size(), std::size_t(4));
        QCOMPARE(sim.kernels[3].latePrefetchStall, Nanoseconds(500));  // swap stall
        QCOMPARE(sim.kernels[3].compute, Nanoseconds(100));
        QCOMPARE(sim.totals.compute, Nanoseconds(2200));
        QCOMPARE(sim.transfers.size(), std::size_t(2));
        QVERIFY(sim.transfers[0].link == LinkId::GpuToHost && sim.transfers[1].link == LinkId::HostToGpu);
        QCOMPARE(sim.transfers[1].start, Nanoseconds(1600));
        QCOMPARE(sim.traffic[static_cast<int>(LinkId::HostToGpu)], Bytes(1000));
        QCOMPARE(sim.traffic[static_cast<int>(LinkId::GpuToHost)], Bytes(1000));
        // GPU bytes: X at 0 (1000), gone at 1100, Y at 1100 (1000), X back at 1600 (2000), Y
        // freed at 2100 (1000): peak 2000.
        QCOMPARE(sim.peakGpuBytes, Bytes(2000));
        QCOMPARE(sim.residency.front().time, Nanoseconds(0));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, jobSimulationResult(w, r, 0, 1));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, jobSimulationResult(w, r, 1));
    }

    void realProfilesKeepTheInvariants() {
        // Two ResNet-18 jobs on a GPU smaller than their vanilla peak together, every
        // activation swapped out after its write and in before its next read.
        const auto profile = loadProfile(std::filesystem::path(SPILLWAY_SOURCE_DIR) / "samples/torch/resnet18-b2-cpu.profile.json");
        Workload probe = unitWorkload(64 * kGiB);
        addJob(probe, "A", profile, 0, 2);
        addJob(probe, "B", profile, 1'000'000, 2);
        const auto vanilla = simulateWorkload(probe, "none");
        QVERIFY(vanilla.cannotRun.empty());
        const auto planner = lambdaPlanner([](const MultiJobPlanInput& input) {
            std::vector<Plan> plans;
            for (const auto& job : input.jobs) {
                Plan plan;
                const auto& ks = job.profile->kernels;
                for (std::size_t k = 0; k < ks.size(); ++k)
                    for (auto t : ks[k].outputs) {
                        plan.directives.push_back(directive(static_cast<std::int64_t>(k), DirectiveKind::PreEvict, t, true));
                        for (std::size_t n = k + 1; n < ks.size(); ++n)
                            if (std::find(ks[n].inputs.begin(), ks[n].inputs.end(), t) != ks[n].inputs.end()) {
                                plan.directives.push_back(directive(static_cast<std::int64_t>(n - 1), DirectiveKind::Prefetch, t));
                                break;
                            }
                    }
                plans.push_back(plan);
            }
            return plans;
        });
        for (const auto mode : {LinkMode::Single, LinkMode::Duplex}) {
            Workload w = probe;
            w.linkMode = mode;
            w.hardware.gpuCapacity = vanilla.peakGpuBytes * 3 / 4;
            const auto r = simulateWorkload(w, planner);
            QVERIFY2(r.cannotRun.empty(), r.cannotRun.c_str());
            QVERIFY(r.peakGpuBytes <= w.hardware.gpuCapacity);
            QVERIFY(!r.transfers.empty());
            for (std::size_t j = 0; j < r.jobs.size(); ++j) {
                const auto& job = r.jobs[j];
                QCOMPARE(job.iterationTimes.size(), std::size_t(2));
                QCOMPARE(job.kernels.size(), 2 * profile.kernels.size());
                Nanoseconds previousEnd = job.start;
                for (const auto& k : job.kernels) {
                    QCOMPARE(k.compute + k.recompute + k.swapStall + k.passiveSwapStall, k.end - k.start);
                    QCOMPARE(k.start, previousEnd);  // back to back
                    previousEnd = k.end;
                }
                QCOMPARE(job.memory.back().bytes, Bytes(0));  // everything released at the end
                // The conversion for the app's views keeps the split and the window.
                const auto sim = jobSimulationResult(w, r, static_cast<int>(j));
                QCOMPARE(sim.kernels.size(), profile.kernels.size());
                QCOMPARE(sim.totals.compute + sim.totals.latePrefetchStall + sim.totals.oversubStall,
                         sim.iterationTime);
                QCOMPARE(sim.gpuBytesAtStart + sim.gpuBytesIn - sim.gpuBytesOut, sim.gpuBytesAtEnd);
                QVERIFY(sim.peakGpuBytes <= job.peakGpuBytes);
            }
            // A swap-in lands before the kernel that reads the tensor computes (or it waited).
            for (const auto& s : r.transfers) {
                if (s.direction != SwapDirection::In) continue;
                for (const auto& k : r.jobs[s.job].kernels) {
                    const auto& in = profile.kernels[k.position].inputs;
                    if (k.end <= s.issue || std::find(in.begin(), in.end(), s.tensor) == in.end()) continue;
                    QVERIFY(k.end - k.compute >= s.end);
                    break;
                }
            }
            for (std::size_t a = 0; a < r.transfers.size(); ++a)
                for (std::size_t b = a + 1; b < r.transfers.size() && b < a + 64; ++b)
                    if (overlap(r.transfers[a], r.transfers[b]))
                        QVERIFY(mode == LinkMode::Duplex && r.transfers[a].direction != r.transfers[b].direction);
            QCOMPARE(simulateWorkload(w, planner), r);  // repeatable bit for bit
        }
    }

    void randomPlansEndAndKeepTheInvariants() {
        // Any mix of directives, delays and a tight GPU (200 MiB, then 40 MiB where three
        // jobs' working sets collide): the run ends (or says why it cannot), never holds more
        // than the GPU, and every kernel window is exactly its parts.
        const auto profile = loadProfile(std::filesystem::path(SPILLWAY_SOURCE_DIR) / "samples/lessons/small-gpt.profile.json");
        static std::uint64_t seed = 0;
        const auto planner = lambdaPlanner([](const MultiJobPlanInput& input) {
            std::vector<Plan> plans;
            std::uint64_t x = seed;
            const auto next = [&x](std::uint64_t n) {
                x = x * 6364136223846793005ULL + 1442695040888963407ULL;
                return (x >> 33) % n;
            };
            const DirectiveKind kinds[] = {DirectiveKind::PreEvict, DirectiveKind::Prefetch, DirectiveKind::Free,
                                           DirectiveKind::Recompute};
            for (const auto& job : input.jobs) {
                Plan plan;
                const auto kernels = job.profile->kernels.size();
                for (int i = 0; i < 300; ++i) {
                    const auto& t = job.profile->tensors[next(job.profile->tensors.size())];
                    plan.directives.push_back(directive(static_cast<std::int64_t>(next(kernels)), kinds[next(4)], t.id,
                                                        next(2) == 1, next(3) == 0 ? static_cast<Nanoseconds>(next(200'000)) : 0));
                }
                plans.push_back(plan);
            }
            ++seed;
            return plans;
        });
        int ran = 0;
        for (std::uint64_t s = 1; s <= 4; ++s) {
            seed = s * 1000;
            Workload w = unitWorkload((s <= 2 ? 200 : 40) * kMiB, s % 2 ? LinkMode::Single : LinkMode::Duplex);
            w.hardware.hostToGpu = w.hardware.gpuToHost = {16'000'000'000, 5'000};
            addJob(w, "A", profile, 0, 3);
            addJob(w, "B", profile, 300'000, 2);
            addJob(w, "C", profile, 300'000, 1);
            const auto r = simulateWorkload(w, planner);
            QVERIFY(r.peakGpuBytes <= w.hardware.gpuCapacity);
            if (!r.cannotRun.empty()) {
                QVERIFY2(r.cannotRun.find("does not fit") != std::string::npos, r.cannotRun.c_str());
                continue;
            }
            ++ran;
            for (const auto& job : r.jobs) {
                for (const auto& k : job.kernels)
                    QCOMPARE(k.compute + k.recompute + k.swapStall + k.passiveSwapStall, k.end - k.start);
                QCOMPARE(job.memory.back().bytes, Bytes(0));
            }
            QCOMPARE(r.jobs[0].iterationTimes.size(), std::size_t(3));
        }
        QVERIFY(ran >= 2);
    }
};

QTEST_GUILESS_MAIN(TestWorkloadSim)
#include "tst_workload_sim.moc"
