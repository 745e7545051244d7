// Issue 18: MOST at the paper's large batches on most-rtx4090 (docs/validation.md, MOST section,
// "ViT-Base at batch 2048" and the rows after it). Generated profiles, no shared data.
//
// ViT-2048 at 3.2 GB/s is where MOST loses to G10. The trace behind the docs: every migration the
// rule accepts has P_delay = 0 at P_safe, because P_safe = use - fetch latency assumes the prefetch
// has the SSD to itself, while the planned migrations alone keep it busy ~9x the compute time. The
// prefetches land late, on a GPU ~10x over capacity, and most of what lands is evicted again before
// its use and faulted back. These tests pin that diagnosis, so a change that moves it shows here.
#include "core/analysis/working_set.h"
#include "core/hardware/hardware_presets.h"
#include "core/policy/most_planner.h"
#include "core/policy/planner.h"
#include "core/sim/simulator.h"
#include "core/trace/bert_training_graph.h"
#include "core/trace/opt_training_graph.h"
#include "core/trace/vit_training_graph.h"

#include <QtTest>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>

using namespace spillway;

namespace {


HardwareConfig machine(const std::string& bandwidth) {
    auto hw = hardwarePreset("most-rtx4090");
    setHardwareValue(hw, "ssd.bandwidth", bandwidth);
    return hw;
}

SimulationResult run(const Profile& profile, const Plan& plan, const HardwareConfig& hw) {
    SimulationOptions options;
    options.recordTensorResidency = false;
    options.recordResidencySamples = false;
    options.recordTransfers = false;
    options.recordDemandFetches = true;
    return simulate(profile, plan, hw, options);
}

Profile vit(std::int64_t batch) {
    VitConfig c;
    c.batch = batch;
    return vitTrainingGraph(c);
}

// Bytes fetched on demand at a use that the plan had prefetched the tensor for: the prefetch
// (before the use kernel, as MOST's migrations are) came, yet the use found the tensor away.
Bytes faultedAfterPrefetch(const Profile& profile, const Plan& plan, const SimulationResult& result) {
    const auto n = static_cast<std::int64_t>(profile.kernels.size());
    std::map<TensorId, std::vector<std::int64_t>> uses;  // kernel positions, ascending
    for (std::int64_t k = 0; k < n; ++k) {
        for (TensorId t : profile.kernels[k].inputs) uses[t].push_back(k);
        for (TensorId t : profile.kernels[k].outputs) uses[t].push_back(k);
    }
    std::map<std::pair<std::int64_t, std::int64_t>, bool> prefetchedFor;  // (tensor position, use kernel)
    std::map<TensorId, std::int64_t> position;
    for (size_t i = 0; i < profile.tensors.size(); ++i) position[profile.tensors[i].id] = static_cast<std::int64_t>(i);
    for (const auto& d : plan.directives) {
        if (d.kind != DirectiveKind::Prefetch) continue;
        const auto& u = uses[d.tensor];
        if (u.empty()) continue;
        const auto next = std::lower_bound(u.begin(), u.end(), d.kernelPos);
        const std::int64_t use = next == u.end() ? u.front() : *next;  // wraps into the next iteration
        if (use != d.kernelPos) prefetchedFor[{position[d.tensor], use}] = true;
    }
    Bytes bytes = 0;
    for (const auto& f : result.demandFetches)
        if (prefetchedFor.count({f.tensorPos, f.runIndex})) bytes += f.bytes;
    return bytes;
}

Bytes demandFetched(const SimulationResult& result) {
    Bytes bytes = 0;
    for (const auto& f : result.demandFetches) bytes += f.bytes;
    return bytes;
}

}  // namespace

class TestMostLargeBatches : public QObject {
    Q_OBJECT
private slots:
    // The term that decides: P_delay, computed with the link idle, is 0 for every migration the
    // rule accepts, and the simulated late-prefetch stall is more than the whole compute time.
    void vit2048AcceptsItsMigrationsWithNoForeseenDelay() {
        const Profile profile = vit(2048);
        const auto hw = machine("3.2GB/s");
        const Plan plan = makePlan("most", profile, hw);
        QCOMPARE(plan.notes.at("link_queues"), std::string("no"));
        QVERIFY(std::stoll(plan.notes.at("migrations_traded_against_delay")) > 0);
        QCOMPARE(plan.notes.at("foreseen_late_prefetch_ns"), std::string("0"));
        const auto result = run(profile, plan, hw);
        QVERIFY2(result.totals.latePrefetchStall > result.idealTime,
                 qPrintable(QString("late prefetch %1 s, compute %2 s").arg(result.totals.latePrefetchStall / 1e9).arg(result.idealTime / 1e9)));

        // With the link as a queue, P_delay sees the planned transfers: the planner foresees
        // delay, and the prefetches it keeps wait less.
        MostOptions queued;
        queued.linkQueues = MostOptions::LinkQueues::On;
        const Plan withQueues = planMostWith(profile, hw, queued);
        QVERIFY(std::stoll(withQueues.notes.at("foreseen_late_prefetch_ns")) > 0);
        QVERIFY(run(profile, withQueues, hw).totals.latePrefetchStall < result.totals.latePrefetchStall);
    }

    // Where the bytes go: most of what MOST fetches on demand at ViT-2048 is tensors it had
    // prefetched for that very use (landed late on a GPU ~10x over capacity, evicted again).
    void vit2048FaultsMostlyOnTensorsItPrefetched() {
        const Profile profile = vit(2048);
        const auto hw = machine("3.2GB/s");
        const Plan plan = makePlan("most", profile, hw);
        const auto result = run(profile, plan, hw);
        const Bytes refaulted = faultedAfterPrefetch(profile, plan, result);
        const Bytes all = demandFetched(result);
        qInfo("ViT-2048 3.2 GB/s: %.1f GiB fetched on demand, %.1f GiB of it at uses MOST had prefetched for",
              static_cast<double>(all) / kGiB, static_cast<double>(refaulted) / kGiB);
        QVERIFY(2 * refaulted > all);
    }

    // ViT-4096 and BERT-1024 cannot run on a 24 GiB GPU in fp32: one kernel needs more at once.
    // One kernel of each of the largest batches needs more than the 24 GiB at once: it runs by
    // streaming (docs/simulator.md, "A kernel larger than the GPU"), and MOST is faster than UVM.
    void largestBatchesStreamTheirLargestKernel() {
        const auto hw = machine("3.2GB/s");
        BertConfig bert;
        bert.batch = 1024;
        const std::pair<const char*, Profile> profiles[] = {{"ViT-4096", vit(4096)}, {"BERT-1024", bertTrainingGraph(bert)}};
        for (const auto& [name, profile] : profiles) {
            const auto sets = computeWorkingSets(profile);
            const auto k = largestWorkingSet(sets);
            QVERIFY2(sets[k].totalBytes() > hw.gpuCapacity, name);
            const auto uvm = run(profile, makePlan("uvm", profile, hw), hw);
            const auto most = run(profile, makePlan("most", profile, hw), hw);
            QVERIFY2(most.iterationTime < uvm.iterationTime, name);
        }
        // ViT-2048, half the batch, fits: its largest kernel (GELU backward) is half of ViT-4096's.
        const auto sets = computeWorkingSets(vit(2048));
        QVERIFY(sets[largestWorkingSet(sets)].totalBytes() <= hw.gpuCapacity);
    }

    // OPT-1.3B at batch 128: MOST migrates and is not slower than G10 at any bandwidth of Fig. 8
    // (issue 18's acceptance).
    void opt128MostIsNotSlowerThanG10AtAnyBandwidth() {
        const Profile profile = optTrainingGraph(OptConfig{});
        for (const char* bw : {"3.2GB/s", "6.4GB/s", "12.8GB/s", "25.6GB/s"}) {
            const auto hw = machine(bw);
            const Plan plan = makePlan("most", profile, hw);
            QVERIFY2(std::any_of(plan.directives.begin(), plan.directives.end(),
                                 [](const Directive& d) { return d.kind == DirectiveKind::PreEvict; }),
                     bw);
            const auto most = run(profile, plan, hw);
            const auto g10 = run(profile, makePlan("g10", profile, hw), hw);
            QVERIFY2(most.iterationTime <= g10.iterationTime,
                     qPrintable(QString("%1: most %2 s, g10 %3 s").arg(bw).arg(most.iterationTime / 1e9).arg(g10.iterationTime / 1e9)));
        }
    }

    // OPT-1.3B at batch 256 (the paper's larger OPT batch) fits, and MOST beats G10 at 3.2 GB/s.
    void opt256MostIsNotSlowerThanG10() {
        OptConfig c;
        c.batch = 256;
        const Profile profile = optTrainingGraph(c);
        const auto hw = machine("3.2GB/s");
        const auto most = run(profile, makePlan("most", profile, hw), hw);
        const auto g10 = run(profile, makePlan("g10", profile, hw), hw);
        QVERIFY2(most.iterationTime <= g10.iterationTime,
                 qPrintable(QString("most %1 s, g10 %2 s").arg(most.iterationTime / 1e9).arg(g10.iterationTime / 1e9)));
    }
};

QTEST_GUILESS_MAIN(TestMostLargeBatches)
#include "tst_most_large_batches.moc"
