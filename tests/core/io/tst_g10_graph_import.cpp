// Acceptance: G10's transformer graphs expanded by importG10Graph must give exactly the
// kernels and tensors G10's own simulator printed (derived/<Model>_<B>/kernels.config and
// tensors.config), read here by an independent regular-expression reader.
#include "tst_g10_support.h"

#include "core/io/g10/g10_import.h"
#include "core/io/g10/g10_model.h"
#include "core/trace/validate.h"

#include <QTest>

#include <cmath>

using namespace spillway;
using namespace g10test;

class TestG10GraphImport : public QObject {
    Q_OBJECT

private:
    static Profile importWithResults(const QString& graph, int batch, const QString& results) {
        return importG10Graph(dataPath(graph).toStdString(), batch,
                              std::filesystem::path(dataPath(results).toStdString()));
    }

    // Everything G10 printed for that workload, compared kernel by kernel.
    static void compareWithDerived(const Profile& p, const QString& derived) {
        const auto oracle = readOracleKernels(dataPath(derived + "/kernels.config"));
        QVERIFY(!oracle.empty());
        QCOMPARE(p.kernels.size(), oracle.size());
        Bytes workspacePages = 0;
        for (size_t k = 0; k < oracle.size(); ++k) {
            const auto& got = p.kernels[k];
            const auto& want = oracle[k];
            QCOMPARE(QString::fromStdString(got.name), want.name);
            QCOMPARE(got.id, static_cast<KernelId>(k));

            // Inputs: the same tensors (G10 numbers tensors in creation order, and so do we),
            // hence the same sizes. G10 prints its sets in hash order, so compare sorted.
            std::vector<qint64> gotIn(got.inputs.begin(), got.inputs.end()), wantIn;
            for (const auto& t : want.inputs) wantIn.push_back(t.id);
            QCOMPARE(sorted(gotIn), sorted(wantIn));

            // Outputs: G10 adds the cuDNN workspace as one more output tensor; we keep it as
            // workspaceBytes.
            std::vector<qint64> gotOut(got.outputs.begin(), got.outputs.end());
            std::vector<qint64> gotOutSizes, wantOutSizes, wantOut;
            for (auto id : got.outputs) gotOutSizes.push_back(p.tensors[size_t(id)].bytes);
            if (got.workspaceBytes > 0) gotOutSizes.push_back(roundUpToG10Page(got.workspaceBytes));
            workspacePages += roundUpToG10Page(got.workspaceBytes);
            for (const auto& t : want.outputs) wantOutSizes.push_back(t.bytes);
            QCOMPARE(sorted(gotOutSizes), sorted(wantOutSizes));
            for (const auto& t : want.outputs) wantOut.push_back(t.id);
            for (auto id : gotOut)
                QVERIFY2(std::find(wantOut.begin(), wantOut.end(), id) != wantOut.end(),
                         qPrintable(QStringLiteral("kernel %1 writes tensor %2, G10's does not")
                                        .arg(k)
                                        .arg(id)));

            // Sizes and weight flags of every tensor the kernel reads.
            for (const auto& t : want.inputs) {
                const auto& mine = p.tensors[size_t(t.id)];
                QCOMPARE(mine.id, t.id);
                QCOMPARE(mine.bytes, t.bytes);
                QCOMPARE(mine.kind == TensorKind::Weight, t.weight);
            }
        }
        // Total footprint: all tensors plus the page-rounded workspaces G10 lists as tensors.
        QCOMPARE(p.totalTensorBytes() + workspacePages,
                 oracleFootprint(dataPath(derived + "/tensors.config")));
    }

    static void compareDurations(const Profile& p, const QString& idealFile) {
        const auto ms = oracleMeasurements(dataPath(idealFile));
        QCOMPARE(p.kernels.size(), ms.size());
        for (size_t k = 0; k < ms.size(); ++k)
            QCOMPARE(p.kernels[k].duration, static_cast<Nanoseconds>(std::llround(ms[k] * 1e6)));
    }

private slots:
    void bertBase256MatchesG10() {
        const auto p = importWithResults("frontend/Nets/BERT_Base.txt", 256, "results/BERT_Base");
        QCOMPARE(p.kernels.size(), size_t(1369));
        compareWithDerived(p, "derived/BERT_Base_256");
        compareDurations(p, "results/BERT_Base/cudnn256.txt");
        QCOMPARE(QString::fromStdString(p.metadata.model), QStringLiteral("BERT_Base"));
        QCOMPARE(p.metadata.batch, 256);
        QCOMPARE(QString::fromStdString(p.metadata.source), QStringLiteral("g10-graph"));
        QCOMPARE(p.kernels[0].op, std::string("GatherV2"));
    }

    void vit1280MatchesG10() {
        const auto p = importWithResults("frontend/Nets/VIT.txt", 1280, "results/VIT");
        compareWithDerived(p, "derived/VIT_1280");
        compareDurations(p, "results/VIT/cudnn1280.txt");
        // ViT's two cuDNN workspaces (kernels 0 and 1487) come from the measurements.
        const auto ws = oracleMeasurements(dataPath("results/VIT/cudnn1280Workspace.txt"));
        int withWorkspace = 0;
        for (size_t k = 0; k < ws.size(); ++k) {
            QCOMPARE(p.kernels[k].workspaceBytes, static_cast<Bytes>(ws[k]));
            withWorkspace += ws[k] > 0;
        }
        QVERIFY(withWorkspace > 0);
    }

    void importedGraphsPassValidation() {
        for (const auto& [graph, batch, results] :
             {std::tuple{"frontend/Nets/BERT_Base.txt", 256, "results/BERT_Base"},
              std::tuple{"frontend/Nets/VIT.txt", 1280, "results/VIT"}}) {
            const auto p = importWithResults(graph, batch, results);
            const auto problems = validateProfile(p);
            QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().message.c_str());
        }
    }

    void phasesAndKindsFollowTheRules() {
        const auto p = importWithResults("frontend/Nets/BERT_Base.txt", 256, "results/BERT_Base");
        size_t lossKernels = 0;
        for (const auto& k : p.kernels) {
            const auto kernelName = QString::fromStdString(k.name);
            if (kernelName.endsWith(QStringLiteral("_Forward"))) QCOMPARE(name(k.phase), name(KernelPhase::Forward));
            else if (kernelName == QStringLiteral("makeLoss")) QCOMPARE(name(k.phase), name(KernelPhase::Loss));
            else if (kernelName.contains(QStringLiteral("Apply_Grad"))) QCOMPARE(name(k.phase), name(KernelPhase::Optimizer));
            else QCOMPARE(name(k.phase), name(KernelPhase::Backward));
            lossKernels += k.phase == KernelPhase::Loss;
        }
        QCOMPARE(lossKernels, size_t(1));
        // Every weight is persistent and only optimizer kernels write it; every activation is
        // written first in the forward pass.
        std::vector<KernelPhase> firstWriter(p.tensors.size(), KernelPhase::Other);
        std::vector<bool> written(p.tensors.size(), false);
        for (const auto& k : p.kernels)
            for (auto id : k.outputs)
                if (!written[size_t(id)]) {
                    written[size_t(id)] = true;
                    firstWriter[size_t(id)] = k.phase;
                }
        int notUpdated = 0;
        for (const auto& t : p.tensors) {
            if (t.kind == TensorKind::Weight) {
                QVERIFY(t.persistent);
                if (written[size_t(t.id)]) {
                    QCOMPARE(name(firstWriter[size_t(t.id)]), name(KernelPhase::Optimizer));
                } else {
                    // G10 never updates a Power's exponent, even when it is a weight.
                    for (const auto& k : p.kernels)
                        if (std::find(k.inputs.begin(), k.inputs.end(), t.id) != k.inputs.end())
                            QCOMPARE(k.op, std::string("Power"));
                    ++notUpdated;
                }
            } else {
                QVERIFY(!t.persistent);
            }
            if (t.kind == TensorKind::Activation) QCOMPARE(name(firstWriter[size_t(t.id)]), name(KernelPhase::Forward));
            if (t.kind == TensorKind::Input) QVERIFY(!written[size_t(t.id)]);
        }
        QVERIFY(notUpdated > 0);
    }

    void batchSizeScalesTheBatchDimensionOnly() {
        const auto p256 = importWithResults("frontend/Nets/BERT_Base.txt", 256, "results/BERT_Base");
        const auto p512 = importWithResults("frontend/Nets/BERT_Base.txt", 512, "results/BERT_Base");
        QCOMPARE(p512.kernels.size(), p256.kernels.size());
        QCOMPARE(p512.tensors.size(), p256.tensors.size());
        int doubled = 0, same = 0;
        for (size_t i = 0; i < p256.tensors.size(); ++i) {
            const auto a = p256.tensors[i].bytes, b = p512.tensors[i].bytes;
            if (b == a) ++same;
            else if (b == 2 * a) ++doubled;
            else QVERIFY2(b > a, "a tensor shrank with a larger batch");
        }
        QVERIFY(doubled > 0);
        QVERIFY(same > 0);
        compareDurations(p512, "results/BERT_Base/cudnn512.txt");
    }

    void nerfExpandsWithoutMeasurements() {
        const auto p = importG10Graph(dataPath("frontend/Nets/NeRF.txt").toStdString(), 4096, std::nullopt);
        // 7 Dot and 6 Relu ops: one forward kernel each, then the loss.
        QCOMPARE(p.kernels[13].name, std::string("makeLoss"));
        int updates = 0, inputGrads = 0;
        for (const auto& k : p.kernels) {
            updates += k.name == "Linear_Apply_Grad_Weight";
            inputGrads += k.name == "Linear_Backward_Input";
            QCOMPARE(k.duration, Nanoseconds(0));
        }
        QCOMPARE(updates, 7);
        // The first Dot reads the network input (a constant): no gradient kernel for it.
        QCOMPARE(inputGrads, 6);
        QVERIFY(QString::fromStdString(p.metadata.notes.at("g10.durations")).contains(QStringLiteral("unknown")));
        // Without measurements the only problems are the unknown (zero) durations.
        const auto problems = validateProfile(p);
        QCOMPARE(problems.size(), p.kernels.size());
        for (const auto& problem : problems)
            QVERIFY(QString::fromStdString(problem.pointer).endsWith(QStringLiteral("/duration_ns")));
    }
};

QTEST_GUILESS_MAIN(TestG10GraphImport)
#include "tst_g10_graph_import.moc"
