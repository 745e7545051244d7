// The real torch.profiler traces of ../shared/data/h200 (models/: the seed papers' models, one
// training step each after a warm-up step, gzipped as tensorboard_trace_handler writes them;
// captures/resnet50-b64.trace.json, plain): each opens through the loader, and what the importer
// says the model holds matches the model's definition. The models were built before profiling
// started, so their weights and optimizer state appear in no [memory] event: only the running
// totals and the ops' shapes tell of them (docs/torch-import.md, "Kinds"). Tensors have the
// bytes the model asked for where the trace says it (a gradient paired with its parameter, the
// tensors named from shapes), so the theoretical peak is at most the trace's "Total Allocated" and
// under it by no more than the allocator's rounding of those tensors ("Tensor bytes").
#include "core/analysis/liveness.h"
#include "core/analysis/peak.h"
#include "core/io/base/file_text.h"
#include "core/io/profile_loader.h"
#include "core/trace/kind_evidence.h"
#include "core/trace/validate.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <map>
#include <string>

using namespace spillway;

namespace {

const QString kData = QStringLiteral(SPILLWAY_SHARED_DATA "/h200/");

// Parameter counts (and parameter tensors) from the model definitions, fp32 (4 bytes each):
// - torchvision 0.14 (Debian python3-torchvision), sum(p.numel() for p in model.parameters()):
//   resnet50 25,557,032 (161), vgg16 138,357,544 (32), alexnet 61,100,840 (16), densenet121
//   7,978,856 (364), mobilenet_v2 3,504,872 (158), mnasnet1_0 4,383,312 (158), efficientnet_b0
//   5,288,548 (213), vit_b_16 86,567,656 (152).
// - inception_v3: 23,834,568 (284) = torchvision's 27,161,264 with aux logits less the AuxLogits
//   head (3,326,696 in 8 tensors): the traced model has no aux head (no op has its shapes
//   [768,128,5,5] or [1000,768], and the running totals leave no room for its 13 MB).
// - timm inception_v4: 42,679,816 (449): timm/models/inception_v4.py summed by hand, each
//   ConvNormAct cin*cout*kh*kw + 2*cout (conv without bias, BatchNorm weight and bias; 149
//   blocks) plus last_linear 1536*1000 + 1000; timm's model card says 42.7M.
// - BERT-base masked LM (BertForMaskedLM(BertConfig()): vocab 30522, hidden 768, 12 layers, FFN
//   3072, 512 positions, no pooler): embeddings 30522*768 + 512*768 + 2*768 + LayerNorm 1536 =
//   23,837,184; per layer 4*(768*768+768) + 1536 + (768*3072+3072) + (3072*768+768) + 1536 =
//   7,087,872, x12 = 85,054,464; MLM head 768*768+768 + 1536 + decoder bias 30522 = 622,650;
//   the decoder weight is tied to the word embeddings (counted once): 109,514,298 (202).
// - OPT-1.3B (vocab 50272, hidden 2048, 24 layers, FFN 8192, 2048 positions + 2 offset):
//   embed_tokens 50272*2048 = 102,957,056; embed_positions 2050*2048 = 4,198,400; final
//   LayerNorm 4096; per layer 4*(2048*2048+2048) + 4096 + (2048*8192+8192) + (8192*2048+2048) +
//   4096 = 50,358,272, x24 = 1,208,598,528; lm_head tied to embed_tokens: 1,315,758,080 (388).
// Optimizer state per parameter: SGD with momentum 0.9, one momentum buffer; Adam and AdamW,
// exp_avg and exp_avg_sq (README of ../shared/data/h200).
struct Model {
    const char* file;
    qint64 parameters;
    int parameterTensors;
    int statePerParameter;
};

const Model kModels[] = {
    {"models/tensile/vgg16-b2-sgd.trace.json.gz", 138357544, 32, 1},
    {"models/tensile/inception_v3-b2-sgd.trace.json.gz", 23834568, 284, 1},
    {"models/tensile/inception_v4-b2-sgd.trace.json.gz", 42679816, 449, 1},
    {"models/tensile/resnet50-b2-sgd.trace.json.gz", 25557032, 161, 1},
    {"models/tensile/densenet121-b2-sgd.trace.json.gz", 7978856, 364, 1},
    {"models/roam/alexnet-b1-adam.trace.json.gz", 61100840, 16, 2},
    {"models/roam/alexnet-b32-adam.trace.json.gz", 61100840, 16, 2},
    {"models/roam/vgg16-b1-adam.trace.json.gz", 138357544, 32, 2},
    {"models/roam/vgg16-b32-adam.trace.json.gz", 138357544, 32, 2},
    {"models/roam/mnasnet1_0-b1-adam.trace.json.gz", 4383312, 158, 2},
    {"models/roam/mnasnet1_0-b32-adam.trace.json.gz", 4383312, 158, 2},
    {"models/roam/mobilenet_v2-b1-adam.trace.json.gz", 3504872, 158, 2},
    {"models/roam/mobilenet_v2-b32-adam.trace.json.gz", 3504872, 158, 2},
    {"models/roam/efficientnet_b0-b1-adam.trace.json.gz", 5288548, 213, 2},
    {"models/roam/vit_b_16-b1-adam.trace.json.gz", 86567656, 152, 2},
    {"models/llm/bert-base-b32-s128-adamw.trace.json.gz", 109514298, 202, 2},
    {"models/llm/opt-1.3b-b4-s512-adamw.trace.json.gz", 1315758080, 388, 2},
    {"captures/resnet50-b64.trace.json", 25557032, 161, 1},
};

constexpr qint64 kOneMiB = 1 << 20;

bool within(qint64 value, qint64 expected, double share) {
    return value >= qint64(double(expected) * (1 - share)) && value <= qint64(double(expected) * (1 + share));
}

// The largest "Total Allocated" of the trace's CUDA [memory] events, read with Qt's JSON parser
// (the file inflated by the core's reader): what the allocator held at its peak.
qint64 largestTotalAllocated(const QString& path) {
    const std::string text = readFileText(path.toStdString());
    const auto events = QJsonDocument::fromJson(QByteArray::fromRawData(text.data(), qsizetype(text.size())))
                            .object()["traceEvents"]
                            .toArray();
    qint64 largest = -1;
    for (const auto& v : events) {
        const auto e = v.toObject();
        if (e["name"].toString() != "[memory]" || e["args"].toObject()["Device Type"].toInt() != 1) continue;
        largest = std::max(largest, e["args"].toObject()["Total Allocated"].toInteger());
    }
    return largest;
}

QString describe(const char* what, qint64 value, qint64 expected) {
    return QString("%1: %2 bytes, expected about %3").arg(what).arg(value).arg(expected);
}

}  // namespace

class TorchTraceModelsTest : public QObject {
    Q_OBJECT

private slots:
    void models_data() {
        QTest::addColumn<int>("index");
        for (int i = 0; i < int(std::size(kModels)); ++i) QTest::newRow(kModels[i].file) << i;
    }

    void models() {
        QFETCH(int, index);
        const Model& m = kModels[index];
        const QString path = kData + m.file;
        if (!QFile::exists(path)) QSKIP("../shared/data/h200 is not beside the checkout");
        QCOMPARE(QString::fromStdString(detectProfileFormat(path.toStdString())), QStringLiteral("torch-trace"));
        const Profile p = loadProfile(path.toStdString());
        const auto problems = validateProfile(p);
        for (const auto& problem : problems) qWarning("%s: %s", problem.pointer.c_str(), problem.message.c_str());
        QVERIFY(problems.empty());

        std::map<TensorKind, qint64> perKind;
        qint64 parameterBytes = 0, largeParameters = 0, smallParameters = 0;
        int parameterTensors = 0;
        for (const auto& t : p.tensors) {
            perKind[t.kind] += t.bytes;
            if (!t.name.starts_with("parameter[")) continue;
            ++parameterTensors;
            parameterBytes += t.bytes;
            (t.bytes > kOneMiB ? largeParameters : smallParameters) += 1;
            QVERIFY(t.persistent && t.kind == TensorKind::Weight && !t.allocTime && !t.freeTime);
        }
        const qint64 fp32 = 4 * m.parameters;

        // One weight tensor per parameter, each its shape's bytes rounded up to the caching
        // allocator's 512-byte granule.
        QCOMPARE(parameterTensors, m.parameterTensors);
        QVERIFY2(parameterBytes >= fp32 && parameterBytes <= fp32 + 512 * parameterTensors,
                 qPrintable(describe("parameters", parameterBytes, fp32)));
        // All weights (with the BatchNorm running statistics) within 5 % of the parameters.
        QVERIFY2(within(perKind[TensorKind::Weight], fp32, 0.05),
                 qPrintable(describe("weights", perKind[TensorKind::Weight], fp32)));
        // Gradients are the blocks zero_grad frees, each with its parameter's bytes where an
        // AccumulateGrad call pairs them (not the allocator's block, up to 1 MiB larger for a
        // request over 1 MiB): within 5 % of the parameters, and at least them. Only ViT-B/16's
        // class token keeps a block larger than itself: its gradient is a view of the [1,197,768]
        // gradient it was sliced from, which holds that whole block until zero_grad frees it.
        const qint64 gradients = perKind[TensorKind::Gradient];
        QVERIFY2(gradients >= fp32 && within(gradients, fp32, 0.05), qPrintable(describe("gradients", gradients, fp32)));
        // Optimizer state: momentum (SGD) or exp_avg and exp_avg_sq (Adam, AdamW) per parameter.
        const qint64 state = perKind[TensorKind::OptimizerState];
        QCOMPARE(state, m.statePerParameter * parameterBytes);
        QVERIFY2(within(state, m.statePerParameter * fp32, 0.05),
                 qPrintable(describe("optimizer state", state, m.statePerParameter * fp32)));

        // The theoretical peak: at most what the allocator held at its peak, and under it by at
        // most the rounding left out of the tensors: a gradient's up to 511 bytes, or 1 MiB + 511
        // over 1 MiB; 511 bytes for each tensor named from shapes (they have no address).
        qint64 fromShapes = 0;
        for (const auto& t : p.tensors) fromShapes += t.address ? 0 : 1;
        const qint64 rounding = 511 * smallParameters + (kOneMiB + 511) * largeParameters + 511 * fromShapes;
        const qint64 allocated = largestTotalAllocated(path);
        const qint64 peak = theoreticalPeak(p, computeLiveness(p)).peakBytes;
        QVERIFY2(peak <= allocated && peak >= allocated - rounding,
                 qPrintable(describe("theoretical peak", peak, allocated)));

        // Phases in order: forward, the cross-entropy loss, backward, optimizer, each there.
        const std::vector<KernelPhase> order{KernelPhase::Forward, KernelPhase::Loss, KernelPhase::Backward,
                                             KernelPhase::Optimizer};
        size_t at = 0;
        std::map<KernelPhase, int> perPhase;
        for (const auto& k : p.kernels) {
            while (at < order.size() && order[at] != k.phase) ++at;
            QVERIFY2(at < order.size(), qPrintable(QString("kernel %1 (%2) out of phase order").arg(k.id).arg(k.name.c_str())));
            ++perPhase[k.phase];
            if (k.phase == KernelPhase::Loss) QCOMPARE(QString::fromStdString(k.op), QStringLiteral("aten::cross_entropy_loss"));
        }
        for (auto phase : order) QVERIFY2(perPhase[phase] > 0, toString(phase).data());

        const auto& notes = p.metadata.notes;
        QCOMPARE(QString::fromStdString(notes.at("iterations.found")), QStringLiteral("1"));
        QVERIFY(!notes.contains("warning.persistent_evidence"));
        QVERIFY(!notes.contains("warning.unclassified_kinds"));
        const double unclassified = unclassifiedKindShare(notes);
        QVERIFY2(unclassified >= 0 && unclassified < kUnclassifiedWarning, qPrintable(QString::number(unclassified)));
    }
};

QTEST_GUILESS_MAIN(TorchTraceModelsTest)
#include "tst_torch_trace_models.moc"
