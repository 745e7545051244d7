// The UVM Discard paper's workloads as generated profiles (core/trace: fir_filter_graph,
// radix_sort_graph, hash_join_graph, darknet_training_graph): sized at the oversubscription ratio
// asked for, deterministic, valid, and with the short-lived buffers dying where each algorithm
// says (section 7.2-7.5) - which is what the discard modifier reads.
#include "core/analysis/liveness.h"
#include "core/trace/darknet_training_graph.h"
#include "core/trace/discard_benchmark_size.h"
#include "core/trace/discard_gpus.h"
#include "core/trace/fir_filter_graph.h"
#include "core/trace/hash_join_graph.h"
#include "core/trace/radix_sort_graph.h"
#include "core/trace/validate.h"

#include <QtTest>

#include <set>
#include <stdexcept>
#include <string>

using namespace spillway;

namespace {

GpuRoofline gpu() { return findDiscardGpu("rtx3080ti")->roofline; }
const Bytes kCard = 12052 * kMiB;

std::int64_t kernelAt(const Profile& p, const std::string& name) {
    for (size_t k = 0; k < p.kernels.size(); ++k)
        if (p.kernels[k].name == name) return std::int64_t(k);
    return -2;
}

const TensorLiveness& liveOf(const Profile& p, const Liveness& l, const std::string& name) {
    for (size_t t = 0; t < p.tensors.size(); ++t)
        if (p.tensors[t].name == name) return l.tensors[t];
    throw std::runtime_error("no tensor " + name);
}

bool valid(const Profile& p) {
    const auto problems = validateProfile(p);
    for (const auto& problem : problems) qWarning("%s: %s", problem.pointer.c_str(), problem.message.c_str());
    return problems.empty();
}

}  // namespace

class TestDiscardWorkloads : public QObject {
    Q_OBJECT
private slots:
    void footprintIsTheRatioOfTheGpu() {
        QCOMPARE(oversubscribedFootprint(kCard, 2.0), 2 * kCard);
        QCOMPARE(oversubscribedFootprint(kCard, 0.5), kCard / 2);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, oversubscribedFootprint(kCard, 0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, oversubscribedFootprint(kCard, -1));
        for (double ratio : {0.9, 2.0, 3.0, 4.0}) {
            const Bytes target = oversubscribedFootprint(kCard, ratio);
            const Profile fir = firFilterGraph({target, 64 * kMiB, 16, gpu()});
            const Profile radix = radixSortGraph({target, 64 * kMiB, 4, gpu()});
            const Profile join = hashJoinGraph({target, 64 * kMiB, gpu()});
            // Whole windows, chunks and partitions: at most one step short of the target.
            QVERIFY(fir.totalTensorBytes() <= target && fir.totalTensorBytes() > target - 2 * 64 * kMiB - 2 * kMiB);
            QVERIFY(radix.totalTensorBytes() <= target && radix.totalTensorBytes() > target - 2 * 64 * kMiB);
            QVERIFY(join.totalTensorBytes() <= target &&
                    join.totalTensorBytes() > target - hashJoinBytesPerPartition(64 * kMiB));
            QVERIFY(valid(fir) && valid(radix) && valid(join));
        }
    }

    void firInputWindowsDieAfterTheirKernel() {
        const Profile p = firFilterGraph({oversubscribedFootprint(kCard, 2.0), 64 * kMiB, 16, gpu()});
        const Liveness l = computeLiveness(p);
        const auto& in = liveOf(p, l, "input[7]");
        QVERIFY(!in.persistent);
        QCOMPARE(in.firstUse, kernelAt(p, "fir[7]"));
        QCOMPARE(in.lastUse, kernelAt(p, "fir[7]"));
        QVERIFY(liveOf(p, l, "output[7]").persistent);  // the result: the host keeps it
        QVERIFY(liveOf(p, l, "coefficients").persistent);
    }

    void radixTemporaryDiesAfterTheReorder() {
        const Profile p = radixSortGraph({oversubscribedFootprint(kCard, 2.0), 64 * kMiB, 4, gpu()});
        const Liveness l = computeLiveness(p);
        const auto& temp = liveOf(p, l, "temp[3]");
        QVERIFY(!temp.persistent);
        QCOMPARE(temp.producer, kernelAt(p, "local_sort[3]"));
        QCOMPARE(temp.lastUse, kernelAt(p, "reorder[3]"));
        QVERIFY(liveOf(p, l, "data[3]").persistent);  // read again by the next pass
        // The reorder writes every data chunk exactly once (a permutation: a scatter over the array).
        std::multiset<TensorId> written;
        for (const auto& k : p.kernels)
            if (k.op == "radix_reorder") written.insert(k.outputs.begin(), k.outputs.end());
        std::set<TensorId> distinct(written.begin(), written.end());
        QCOMPARE(distinct.size(), written.size());
        QCOMPARE(std::int64_t(written.size()), std::stoll(p.metadata.notes.at("radix_sort.chunks")));
    }

    void hashJoinIntermediatesDieAfterPreprocessing() {
        const Profile p = hashJoinGraph({oversubscribedFootprint(kCard, 2.0), 64 * kMiB, gpu()});
        const Liveness l = computeLiveness(p);
        QCOMPARE(liveOf(p, l, "R.scatter[2]").lastUse, kernelAt(p, "R.compact[2]"));
        QCOMPARE(liveOf(p, l, "S.hist[2]").lastUse, kernelAt(p, "S.scatter[2]"));
        QCOMPARE(liveOf(p, l, "R.partitioned[2]").lastUse, kernelAt(p, "join[2]"));
        QCOMPARE(liveOf(p, l, "S.partitioned[2]").lastUse, kernelAt(p, "join[2]"));
        const auto& result = liveOf(p, l, "result[2]");
        QCOMPARE(result.lastRead, std::int64_t(-1));  // nothing reads the result: it is discarded
        QVERIFY(liveOf(p, l, "R[2]").persistent && liveOf(p, l, "S[2]").persistent);
    }

    void tooSmallOrBadSizesAreRefused() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, firFilterGraph({64 * kMiB, 64 * kMiB, 16, gpu()}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, firFilterGraph({kCard, 3 * kMiB, 16, gpu()}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, radixSortGraph({kCard, 64 * kMiB, 0, gpu()}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, hashJoinGraph({100 * kMiB, 64 * kMiB, gpu()}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, darknetTrainingGraph(darknet19(), {0, gpu()}));
        GpuRoofline broken = gpu();
        broken.memoryBandwidth = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, firFilterGraph({kCard, 64 * kMiB, 16, broken}));
    }

    void darknetNetworksHaveTheirParameters() {
        // torchvision's VGG-16 has 138,357,544 parameters; Darknet's cfg the same layers.
        QCOMPARE(darknetParameterCount(darknetVgg16()), std::int64_t(138'357'544));
        // Darknet-19 and Darknet-53 classifiers: about 20.8 M and 41.6 M.
        QVERIFY(std::abs(darknetParameterCount(darknet19()) - 20'800'000) < 200'000);
        QVERIFY(std::abs(darknetParameterCount(darknet53()) - 41'600'000) < 200'000);
        QCOMPARE(findDarknetNetwork("resnet53"), &darknet53());
        QVERIFY(findDarknetNetwork("resnet50") == nullptr);
    }

    void darknetBuffersDieAfterBackward() {
        for (const DarknetNetwork* net : {&darknetVgg16(), &darknet19(), &darknet53()}) {
            const Profile p = darknetTrainingGraph(*net, {8, gpu()});
            QVERIFY(valid(p));
            QVERIFY(p == darknetTrainingGraph(*net, {8, gpu()}));  // deterministic
            const Liveness l = computeLiveness(p);
            std::int64_t perLayer = 0;
            for (size_t t = 0; t < p.tensors.size(); ++t) {
                if (p.tensors[t].persistent || p.tensors[t].name.rfind("layer", 0) != 0) continue;
                ++perLayer;
                const auto& live = l.tensors[t];
                // Written in the forward pass (a delta zeroed there).
                const auto first = p.kernels[size_t(live.firstUse)].phase;
                QVERIFY2(first == KernelPhase::Forward || first == KernelPhase::Loss, p.tensors[t].name.c_str());
                // Dead before the update; a delta after the backward kernel that reads it last (an
                // output only the next forward layer reads, as before an average pool, dies there).
                const auto last = p.kernels[size_t(live.lastUse)].phase;
                QVERIFY2(last != KernelPhase::Optimizer, p.tensors[t].name.c_str());
                if (p.tensors[t].kind == TensorKind::Gradient)
                    QVERIFY2(last == KernelPhase::Backward || last == KernelPhase::Loss, p.tensors[t].name.c_str());
            }
            QVERIFY(perLayer >= 2 * std::int64_t(net->layers.size()));
        }
    }

    void darknetFootprintsAreThePapers() {
        // Section 7.5's allocations: Darknet-19 11.2 GB at batch 171, ResNet-53 10.8 GB at 56,
        // VGG-16 12.0 GB at 75. Within 12%: the buffers are Darknet's, per layer.
        struct Row { const DarknetNetwork* net; std::int64_t batch; double gb; };
        for (const Row& r : {Row{&darknet19(), 171, 11.2}, Row{&darknet53(), 56, 10.8}, Row{&darknetVgg16(), 75, 12.0}}) {
            const double ours = double(darknetTrainingGraph(*r.net, {r.batch, gpu()}).totalTensorBytes()) / 1e9;
            qInfo("%s batch %lld: %.2f GB (paper %.1f GB)", r.net->id.c_str(), static_cast<long long>(r.batch), ours, r.gb);
            QVERIFY2(std::abs(ours / r.gb - 1) < 0.12, r.net->id.c_str());
        }
    }
};

QTEST_APPLESS_MAIN(TestDiscardWorkloads)
#include "tst_discard_workloads.moc"
