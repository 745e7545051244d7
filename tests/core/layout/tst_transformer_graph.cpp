// The generated GPT-2-style training step: counts and sizes worked out by hand from the model's
// shapes (GPT-2 XL has 1,557,611,200 parameters, as Hugging Face's gpt2-xl reports), a valid
// profile with an acyclic dependency graph, and bad configurations rejected by name.
#include "core/layout/profile_allocation.h"
#include "core/trace/dependency_graph.h"
#include "core/trace/transformer_training_graph.h"
#include "core/trace/validate.h"

#include <QtTest>

#include <map>

using namespace spillway;

namespace {
const Tensor* findTensor(const Profile& p, const std::string& name) {
    for (const Tensor& t : p.tensors)
        if (t.name == name) return &t;
    return nullptr;
}
const Kernel* findKernel(const Profile& p, const std::string& name) {
    for (const Kernel& k : p.kernels)
        if (k.name == name) return &k;
    return nullptr;
}
}  // namespace

class TestTransformerGraph : public QObject {
    Q_OBJECT
private slots:
    void gpt2XlCountsAndSizes() {
        const TransformerConfig c;  // GPT-2 XL defaults
        // 48 (12 * 1600^2 + 13 * 1600) + 50257 * 1600 + 1024 * 1600 + 2 * 1600
        //   = 1,475,558,400 + 80,411,200 + 1,638,400 + 3,200
        QCOMPARE(transformerParameterCount(c), std::int64_t(1'557'611'200));
        // 4 micro-batches of (47 * 48 + 15) = 2271 kernels, then 10 * (12 * 48 + 4) + 1 = 5801.
        QCOMPARE(transformerKernelCount(c), std::int64_t(4 * 2271 + 5801));
        const Profile p = transformerTrainingGraph(c);
        QCOMPARE(std::int64_t(p.kernels.size()), std::int64_t(14'885));
        QVERIFY(p.kernels.size() >= 10'000);

        Bytes weights = 0, adamStates = 0, grads = 0;
        int persistentGrads = 0;
        for (const Tensor& t : p.tensors) {
            if (t.kind == TensorKind::Weight) {
                QVERIFY(t.persistent);
                weights += t.bytes;
            }
            if (t.kind == TensorKind::OptimizerState) adamStates += t.bytes;
            if (t.name.ends_with(".grad") && !t.name.starts_with("mb")) {
                grads += t.bytes;
                persistentGrads += t.persistent;
            }
        }
        QCOMPARE(weights, Bytes(4) * 1'557'611'200);     // fp32
        QCOMPARE(adamStates, 2 * weights);               // exp_avg and exp_avg_sq
        QCOMPARE(grads, weights);                        // one gradient per parameter
        QCOMPARE(persistentGrads, 0);                    // freed after the step (set_to_none)

        // Shapes: qkv (1, 1024, 4800) fp32; attention scores (1, 25, 1024, 1024) fp32; logits (1024, 50257).
        QCOMPARE(findTensor(p, "mb0.h0.attn.qkv")->bytes, Bytes(1024) * 4800 * 4);
        QCOMPARE(findTensor(p, "mb1.h47.attn.probs")->bytes, Bytes(25) * 1024 * 1024 * 4);
        QCOMPARE(findTensor(p, "mb0.h3.attn.dropout_mask")->bytes, Bytes(25) * 1024 * 1024);
        QCOMPARE(findTensor(p, "mb0.lm_head.logits")->bytes, Bytes(1024) * 50257 * 4);
        QCOMPARE(findTensor(p, "h5.mlp.c_fc.weight")->bytes, Bytes(1600) * 6400 * 4);

        // Durations from FLOPs at 19.5 TFLOP/s: qkv is 2 * 1024 * 1600 * 4800 = 15.73 GFLOP -> 806.6 us;
        // a GELU over 1024 * 6400 floats moves 2 * 26,214,400 B at 1.555 TB/s -> 33,716.3 ns.
        QCOMPARE(findKernel(p, "mb0.h0.attn.c_attn")->duration, Nanoseconds(806'597));
        QCOMPARE(findKernel(p, "mb0.h0.mlp.act")->duration, Nanoseconds(33'717));

        QVERIFY(validateProfile(p).empty());
        QVERIFY(DependencyGraph::derive(p).findCycle().empty());

        // Large allocation problem for the layout planners: 10,000 to 30,000 buffers.
        const AllocationProblem problem = allocationProblemFromProfile(p, {});
        QVERIFY(problem.buffers.size() >= 10'000 && problem.buffers.size() <= 30'000);
    }

    void smallModelPhasesAndDependencies() {
        TransformerConfig c;
        c.layers = 2;
        c.hidden = 64;
        c.heads = 4;
        c.sequence = 16;
        c.maxPositions = 32;
        c.vocab = 100;
        c.batch = 2;
        c.microBatches = 3;
        const Profile p = transformerTrainingGraph(c);
        // 3 (47 * 2 + 15) + 10 (12 * 2 + 4) + 1 = 327 + 281
        QCOMPARE(std::int64_t(p.kernels.size()), std::int64_t(608));
        QCOMPARE(transformerKernelCount(c), std::int64_t(608));
        QVERIFY(validateProfile(p).empty());
        const DependencyGraph g = DependencyGraph::derive(p);
        QVERIFY(g.findCycle().empty());
        // Phases in order: forward/loss/backward per micro-batch, then the optimizer.
        std::map<KernelPhase, int> phases;
        for (const Kernel& k : p.kernels) ++phases[k.phase];
        // Forward per micro-batch: copy, embedding, dropout, 18 per layer, ln_f, lm_head,
        // log_softmax, nll_loss (phase Loss).
        QCOMPARE(phases[KernelPhase::Forward], 3 * (18 * 2 + 7) - 3);
        QCOMPARE(phases[KernelPhase::Loss], 3);
        QCOMPARE(phases[KernelPhase::Backward], 3 * (29 * 2 + 8));
        QCOMPARE(phases[KernelPhase::Optimizer], 281);
        QVERIFY(p.kernels.back().phase == KernelPhase::Optimizer);
        // The scores tensor: batch 2 x 4 heads x 16 x 16 fp32.
        QCOMPARE(findTensor(p, "mb2.h1.attn.scores")->bytes, Bytes(2 * 4 * 16 * 16 * 4));
        // A weight's AdamW update depends (through its gradient) on the last micro-batch's
        // weight-gradient kernel: gradients are not persistent, so the graph keeps that edge.
        const ProfileIndex index(p);
        const auto wgrad = index.kernelPos(findKernel(p, "mb2.h0.mlp.c_fc.backward_weight")->id);
        const auto clip = index.kernelPos(findKernel(p, "clip.h0.mlp.c_fc.weight.norm")->id);
        bool reaches = false;
        for (auto s : g.successors(size_t(wgrad))) reaches |= s == clip;
        QVERIFY(reaches);
    }

    void badConfigurationsNamed() {
        TransformerConfig c;
        c.heads = 7;  // 1600 is not a multiple of 7
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, transformerTrainingGraph(c));
        try {
            transformerTrainingGraph(c);
        } catch (const std::invalid_argument& e) {
            QVERIFY(std::string(e.what()).find("heads") != std::string::npos);
        }
        TransformerConfig d;
        d.sequence = 2048;  // more than 1024 positions
        try {
            transformerTrainingGraph(d);
            QFAIL("expected an error");
        } catch (const std::invalid_argument& e) {
            QVERIFY(std::string(e.what()).find("max-positions") != std::string::npos);
        }
        TransformerConfig z;
        z.layers = 0;
        try {
            transformerTrainingGraph(z);
            QFAIL("expected an error");
        } catch (const std::invalid_argument& e) {
            QVERIFY(std::string(e.what()).find("layers") != std::string::npos);
        }
    }
};

QTEST_GUILESS_MAIN(TestTransformerGraph)
#include "tst_transformer_graph.moc"
