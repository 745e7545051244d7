// Multi-streaming (core/layout/multi_stream.h, ROAM's and MODeL's MS mode): a hand-worked
// diamond whose two branches share a timestep when the memory allows it and not otherwise (nor
// when a single-stream layout gives their workspaces the same bytes), the timestep rules, the merged allocation problem's LOAD equal to the schedule's memory, the MS
// order ILP (as many steps as kernels: the single-stream optimum; the fewest steps: the
// diamond's forced schedule) and multi-stream layouts that verify and are never larger than the
// single-stream ones.
#include "core/layout/ilp_order.h"
#include "core/layout/layout_verifier.h"
#include "core/layout/multi_stream.h"
#include "core/layout/operator_order.h"
#include "core/layout/ordered_layout.h"
#include "core/layout/order_memory_model.h"
#include "core/layout/profile_allocation.h"
#include "random_profile.h"
#include "tests/support/tiny_gpt.h"

#include <QtTest>

#include <algorithm>
#include <vector>

using namespace spillway;
using spillway::testing::randomProfile;

namespace {

Tensor tensor(TensorId id, Bytes bytes) {
    Tensor t;
    t.id = id;
    t.name = "t" + std::to_string(id);
    t.bytes = bytes;
    return t;
}

Kernel kernel(KernelId id, std::vector<TensorId> inputs, std::vector<TensorId> outputs, Bytes workspace = 0) {
    Kernel k;
    k.id = id;
    k.name = "k" + std::to_string(id);
    k.duration = 1000;
    k.phase = KernelPhase::Forward;
    k.inputs = std::move(inputs);
    k.outputs = std::move(outputs);
    k.workspaceBytes = workspace;
    return k;
}

// k0 writes A (4 MiB); k1 and k2 each read A and write B, C (1 MiB); k3 reads B and C, writes D.
// One stream, program order: 4, 5, 6 (A+B+C), 3 MiB. k1 and k2 do not depend on each other.
Profile diamond(Bytes branchWorkspace = 0) {
    Profile p;
    p.tensors = {tensor(0, 4 * kMiB), tensor(1, kMiB), tensor(2, kMiB), tensor(3, kMiB)};
    p.kernels = {kernel(0, {}, {0}), kernel(1, {0}, {1}, branchWorkspace), kernel(2, {0}, {2}, branchWorkspace),
                 kernel(3, {1, 2}, {3})};
    return p;
}

const std::vector<std::int64_t> kProgram{0, 1, 2, 3};

Bytes peakOf(const std::vector<Bytes>& memory) { return *std::max_element(memory.begin(), memory.end()); }

}  // namespace

class TestMultiStream : public QObject {
    Q_OBJECT
private slots:
    void independentBranchesShareATimestepWithinTheBudget() {
        const Profile p = diamond();
        const OrderMemoryModel model(p);
        const DependencyGraph graph = DependencyGraph::derive(p);
        QCOMPARE(model.peak(kProgram), 6 * kMiB);
        const auto grouped = groupIntoTimesteps(model, graph, kProgram, 6 * kMiB);
        QCOMPARE(grouped, (std::vector<std::int64_t>{0, 1, 1, 2}));
        QCOMPARE(timestepMemory(model, kProgram, grouped), (std::vector<Bytes>{4 * kMiB, 6 * kMiB, 3 * kMiB}));
        // Under the single-stream peak nothing can share: k1 alone already needs 5 MiB, k1 + k2 6.
        QCOMPARE(groupIntoTimesteps(model, graph, kProgram, 5 * kMiB), (std::vector<std::int64_t>{0, 1, 2, 3}));
    }

    void workspacesOfOneTimestepAddUp() {
        // With 2 MiB of workspace each, k1 runs at 7 MiB and k2 at 8; together they would need
        // A + B + C + 4 = 10 MiB, over the single-stream peak, so they stay apart.
        const Profile p = diamond(2 * kMiB);
        const OrderMemoryModel model(p);
        const DependencyGraph graph = DependencyGraph::derive(p);
        QCOMPARE(model.peak(kProgram), 8 * kMiB);
        QCOMPARE(groupIntoTimesteps(model, graph, kProgram, 8 * kMiB), (std::vector<std::int64_t>{0, 1, 2, 3}));
        QCOMPARE(peakOf(timestepMemory(model, kProgram, {0, 1, 1, 2})), 10 * kMiB);
        QCOMPARE(groupIntoTimesteps(model, graph, kProgram, 10 * kMiB), (std::vector<std::int64_t>{0, 1, 1, 2}));
    }

    void groupingCanKeepASingleStreamLayout() {
        // k1's and k2's 1 MiB workspaces take turns in one stream, so a layout may give them the
        // same bytes; k1 and k2 may then not share a timestep, whatever memory allows (8 MiB here).
        const Profile p = diamond(kMiB);
        const OrderMemoryModel model(p);
        const DependencyGraph graph = DependencyGraph::derive(p);
        const AllocationProblem positions = allocationProblemFromProfile(p, kProgram);
        Layout shared, apart;
        Bytes top = 0;
        for (const Buffer& b : positions.buffers) {
            const bool workspace = b.origin.tensor < 0;
            apart.offsets.push_back(top);
            shared.offsets.push_back(workspace ? 100 * kMiB : top);
            top += b.size;
        }
        QVERIFY(verifyLayout(positions, shared).empty());
        QCOMPARE(groupIntoTimesteps(model, graph, kProgram, 8 * kMiB), (std::vector<std::int64_t>{0, 1, 1, 2}));
        QCOMPARE(groupIntoTimestepsKeepingLayout(model, graph, kProgram, 8 * kMiB, positions, shared),
                 (std::vector<std::int64_t>{0, 1, 2, 3}));
        const auto grouped = groupIntoTimestepsKeepingLayout(model, graph, kProgram, 8 * kMiB, positions, apart);
        QCOMPARE(grouped, (std::vector<std::int64_t>{0, 1, 1, 2}));
        QVERIFY(verifyLayout(onTimesteps(positions, grouped), apart).empty());
        QVERIFY(!verifyLayout(onTimesteps(positions, grouped), shared).empty());
    }

    void timestepRules() {
        const DependencyGraph graph = DependencyGraph::derive(diamond());
        std::string why;
        QVERIFY(isValidTimesteps(graph, kProgram, {0, 1, 1, 2}, &why));
        QVERIFY(!isValidTimesteps(graph, kProgram, {0, 0, 1, 2}, &why));  // k1 reads what k0 writes
        QVERIFY2(why.find("depends on") != std::string::npos, why.c_str());
        QVERIFY(!isValidTimesteps(graph, kProgram, {0, 2, 2, 3}, &why));  // a skipped timestep
        QVERIFY(!isValidTimesteps(graph, kProgram, {1, 2, 2, 3}, &why));  // not from 0
        QVERIFY(!isValidTimesteps(graph, kProgram, {0, 1, 2}, &why));     // one short
        QCOMPARE(fewestTimesteps(graph, kProgram), std::int64_t(3));
    }

    void mergedProblemLoadIsTheScheduleMemory() {
        // On random graphs grouped at their own peak: the merged problem's LOAD is the largest
        // timestep memory, which is the single-stream peak, in fewer timesteps.
        for (unsigned seed = 1; seed <= 20; ++seed) {
            const Profile p = randomProfile(seed, 40);
            const OrderMemoryModel model(p);
            const DependencyGraph graph = DependencyGraph::derive(p);
            const auto order = programFirstTopologicalOrder(graph);
            const Bytes single = model.peak(order);
            const auto steps = groupIntoTimesteps(model, graph, order, single);
            QVERIFY(isValidTimesteps(graph, order, steps, nullptr));
            const AllocationProblem merged = onTimesteps(allocationProblemFromProfile(p, order), steps);
            QCOMPARE(loadLowerBound(merged), peakOf(timestepMemory(model, order, steps)));
            QCOMPARE(loadLowerBound(merged), single);
            QVERIFY(timestepCount(steps) <= std::int64_t(order.size()));
        }
    }

    void orderIlpWithAStepPerKernelFindsTheSingleStreamOptimum() {
        // Every single-stream schedule is a multi-stream one and splitting a timestep never adds
        // memory, so with as many steps as kernels the two optima are equal.
        for (unsigned seed = 1; seed <= 4; ++seed) {
            const Profile p = randomProfile(seed, 7);
            const OrderMemoryModel model(p);
            const DependencyGraph graph = DependencyGraph::derive(p);
            const auto order = programFirstTopologicalOrder(graph);
            IlpOrderOptions single, multi;
            single.timeLimitSeconds = multi.timeLimitSeconds = 60;
            multi.timesteps = std::int64_t(order.size());
            const IlpOrderSolution ss = solveOrderIlp(model, graph, model.initialState(), order, single);
            const IlpOrderSolution ms = solveOrderIlp(model, graph, model.initialState(), order, multi);
            QVERIFY(ss.status == MipStatus::Optimal);
            QVERIFY(ms.status == MipStatus::Optimal);
            QCOMPARE(ms.peak, ss.peak);
            QVERIFY(isValidTimesteps(graph, ms.order, ms.timesteps, nullptr));
        }
    }

    void modelMultiStreamUsesTheFewestTimesteps() {
        const Profile p = diamond();
        OrderOptions o;
        o.multiStream = true;
        o.modelTimeLimitSeconds = 30;
        const OrderResult ms = orderOperators("model", p, o);
        QVERIFY2(ms.provenOptimal, ms.notes.c_str());
        QCOMPARE(ms.timesteps, (std::vector<std::int64_t>{0, 1, 1, 2}));  // the longest chain: 3 kernels
        QCOMPARE(ms.theoreticalPeak, 6 * kMiB);
        // Too few timesteps for the chain: refused, the start returned.
        const OrderMemoryModel model(p);
        const DependencyGraph graph = DependencyGraph::derive(p);
        IlpOrderOptions two;
        two.timesteps = 2;
        const IlpOrderSolution refused = solveOrderIlp(model, graph, model.initialState(), kProgram, two);
        QVERIFY(refused.status == MipStatus::NotRun);
        QVERIFY2(refused.note.find("needs 3 timesteps") != std::string::npos, refused.note.c_str());
    }

    void multiStreamRoamLayoutVerifies() {
        const auto gpt = test::tinyGpt(2, 2);
        OrderOptions o;
        o.timeLimitSecondsPerSegment = 1;
        const OrderResult single = orderOperators("roam", *gpt, o);
        o.multiStream = true;
        const OrderResult multi = orderOperators("roam", *gpt, o);
        QCOMPARE(multi.order, single.order);
        QCOMPARE(multi.theoreticalPeak, single.theoreticalPeak);
        QVERIFY(timestepCount(multi.timesteps) < std::int64_t(multi.order.size()));
        LayoutSettings settings;
        settings.timeLimitSeconds = 2;
        // Never a larger arena than one stream: where the merged problem places worse, the order
        // is regrouped on the single-stream layout (more timesteps, that arena).
        for (const char* placement : {"roam", "best", "llfb"}) {
            const OrderedLayout row = placeOrdered(*gpt, multi, placement, settings);
            const OrderedLayout alone = placeOrdered(*gpt, single, placement, settings);
            QVERIFY2(row.error.empty(), row.error.c_str());
            QCOMPARE(row.theoreticalPeak, single.theoreticalPeak);
            QVERIFY(row.timesteps >= timestepCount(multi.timesteps));
            QVERIFY(row.timesteps < std::int64_t(multi.order.size()));
            QVERIFY(row.arena >= row.theoreticalPeak);
            QVERIFY2(row.arena <= alone.arena, placement);
            qInfo("%s: %lld timesteps for %zu kernels, arena %lld (one stream %lld)%s", placement,
                  (long long)row.timesteps, multi.order.size(), (long long)row.arena, (long long)alone.arena,
                  row.timesteps > timestepCount(multi.timesteps) ? ", regrouped" : "");
        }
    }
};

QTEST_GUILESS_MAIN(TestMultiStream)
#include "tst_multi_stream.moc"
