// The kernel dependency graph derived from tensors, on hand-made profiles whose edges are worked
// out by hand: plain producer -> consumer edges, tensors written more than once (in-place
// accumulation, a reused buffer), persistent tensors left out, and real cycles.
#include "core/trace/dependency_graph.h"
#include "../analysis/small_training_step.h"

#include <QtTest>

using namespace spillway;

namespace {
using Edges = std::vector<std::vector<std::int32_t>>;

Edges successorsOf(const DependencyGraph& g) {
    Edges out;
    for (size_t k = 0; k < g.size(); ++k) out.push_back(g.successors(k));
    return out;
}

// Builds a profile of `kernels` (inputs, outputs) over tensors 1..tensorCount of 8 bytes each.
Profile chain(int tensorCount, const std::vector<std::pair<std::vector<TensorId>, std::vector<TensorId>>>& kernels,
              std::vector<TensorId> persistent = {}) {
    Profile p;
    for (int id = 1; id <= tensorCount; ++id) {
        Tensor t;
        t.id = id;
        t.bytes = 8;
        t.persistent = std::find(persistent.begin(), persistent.end(), id) != persistent.end();
        p.tensors.push_back(t);
    }
    for (size_t k = 0; k < kernels.size(); ++k) {
        Kernel kernel;
        kernel.id = static_cast<KernelId>(k);
        kernel.duration = 1;
        kernel.inputs = kernels[k].first;
        kernel.outputs = kernels[k].second;
        p.kernels.push_back(kernel);
    }
    return p;
}
}  // namespace

class TestDependencyGraph : public QObject {
    Q_OBJECT
private slots:
    void smallTrainingStep() {
        // From small_training_step.h, non-persistent tensors only (W, S, E are left out):
        //   A: written 0, read 1 and 3       -> 0->1, 0->3
        //   B: written 1, read 2             -> 1->2
        //   L: written 2, read 3             -> 2->3
        //   G: written 3, read 4             -> 3->4
        //   T: written 0, read 1, rewritten 3 -> 0->1; 1->3 (the rewrite waits for the reader)
        //      and 0->3 (write after write)
        //   X: read 0, written by nobody      -> nothing
        const auto g = DependencyGraph::derive(testing::smallTrainingStep());
        QCOMPARE(g.size(), size_t(5));
        QCOMPARE(successorsOf(g), (Edges{{1, 3}, {2, 3}, {3}, {4}, {}}));
        QCOMPARE(g.predecessors(3), (std::vector<std::int32_t>{0, 1, 2}));
        QCOMPARE(g.predecessors(0), std::vector<std::int32_t>{});
        // T rewritten after its read is not a cycle (linking every writer to every reader
        // would give 1 -> 2 -> 3 -> 1).
        QVERIFY(g.findCycle().empty());
    }

    void inPlaceAccumulation() {
        // k0 writes G (1); k1 reads G, writes H (2); k2 reads G and H and accumulates into G;
        // k3 reads G. Reads see the latest earlier write:
        //   G: 0->1, 0->2 (k2 reads k0's version), 2->3 (k3 reads k2's); the rewrite at 2
        //      waits for reader 1 (1->2) and writer 0 (0->2).
        //   H: 1->2.
        const auto p = chain(2, {{{}, {1}}, {{1}, {2}}, {{1, 2}, {1}}, {{1}, {}}});
        const auto g = DependencyGraph::derive(p);
        QCOMPARE(successorsOf(g), (Edges{{1, 2}, {2}, {3}, {}}));
        QVERIFY(g.findCycle().empty());
    }

    void persistentTensorsAreLeftOut() {
        // The weight (1) is read by k0 and updated by k1; the update feeds the next iteration.
        const auto p = chain(1, {{{1}, {}}, {{1}, {1}}}, {1});
        QCOMPARE(successorsOf(DependencyGraph::derive(p)), (Edges{{}, {}}));
    }

    void readBeforeWriteLinksToTheFirstWriter() {
        // k0 reads 1, which only k1 writes: the data flow says k1 before k0; no cycle, a
        // reordering can fix the order.
        const auto g = DependencyGraph::derive(chain(1, {{{1}, {}}, {{}, {1}}}));
        QCOMPARE(successorsOf(g), (Edges{{}, {0}}));
        QVERIFY(g.findCycle().empty());
    }

    void dataFlowBothWaysIsACycle() {
        // k0 reads 2 and writes 1; k1 reads 1 and writes 2: each needs the other first.
        const auto g = DependencyGraph::derive(chain(2, {{{2}, {1}}, {{1}, {2}}}));
        QCOMPARE(successorsOf(g), (Edges{{1}, {0}}));
        QCOMPARE(g.findCycle(), (std::vector<std::int32_t>{0, 1}));
    }

    void longerCycleIsReportedInEdgeOrder() {
        // k0 reads 3 writes 1; k1 reads 1 writes 2; k2 reads 2 writes 3: 0 -> 1 -> 2 -> 0.
        const auto g = DependencyGraph::derive(chain(3, {{{3}, {1}}, {{1}, {2}}, {{2}, {3}}}));
        QCOMPARE(g.findCycle(), (std::vector<std::int32_t>{0, 1, 2}));
    }

    void unknownIdsAndEmptyProfile() {
        const auto g = DependencyGraph::derive(chain(1, {{{}, {1, 99}}, {{1, 98}, {}}}));
        QCOMPARE(successorsOf(g), (Edges{{1}, {}}));
        const auto empty = DependencyGraph::derive(Profile{});
        QCOMPARE(empty.size(), size_t(0));
        QVERIFY(empty.findCycle().empty());
    }
};

QTEST_GUILESS_MAIN(TestDependencyGraph)
#include "tst_dependency_graph.moc"
