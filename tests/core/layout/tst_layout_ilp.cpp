// The ILP formulations on CBC (core/layout/ilp_order.h, ilp_offsets.h): the same optimum as our
// exact searches on small problems (order windows, whole and inside a larger order; offsets),
// MODeL's whole-graph baselines stopping at their time limit with a valid answer, and ROAM's
// per-leaf report of which solver proved what.
#include "core/layout/ilp_offsets.h"
#include "core/layout/ilp_order.h"
#include "core/layout/layout_verifier.h"
#include "core/layout/operator_order.h"
#include "core/layout/order_memory_model.h"
#include "core/layout/order_window_solver.h"
#include "core/layout/placement.h"
#include "core/layout/profile_allocation.h"
#include "core/layout/roam_subgraph_tree.h"
#include "layout_test_support.h"
#include "random_profile.h"
#include "tests/support/tiny_gpt.h"

#include <QtTest>

#include <numeric>
#include <random>
#include <string>
#include <vector>

using namespace spillway;
using spillway::testing::randomProfile;

namespace {

// The model's state after running `order` up to (not including) position `at`.
OrderMemoryModel::State stateBefore(const OrderMemoryModel& model, const std::vector<std::int64_t>& order, size_t at) {
    auto state = model.initialState();
    for (size_t i = 0; i < at; ++i) model.step(state, size_t(order[i]));
    return state;
}

void compareOnWindow(const Profile& profile, const std::vector<std::int64_t>& order, size_t begin, size_t end) {
    const OrderMemoryModel model(profile);
    const DependencyGraph graph = DependencyGraph::derive(profile);
    const auto before = stateBefore(model, order, begin);
    const std::vector<std::int64_t> window(order.begin() + std::ptrdiff_t(begin), order.begin() + std::ptrdiff_t(end));
    const WindowSolution bb = solveWindowExactly(model, graph, before, window, 30.0);
    IlpOrderOptions o;
    o.timeLimitSeconds = 30.0;
    const IlpOrderSolution ilp = solveOrderIlp(model, graph, before, window, o);
    QVERIFY(bb.provenOptimal);
    QVERIFY2(ilp.status == MipStatus::Optimal, ilp.note.c_str());
    QCOMPARE(ilp.peak, bb.peak);
    QCOMPARE(ilp.bound, ilp.peak);
    // The ILP's order is a valid order of the whole profile once put back in place.
    std::vector<std::int64_t> whole = order;
    std::copy(ilp.order.begin(), ilp.order.end(), whole.begin() + std::ptrdiff_t(begin));
    std::string why;
    QVERIFY2(isTopologicalOrder(graph, whole, &why), why.c_str());
}

// Random buffers over ten ticks, sizes multiples of 3 (so alignment 4 matters).
AllocationProblem randomProblem(unsigned seed, int buffers, Bytes alignment) {
    std::mt19937 rng(seed);
    std::vector<std::tuple<std::int64_t, std::int64_t, Bytes>> spans;
    for (int i = 0; i < buffers; ++i) {
        const std::int64_t lower = std::int64_t(rng() % 10);
        spans.emplace_back(lower, lower + 1 + std::int64_t(rng() % 5), Bytes(1 + rng() % 9) * 3);
    }
    return testing::problemOf(spans, alignment);
}

}  // namespace

class TestLayoutIlp : public QObject {
    Q_OBJECT

private slots:
    void orderIlpMatchesBranchAndBoundOnRandomGraphs() {
        for (unsigned seed = 1; seed <= 6; ++seed) {
            const Profile p = randomProfile(seed, 9);
            std::vector<std::int64_t> order(p.kernels.size());
            std::iota(order.begin(), order.end(), 0);
            compareOnWindow(p, order, 0, order.size());
        }
    }

    void orderIlpMatchesBranchAndBoundInsideALargerOrder() {
        // Windows in the middle of a transformer's training step: tensors live before the window
        // and used after it are the cases a whole-graph test does not reach.
        const auto gpt = test::tinyGpt(2, 1);
        const DependencyGraph graph = DependencyGraph::derive(*gpt);
        const auto order = programFirstTopologicalOrder(graph);
        QVERIFY(order.size() > 60);
        for (size_t begin : {size_t(5), order.size() / 3, order.size() / 2, order.size() - 13})
            compareOnWindow(*gpt, order, begin, begin + 12);
    }

    void offsetsIlpMatchesExactSearch() {
        for (unsigned seed = 1; seed <= 8; ++seed) {
            const AllocationProblem problem = randomProblem(seed, 10, seed % 2 ? 1 : 4);
            PlacementOptions o;
            o.timeLimitSeconds = 30;
            o.threads = 1;
            const PlacementResult exact = placeExact(problem, o);
            IlpOffsetsOptions io;
            io.timeLimitSeconds = 30;
            const IlpOffsetsResult ilp = solveOffsetsIlp(problem, io);
            QVERIFY(exact.provenOptimal);
            QVERIFY2(ilp.status == MipStatus::Optimal, ilp.note.c_str());
            QCOMPARE(ilp.arena, exact.arena);
            QCOMPARE(ilp.bound, exact.arena);
            QVERIFY(verifyLayout(problem, ilp.layout).empty());
        }
    }

    void offsetsIlpFromAGreedyStartProvesLoad() {
        // Started from greedy by size, the ILP proves LOAD (7 bytes at ticks 1 and 2) optimal and
        // never returns a layout above its start.
        const AllocationProblem problem = testing::problemOf({{0, 2, 2}, {1, 3, 4}, {2, 4, 2}, {0, 4, 1}});
        const PlacementResult greedy = placeGreedyBySize(problem, {});
        IlpOffsetsOptions io;
        io.start = greedy.layout;
        const IlpOffsetsResult ilp = solveOffsetsIlp(problem, io);
        QVERIFY(ilp.status == MipStatus::Optimal);
        QCOMPARE(ilp.arena, loadLowerBound(problem));
        QVERIFY(ilp.arena <= greedy.arena);
    }

    void tooLargeModelsAreRefusedWithTheStart() {
        const auto gpt = test::tinyGpt(2, 1);
        const OrderMemoryModel model(*gpt);
        const DependencyGraph graph = DependencyGraph::derive(*gpt);
        const auto order = programFirstTopologicalOrder(graph);
        IlpOrderOptions o;
        o.maxVariables = 100;
        const IlpOrderSolution s = solveOrderIlp(model, graph, model.initialState(), order, o);
        QVERIFY(s.status == MipStatus::NotRun);
        QCOMPARE(s.order, order);
        QVERIFY(s.note.find("not run") != std::string::npos);
        IlpOffsetsOptions io;
        io.maxPairs = 3;
        const IlpOffsetsResult r = solveOffsetsIlp(allocationProblemFromProfile(*gpt, order), io);
        QVERIFY(r.status == MipStatus::NotRun);
        QVERIFY(r.pairBinaries > 3);
    }

    void modelBaselinesStopAtTheirTimeLimitWithAValidAnswer() {
        // MODeL's whole-graph ILPs with 2 s: on a 30-kernel random graph (769 binaries) and on a
        // one-layer GPT's 173 buffers (9,178 pair binaries) CBC cannot finish, so the answer is
        // the best found, valid and flagged not proven. (CBC overruns the 2 s in its root LP.)
        const Profile graph = randomProfile(7, 30);
        OrderOptions o;
        o.modelTimeLimitSeconds = 2;
        const OrderResult model = orderOperators("model", graph, o);
        std::string why;
        QVERIFY2(isTopologicalOrder(DependencyGraph::derive(graph), model.order, &why), why.c_str());
        QVERIFY(!model.provenOptimal);
        QVERIFY2(model.solverStatus.find("time limit") != std::string::npos, model.solverStatus.c_str());
        QVERIFY(model.theoreticalPeak <= programOrder(graph).theoreticalPeak);
        QCOMPARE(model.leaves.size(), size_t(1));
        qInfo("MODeL order: %s", model.notes.c_str());

        const auto gpt = test::tinyGpt(1, 1);

        const AllocationProblem problem = allocationProblemFromProfile(*gpt, {});
        PlacementOptions po;
        po.timeLimitSeconds = 2;
        const PlacementResult placed = place("model", problem, po);
        QVERIFY(verifyLayout(problem, placed.layout).empty());
        QVERIFY(!placed.provenOptimal);
        QVERIFY2(placed.solverStatus.find("time limit") != std::string::npos, placed.note.c_str());
        QVERIFY(placed.arena <= placeGreedyBySize(problem, {}).arena);
        qInfo("MODeL layout: %s", placed.note.c_str());
    }

    void roamReportsEachLeafsSolvers() {
        const auto gpt = test::tinyGpt(2, 2);
        OrderOptions o;
        o.ilpLeaves = true;
        o.ilpSecondsPerLeaf = 0.3;  // CBC takes up to seconds per 16-kernel leaf; enough to prove some
        const OrderResult roam = roamOrder(*gpt, o);
        QVERIFY(!roam.leaves.empty());
        const LeafTally t = tallyLeaves(roam.leaves, "order");
        QCOMPARE(t.leaves, std::int64_t(roam.leaves.size()));
        QCOMPARE(t.ilpRan, t.leaves);
        QVERIFY(t.ilpProven > 0);
        for (const LeafReport& l : roam.leaves) {
            QVERIFY(l.branchAndBound.ran && l.ilp.ran);
            // Two proofs of one leaf's optimum must agree.
            if (l.branchAndBound.proven && l.ilp.proven) QCOMPARE(l.ilp.value, l.branchAndBound.value);
            QVERIFY(!l.kept.empty());
        }
        qInfo("%s", leafSummary(roam.leaves, "order").c_str());
        // Without the ILP the leaves are still reported, the ILP marked not run.
        const OrderResult bbOnly = roamOrder(*gpt);
        QVERIFY(!bbOnly.leaves.empty());
        QCOMPARE(tallyLeaves(bbOnly.leaves, "order").ilpRan, std::int64_t(0));
        QVERIFY(roam.theoreticalPeak <= bbOnly.theoreticalPeak);

        const AllocationProblem problem = allocationProblemFromProfile(*gpt, roam.order);
        PlacementOptions po;
        po.ilpLeaves = true;
        po.ilpSecondsPerLeaf = 2;
        for (const RoamSpan& s : roamSubgraphTree(*gpt, roam.order, problem).spans) po.roamSpans.emplace_back(s.begin, s.end);
        const PlacementResult layout = placeRoam(problem, po);
        QVERIFY(verifyLayout(problem, layout.layout).empty());
        QCOMPARE(layout.leaves.size(), po.roamSpans.size() + 1);
        for (const LeafReport& l : layout.leaves) {
            QCOMPARE(l.part, std::string("layout"));
            QVERIFY(l.branchAndBound.ran);
            if (l.ilp.ran) QVERIFY(l.ilp.value <= l.branchAndBound.value);  // started from B&B's layout
        }
        qInfo("%s", leafSummary(layout.leaves, "layout").c_str());
    }
};

QTEST_APPLESS_MAIN(TestLayoutIlp)
#include "tst_layout_ilp.moc"
