// The generated ViT-Base training step (core/trace/vit_training_graph.h) against the real H200
// vit_b_16 batch-1 Adam step of ../shared/data/h200/models/roam (torch.profiler, fp32), read
// through the project's torch-trace importer: the same kernels per phase, each with the trace's
// operator, in the trace's order (the optimizer: AdamW's
// extra weight-decay _foreach_mul_ launches aside), the model's 86,567,656 parameters, and the
// H200 datasheet roofline's forward, backward, optimizer and whole-step kernel time against the
// trace's (docs/roofline.md's ViT row: batch 1's tiny matrix products miss the roofline by more
// than 25%, so only the optimizer is held to 25%).
#include "core/io/profile_loader.h"
#include "core/trace/gpu_roofline.h"
#include "core/trace/validate.h"
#include "core/trace/vit_training_graph.h"

#include <QFile>
#include <QtTest>

#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

using namespace spillway;

namespace {

const QString kVitTrace = QStringLiteral(SPILLWAY_SHARED_DATA "/h200/models/roam/vit_b_16-b1-adam.trace.json.gz");

std::size_t countIn(const Profile& p, KernelPhase phase) {
    std::size_t n = 0;
    for (const auto& k : p.kernels) n += k.phase == phase;
    return n;
}

double timeIn(const Profile& p, KernelPhase phase) {
    double sum = 0;
    for (const auto& k : p.kernels)
        if (k.phase == phase) sum += double(k.duration);
    return sum;
}

double stepTime(const Profile& p) {
    double sum = 0;
    for (const auto& k : p.kernels) sum += double(k.duration);
    return sum;
}

double report(const char* what, double predicted, double measured) {
    const double error = predicted / measured - 1;
    qInfo("%-16s measured %8.3f ms  predicted %8.3f ms  %+6.1f%%", what, measured / 1e6, predicted / 1e6, 100 * error);
    return error;
}

VitConfig h200Batch1() {
    VitConfig c;
    c.batch = 1;
    c.gpu = *findGpuRoofline("h200");
    return c;
}

}  // namespace

class TestVitGraph : public QObject {
    Q_OBJECT
private slots:
    void vitB16HasTheModelsParametersAndLayers() {
        QCOMPARE(vitParameterCount(), std::int64_t(86567656));  // torchvision vit_b_16
        const Profile p = vitTrainingGraph(h200Batch1());
        QVERIFY(validateProfile(p).empty());
        std::int64_t weights = 0, weightTensors = 0;
        for (const auto& t : p.tensors)
            if (t.kind == TensorKind::Weight) weights += t.bytes / 4, ++weightTensors;
        QCOMPARE(weights, std::int64_t(86567656));
        QCOMPARE(weightTensors, std::int64_t(4 + 12 * 12 + 4));
        std::map<std::string, int> layer5;
        for (const auto& k : p.kernels)
            if (k.name.starts_with("layer5.")) ++layer5[std::string(toString(k.phase))];
        QCOMPARE(layer5["forward"], int(kVitForwardKernelsPerLayer));
        QCOMPARE(layer5["backward"], int(kVitBackwardKernelsPerLayer));
    }

    void patchEmbeddingIsTheConvolutionsRoofline() {
        VitConfig c;  // RTX 4090, batch 2048
        const Profile p = vitTrainingGraph(c);
        const Kernel* conv = nullptr;
        for (const auto& k : p.kernels)
            if (k.name == "conv_proj") conv = &k;
        QVERIFY(conv);
        const double flops = 2.0 * 2048 * 196 * 768 * 3 * 16 * 16;
        QCOMPARE(conv->duration, rooflineKernelTime(c.gpu, flops, 0, true));
        c.batch = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, vitTrainingGraph(c));
    }

    void h200TraceHasTheSameKernelsAndTimes() {
        if (!QFile::exists(kVitTrace)) QSKIP("../shared/data/h200 is not beside the checkout");
        const Profile measured = loadProfile(kVitTrace.toStdString());
        const Profile predicted = vitTrainingGraph(h200Batch1());
        for (KernelPhase phase : allKernelPhases())
            if (phase != KernelPhase::Optimizer) QCOMPARE(countIn(predicted, phase), countIn(measured, phase));
        // Kernel by kernel, the operator the importer names (aten::linear, AddmmBackward0, ...).
        for (KernelPhase phase : {KernelPhase::Forward, KernelPhase::Loss, KernelPhase::Backward}) {
            std::vector<std::string> opsP, opsM;
            for (const auto& k : predicted.kernels)
                if (k.phase == phase) opsP.push_back(k.op);
            for (const auto& k : measured.kernels)
                if (k.phase == phase) opsM.push_back(k.op);
            QCOMPARE(opsP, opsM);
        }
        std::size_t decay = 0;  // AdamW's first op, the weight decay; the trace ran Adam
        for (const auto& k : predicted.kernels) decay += k.name.starts_with("adamw.0.");
        QVERIFY(decay > 0);
        QCOMPARE(countIn(predicted, KernelPhase::Optimizer) - decay, countIn(measured, KernelPhase::Optimizer));
        const double fwd = report("forward", timeIn(predicted, KernelPhase::Forward), timeIn(measured, KernelPhase::Forward));
        const double bwd =
            report("backward", timeIn(predicted, KernelPhase::Backward), timeIn(measured, KernelPhase::Backward));
        const double opt =
            report("optimizer", timeIn(predicted, KernelPhase::Optimizer), timeIn(measured, KernelPhase::Optimizer));
        const double step = report("whole step", stepTime(predicted), stepTime(measured));
        // The optimizer streams 86.6 M parameters: within 25% as for OPT and BERT. At batch 1 the
        // matrix products have 197 rows and run far below the efficiencies measured on OPT, so
        // the roofline is a lower bound here, not a prediction (-65% forward, -42% backward,
        // -40% step; docs/roofline.md): assert that, and that it is not wildly below.
        QVERIFY2(std::abs(opt) <= 0.25, "optimizer");
        for (const auto& [what, error] : {std::pair{"forward", fwd}, {"backward", bwd}, {"whole step", step}})
            QVERIFY2(error < 0 && error > -0.75, what);
    }
};

QTEST_GUILESS_MAIN(TestVitGraph)
#include "tst_vit_graph.moc"
