// ROAM's subgraph tree and layout (roam_subgraph_tree.h, placement_roam.cpp) on a training graph
// small enough to work out by hand, in program order - where no ordering method handed over any
// segments - and the roam layout below 1% fragmentation on the torch ResNet-18 profile in
// program and lescea order. Every layout goes through verifyLayout.
#include "core/io/profile_loader.h"
#include "core/layout/layout_verifier.h"
#include "core/layout/operator_order.h"
#include "core/layout/placement.h"
#include "core/layout/profile_allocation.h"
#include "core/layout/roam_subgraph_tree.h"
#include "layout_test_support.h"

#include <QtTest>

#include <filesystem>

using namespace spillway;
using Spans = std::vector<std::pair<std::int64_t, std::int64_t>>;

namespace {

TensorId addTensor(Profile& p, const char* name, Bytes bytes) {
    Tensor t;
    t.id = TensorId(p.tensors.size());
    t.name = name;
    t.bytes = bytes;
    p.tensors.push_back(t);
    return t.id;
}
void addKernel(Profile& p, const char* name, std::vector<TensorId> in, std::vector<TensorId> out, KernelPhase phase) {
    Kernel k;
    k.id = KernelId(p.kernels.size());
    k.name = name;
    k.inputs = std::move(in);
    k.outputs = std::move(out);
    k.phase = phase;
    k.duration = 1000;
    p.kernels.push_back(k);
}

// Two layers, trained. Ticks (program order) and tensors in MiB:
//   0 load  -> x 2                       (a source: set aside, never a cut)
//   1 f1    x -> a1 8 (saved), h1 2
//   2 f2    h1 -> a2 8 (saved), h2 2
//   3 loss  h2 -> g2 2
//   4 b2    g2, a2 -> g1 2
//   5 b1    g1, a1 -> g0 2
//   6 b0    g0                           (reads, writes nothing: a tail, never a cut)
// Main chain f1, f2, loss, b2, b1: every one is memory-insensitive. Lifetimes [first, last]:
// x [0,1], a1 [1,5], h1 [1,2], a2 [2,4], h2 [2,3], g2 [3,4], g1 [4,5], g0 [5,6].
// Live per tick: 2, 12, 20, 20, 20, 12, 2: the theoretical peak is 20 MiB.
Profile twoLayerTraining() {
    Profile p;
    const auto x = addTensor(p, "x", 2 * kMiB), a1 = addTensor(p, "a1", 8 * kMiB), h1 = addTensor(p, "h1", 2 * kMiB);
    const auto a2 = addTensor(p, "a2", 8 * kMiB), h2 = addTensor(p, "h2", 2 * kMiB), g2 = addTensor(p, "g2", 2 * kMiB);
    const auto g1 = addTensor(p, "g1", 2 * kMiB), g0 = addTensor(p, "g0", 2 * kMiB);
    addKernel(p, "load", {}, {x}, KernelPhase::Forward);
    addKernel(p, "f1", {x}, {a1, h1}, KernelPhase::Forward);
    addKernel(p, "f2", {h1}, {a2, h2}, KernelPhase::Forward);
    addKernel(p, "loss", {h2}, {g2}, KernelPhase::Loss);
    addKernel(p, "b2", {g2, a2}, {g1}, KernelPhase::Backward);
    addKernel(p, "b1", {g1, a1}, {g0}, KernelPhase::Backward);
    addKernel(p, "b0", {g0}, {}, KernelPhase::Backward);
    return p;
}

Spans spansOf(const RoamSubgraphTree& tree) {
    Spans out;
    for (const auto& s : tree.spans) out.emplace_back(s.begin, s.end);
    return out;
}

bool valid(const AllocationProblem& p, const PlacementResult& r) {
    const auto v = verifyLayout(p, r.layout);
    if (!v.empty()) qWarning("%s: %s", r.method.c_str(), v.front().message.c_str());
    return v.empty() && r.arena == arenaBytes(p, r.layout);
}

}  // namespace

class TestPlacementRoam : public QObject {
    Q_OBJECT
private slots:
    void forwardBackwardPairing() {
        // The turn is tick 3 (loss); forward cuts f1 (1), f2 (2); backward cuts loss (3), b2 (4),
        // b1 (5). Innermost: from f2, the tensors created at ticks 2.. (a2, h2, then g2) are last
        // used at 4, so the span closes after b2: [2, 5) pairs f2 with b2. Next: from f1, a1 is
        // last used at 5 (b1): [1, 6) pairs f1 with b1, and nothing created before tick 1 but x
        // (last used by f1 itself) is freed inside. The root (all 7 ticks) is not listed.
        const Profile profile = twoLayerTraining();
        const AllocationProblem problem = allocationProblemFromProfile(profile, {});
        const RoamSubgraphTree tree = roamSubgraphTree(profile, {}, problem);
        QCOMPARE(tree.turn, std::int64_t(3));
        QCOMPARE(tree.forwardCuts, std::int64_t(2));
        QCOMPARE(tree.backwardCuts, std::int64_t(3));
        QCOMPARE(spansOf(tree), (Spans{{2, 5}, {1, 6}}));
        QVERIFY(tree.spans[0].independent && tree.spans[1].independent);
        // The roam order keeps this chain (nothing to reorder) and reports the same tree.
        const OrderResult roam = roamOrder(profile);
        QCOMPARE(roam.order, (std::vector<std::int64_t>{0, 1, 2, 3, 4, 5, 6}));
        QCOMPARE(roam.subgraphSpans, (Spans{{2, 5}, {1, 6}}));
    }

    void anOuterTensorFreedInsideBreaksThePair() {
        // b2 also reads x (created at tick 0, now last used at 4). The inner pair [2, 5) still
        // closes: x is freed by b2, its backward boundary kernel, which is allowed. The outer
        // pair [1, 6) does not: x, created before f1, would be freed inside it; there is no
        // later backward cut to widen to, so the tree has the inner pair only.
        Profile profile = twoLayerTraining();
        profile.kernels[4].inputs.push_back(0);
        const AllocationProblem problem = allocationProblemFromProfile(profile, {});
        QCOMPARE(spansOf(roamSubgraphTree(profile, {}, problem)), (Spans{{2, 5}}));
    }

    void programOrderLayoutReachesTheTheoreticalPeak() {
        // Leaves, innermost first: [2,5) holds a2, h2, g2 (12 MiB high at tick 3); [1,6) holds
        // a1, h1, g1 and that 12 MiB block over ticks 2-4 (22 MiB at tick 2); the root holds x,
        // g0 and a 22 MiB block over 1-5 (24 MiB). Concatenated: 24 MiB, 4 above the peak, as
        // the blocks reserve their highest point over their whole span. Compaction, in offset
        // order: a1 0, a2 8, h2 16, g2 18; h1 (ticks 1-2) drops to 18 (g2 starts at 3); g1
        // (4-5) to 16 (h2 ended at 3); x (0-1) and g0 (5-6) to 8 (a2 is not live then): 20 MiB,
        // the theoretical peak, with no fragmentation.
        const Profile profile = twoLayerTraining();
        const AllocationProblem problem = allocationProblemFromProfile(profile, {});
        QCOMPARE(loadLowerBound(problem), 20 * kMiB);
        PlacementOptions options;
        options.roamSpans = spansOf(roamSubgraphTree(profile, {}, problem));
        const PlacementResult r = placeRoam(problem, options);
        QVERIFY(valid(problem, r));
        QCOMPARE(r.arena, 20 * kMiB);
        QVERIFY2(r.note.find("3 leaves (2 nested spans)") != std::string::npos, r.note.c_str());
        QVERIFY2(r.note.find(fmt::format("concatenated {} bytes", 24 * kMiB)) != std::string::npos, r.note.c_str());
        QVERIFY2(r.note.find("is returned") == std::string::npos, r.note.c_str());  // not the flat fallback
    }

    void spansMustNest() {
        const auto p = spillway::testing::problemOf({{0, 4, 2}, {1, 3, 1}});
        PlacementOptions o;
        o.roamSpans = {{1, 3}, {2, 4}};  // the second does not hold the first
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, placeRoam(p, o));
        o.roamSpans = {{2, 2}};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, placeRoam(p, o));
    }

    void resnet18BelowOnePercentInEveryOrder_data() {
        QTest::addColumn<QString>("order");
        QTest::newRow("program") << "program";
        QTest::newRow("lescea") << "lescea";
    }
    void resnet18BelowOnePercentInEveryOrder() {
        // The bar: roam layout fragmentation below 1% whatever the order. ResNet-18 in
        // program order was 1.58% before the subgraph tree was derived from the order itself.
        QFETCH(QString, order);
        const std::string path = SPILLWAY_SOURCE_DIR "/samples/torch/resnet18-b2-cpu.profile.json";
        const Profile profile = loadProfile(path);
        const OrderResult o = orderOperators(order.toStdString(), profile);
        const AllocationProblem problem = allocationProblemFromProfile(profile, o.order);
        PlacementOptions options;
        options.timeLimitSeconds = 2;
        options.roamSpans = spansOf(roamSubgraphTree(profile, o.order, problem));
        const PlacementResult r = placeRoam(problem, options);
        QVERIFY(valid(problem, r));
        const double fragmentation = double(r.arena - r.lowerBound) / double(r.arena);
        QVERIFY2(fragmentation < 0.01, qPrintable(QString("%1%: %2").arg(100 * fragmentation).arg(r.note.c_str())));
    }
};

QTEST_GUILESS_MAIN(TestPlacementRoam)
#include "tst_placement_roam.moc"
