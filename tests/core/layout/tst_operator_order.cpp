// Operator ordering (core/layout/operator_order.h): the ROAM paper's Figure 2 worked by hand,
// the topological check, a lescea case worked by hand, roam's time-limit path, and roam never
// worse than the program order on the real profiles. Every order is checked with
// isTopologicalOrder and its peak against the allocation problem's LOAD bound.
#include "core/io/profile_loader.h"
#include "core/layout/allocation_problem.h"
#include "core/layout/execution_windows.h"
#include "core/layout/operator_order.h"
#include "core/layout/order_memory_model.h"
#include "core/layout/profile_allocation.h"
#include "core/trace/transformer_training_graph.h"

#include <QtTest>

#include <string>
#include <vector>

using namespace spillway;

namespace {

// A profile built kernel by kernel: tensors by name and size, kernels reading and writing them.
struct ProfileBuilder {
    Profile profile;
    TensorId tensor(const std::string& name, Bytes bytes, bool persistent = false) {
        Tensor t;
        t.id = TensorId(profile.tensors.size());
        t.name = name;
        t.bytes = bytes;
        t.persistent = persistent;
        profile.tensors.push_back(t);
        return t.id;
    }
    void kernel(const std::string& name, std::vector<TensorId> in, std::vector<TensorId> out,
                KernelPhase phase = KernelPhase::Forward) {
        Kernel k;
        k.id = KernelId(profile.kernels.size());
        k.name = name;
        k.inputs = std::move(in);
        k.outputs = std::move(out);
        k.phase = phase;
        k.duration = 1000;
        profile.kernels.push_back(k);
    }
};

// Figure 2: A feeds B (20 MiB) and C (40 MiB); B makes 60 MiB and C 10 MiB for D.
// A,B,C,D: at B 20+40+60 = 120 MiB. A,C,B,D: at C 20+40+10 = 70, at B 20+60+10 = 90 MiB.
Profile figure2Profile() {
    ProfileBuilder b;
    const auto toB = b.tensor("a->b", 20 * kMiB), toC = b.tensor("a->c", 40 * kMiB);
    const auto fromB = b.tensor("b->d", 60 * kMiB), fromC = b.tensor("c->d", 10 * kMiB);
    b.kernel("A", {}, {toB, toC});
    b.kernel("B", {toB}, {fromB});
    b.kernel("C", {toC}, {fromC});
    b.kernel("D", {fromB, fromC}, {});
    return b.profile;
}

// The GPT-2 generator at toy size: two layers, AdamW, `microBatches` accumulating gradients.
Profile smallTransformer(int microBatches) {
    TransformerConfig config;
    config.layers = 2;
    config.hidden = 64;
    config.heads = 4;
    config.sequence = 32;
    config.maxPositions = 32;
    config.vocab = 100;
    config.microBatches = microBatches;
    return transformerTrainingGraph(config);
}

void checkResult(const Profile& profile, const OrderResult& result) {
    std::string why;
    QVERIFY2(isTopologicalOrder(DependencyGraph::derive(profile), result.order, &why), why.c_str());
    QCOMPARE(result.theoreticalPeak, loadLowerBound(allocationProblemFromProfile(profile, result.order)));
    QCOMPARE(OrderMemoryModel(profile).peak(result.order), result.theoreticalPeak);
    QVERIFY(!result.segmentStarts.empty());
    QCOMPARE(result.segmentStarts.front(), std::int64_t(0));
}

}  // namespace

class TestOperatorOrder : public QObject {
    Q_OBJECT
private slots:
    void figure2() {
        const Profile p = figure2Profile();
        const OrderResult program = programOrder(p);
        checkResult(p, program);
        QCOMPARE(program.order, (std::vector<std::int64_t>{0, 1, 2, 3}));
        QCOMPARE(program.theoreticalPeak, 120 * kMiB);
        for (const OrderResult& r : {lesceaOrder(p), roamOrder(p)}) {
            checkResult(p, r);
            QCOMPARE(r.order, (std::vector<std::int64_t>{0, 2, 1, 3}));
            QCOMPARE(r.theoreticalPeak, 90 * kMiB);
        }
        QVERIFY(roamOrder(p).provenOptimal);
    }

    void executionWindowsCountTransitiveNeighbours() {
        // Figure 2: A before everything, D after everything, B and C free between them: B and C
        // may run at step 1 at the earliest and must by step 2.
        const Profile p = figure2Profile();
        const DependencyGraph graph = DependencyGraph::derive(p);
        const ExecutionWindows w = executionWindows(graph, programFirstTopologicalOrder(graph));
        QCOMPARE(w.earliest, (std::vector<std::int64_t>{0, 1, 1, 3}));
        QCOMPARE(w.latest, (std::vector<std::int64_t>{0, 2, 2, 3}));
        // A chain of 130 kernels (more than two 64-bit words of ancestors): each at its place.
        ProfileBuilder b;
        TensorId last = b.tensor("t0", kMiB);
        b.kernel("k0", {}, {last});
        for (int k = 1; k < 130; ++k) {
            const TensorId next = b.tensor("t" + std::to_string(k), kMiB);
            b.kernel("k" + std::to_string(k), {last}, {next});
            last = next;
        }
        const DependencyGraph chain = DependencyGraph::derive(b.profile);
        const ExecutionWindows c = executionWindows(chain, programFirstTopologicalOrder(chain));
        for (std::int64_t k = 0; k < 130; ++k) {
            QCOMPARE(c.earliest[size_t(k)], k);
            QCOMPARE(c.latest[size_t(k)], k);
        }
    }

    void bothActivationEstimatesGiveValidOrders() {
        // The scheduler's is_alive per operator (the paper's, the default) and per segment: both
        // orders valid and no worse than the program's on the small transformer with AdamW.
        const Profile profile = smallTransformer(1);
        OrderOptions perSegment;
        perSegment.activationLiveness = ActivationLiveness::Segment;
        QVERIFY(OrderOptions{}.activationLiveness == ActivationLiveness::Operator);
        for (const OrderOptions& o : {OrderOptions{}, perSegment}) {
            const OrderResult roam = roamOrder(profile, o);
            checkResult(profile, roam);
            QVERIFY(roam.theoreticalPeak <= programOrder(profile).theoreticalPeak);
        }
    }

    void topologicalCheckRejectsWithReason() {
        const DependencyGraph g = DependencyGraph::derive(figure2Profile());
        std::string why;
        QVERIFY(isTopologicalOrder(g, {0, 2, 1, 3}, &why));
        QVERIFY(!isTopologicalOrder(g, {1, 0, 2, 3}, &why));
        QVERIFY2(why.find("kernel position 1 (entry 0) runs before kernel position 0 (entry 1)") != std::string::npos,
                 why.c_str());
        QVERIFY(!isTopologicalOrder(g, {0, 1, 1, 3}, &why));
        QVERIFY2(why.find("appears twice") != std::string::npos, why.c_str());
        QVERIFY(!isTopologicalOrder(g, {0, 1, 2}, &why));
        QVERIFY2(why.find("3 kernels, the graph 4") != std::string::npos, why.c_str());
        QVERIFY(!isTopologicalOrder(g, {0, 1, 2, 9}, &why));
        QVERIFY2(why.find("not a kernel position") != std::string::npos, why.c_str());
    }

    void programOrderContradictingDataFlowThrows() {
        // B reads what C writes, but runs first: the profile's order is not a valid order.
        ProfileBuilder b;
        const auto x = b.tensor("x", kMiB), y = b.tensor("y", kMiB);
        b.kernel("A", {}, {x});
        b.kernel("B", {y}, {});
        b.kernel("C", {x}, {y});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, programOrder(b.profile));
        // lescea and roam still find a valid order (A, C, B).
        for (const OrderResult& r : {lesceaOrder(b.profile), roamOrder(b.profile)}) {
            checkResult(b.profile, r);
            QCOMPARE(r.order, (std::vector<std::int64_t>{0, 2, 1}));
        }
    }

    void lesceaByHand() {
        // S makes inputs for X (30), Y (10), Z (20). X: frees 30, makes 10 (-20). Y: frees 10,
        // makes 40 (+30). Z: frees 20, makes 20 (0). The sink reads the three outputs.
        // Greedy: S, X (-20), Z (0), Y (+30), sink. Memory: S 60, X 70, Z 60, Y 80, sink 70.
        ProfileBuilder b;
        const auto inX = b.tensor("inX", 30 * kMiB), inY = b.tensor("inY", 10 * kMiB), inZ = b.tensor("inZ", 20 * kMiB);
        const auto outX = b.tensor("outX", 10 * kMiB), outY = b.tensor("outY", 40 * kMiB),
                   outZ = b.tensor("outZ", 20 * kMiB);
        b.kernel("S", {}, {inX, inY, inZ});
        b.kernel("Y", {inY}, {outY});
        b.kernel("Z", {inZ}, {outZ});
        b.kernel("X", {inX}, {outX});
        b.kernel("sink", {outX, outY, outZ}, {});
        const OrderResult r = lesceaOrder(b.profile);
        checkResult(b.profile, r);
        QCOMPARE(r.order, (std::vector<std::int64_t>{0, 3, 2, 1, 4}));
        QCOMPARE(r.theoreticalPeak, 80 * kMiB);
        // Program order S, Y, Z, X: at Y 60+40 = 100, then 90 live; at Z 90+20 = 110.
        QCOMPARE(programOrder(b.profile).theoreticalPeak, 110 * kMiB);
    }

    void persistentAndWorkspaceCount() {
        // A weight (persistent, 1 MiB + 1 byte -> rounded to 512 B) is live throughout; a
        // workspace only in its kernel.
        ProfileBuilder b;
        const auto w = b.tensor("w", kMiB + 1, true), x = b.tensor("x", 2 * kMiB);
        b.kernel("A", {w}, {x});
        b.kernel("B", {x}, {});
        b.profile.kernels[1].workspaceBytes = 3 * kMiB;
        const OrderResult r = roamOrder(b.profile);
        checkResult(b.profile, r);
        QCOMPARE(r.theoreticalPeak, kMiB + 512 + 2 * kMiB + 3 * kMiB);
    }

    void roamTimeLimitReturnsValidUnprovenOrder() {
        // One source feeding 14 independent kernels, each trading its input for an output of a
        // different size, all read by one sink: 14 free kernels in one segment, where lescea's
        // order peaks above the lower bound (sum of inputs = sum of outputs = 105 MiB). With no time
        // to search, roam keeps its starting order, valid but not proven optimal.
        ProfileBuilder b;
        std::vector<TensorId> ins, outs;
        for (int i = 0; i < 14; ++i) {
            ins.push_back(b.tensor("in" + std::to_string(i), Bytes(1 + (i * 3) % 14) * kMiB));
            outs.push_back(b.tensor("out" + std::to_string(i), Bytes(1 + (i * 5) % 14) * kMiB));
        }
        b.kernel("source", {}, ins);
        for (int i = 0; i < 14; ++i) b.kernel("k" + std::to_string(i), {ins[i]}, {outs[i]});
        b.kernel("sink", outs, {});
        OrderOptions none;
        none.timeLimitSecondsPerSegment = 0;
        const OrderResult quick = roamOrder(b.profile, none);
        checkResult(b.profile, quick);
        QVERIFY(!quick.provenOptimal);
        QVERIFY(quick.theoreticalPeak <= programOrder(b.profile).theoreticalPeak);
        // With time, the search finishes: proven, and no worse than the quick answer.
        const OrderResult full = roamOrder(b.profile);
        checkResult(b.profile, full);
        QVERIFY(full.provenOptimal);
        QVERIFY(full.theoreticalPeak <= quick.theoreticalPeak);
        QVERIFY(full.theoreticalPeak <= lesceaOrder(b.profile).theoreticalPeak);
    }

    void badOptionsAreRejected() {
        OrderOptions bad;
        bad.nodeLimit = 65;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, roamOrder(figure2Profile(), bad));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, orderOperators("fifo", figure2Profile()));
    }

    void roamNeverWorseThanProgramOnRealProfiles_data() {
        QTest::addColumn<QString>("path");
        QTest::newRow("G10 BERT-256") << QString(SPILLWAY_SHARED_DATA "/g10/derived/BERT_Base_256");
        QTest::newRow("G10 ViT-1280") << QString(SPILLWAY_SHARED_DATA "/g10/derived/VIT_1280");
        QTest::newRow("torch ResNet-18") << QString(SPILLWAY_SOURCE_DIR "/samples/torch/resnet18-b2-cpu.profile.json");
        QTest::newRow("torch ViT-B/16") << QString(SPILLWAY_SOURCE_DIR "/samples/torch/vit_b_16-b1-cpu.profile.json");
    }
    void roamNeverWorseThanProgramOnRealProfiles() {
        QFETCH(QString, path);
        const Profile profile = loadProfile(path.toStdString());
        const OrderResult program = programOrder(profile);
        OrderOptions options;
        options.timeLimitSecondsPerSegment = 0.2;  // keeps the suite fast; the benchmark uses the default
        const OrderResult roam = roamOrder(profile, options);
        const OrderResult lescea = lesceaOrder(profile);
        checkResult(profile, program);
        checkResult(profile, roam);
        checkResult(profile, lescea);
        QVERIFY(roam.theoreticalPeak <= program.theoreticalPeak);
        QVERIFY(roam.theoreticalPeak <= lescea.theoreticalPeak);
        // Persistent tensors alone are a floor no order goes below.
        QVERIFY(roam.theoreticalPeak >= OrderMemoryModel(profile).persistentBytes());
    }

    void roamOnASmallTransformerWithAdamW() {
        // The GPT-2 generator at toy size (the full GPT-2 XL run is in bench_layout_order): two
        // micro-batches accumulating gradients, AdamW with clipping. roam must stay valid and
        // no worse than either baseline; every weight-update kernel is set aside and scheduled.
        const Profile profile = smallTransformer(2);
        const OrderResult program = programOrder(profile), lescea = lesceaOrder(profile), roam = roamOrder(profile);
        checkResult(profile, program);
        checkResult(profile, lescea);
        checkResult(profile, roam);
        QVERIFY(roam.theoreticalPeak <= program.theoreticalPeak);
        QVERIFY(roam.theoreticalPeak <= lescea.theoreticalPeak);
        std::int64_t scheduled = 0;
        for (auto& s : roam.segments) scheduled += s.weightUpdates;
        std::int64_t optimizerKernels = 0;
        for (auto& k : profile.kernels) optimizerKernels += k.phase == KernelPhase::Optimizer;
        if (roam.notes.find("is returned") == std::string::npos) QCOMPARE(scheduled, optimizerKernels);
    }
};

QTEST_APPLESS_MAIN(TestOperatorOrder)
#include "tst_operator_order.moc"
