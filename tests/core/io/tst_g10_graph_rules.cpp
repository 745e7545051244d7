// G10's expansion rules, one quirk at a time, on a small hand-made graph
// (tests/fixtures/g10/rules_graph.txt). Expected kernels and tensors were worked out by hand
// from the rules in docs/g10-import.md:
//   op 10 Dot(5, 0)            5 is a constant (>= threshold 5, produced by no op), 0 a weight
//   op 11 Multiply(10, 10)     the same tensor twice
//   op 12 Power(11, 1)         the exponent 1 is a weight, yet gets no gradient
//   op 13..16 SoftmaxBasic(12) four blocks, one op with the id of the last block (16)
//   op 17 Add(16, 10)          the last op; id 10 is used with dims [99, 8] here
#include "tst_g10_support.h"

#include "core/io/g10/g10_import.h"

#include <QTemporaryDir>
#include <QTest>

using namespace spillway;
using namespace g10test;

namespace {

constexpr std::int64_t kBatch = 1024;
constexpr std::int64_t kThreshold = 5;

struct Expected {
    const char* name;
    std::vector<TensorId> inputs;
    std::vector<TensorId> outputs;
    KernelPhase phase;
};

}  // namespace

class TestG10GraphRules : public QObject {
    Q_OBJECT

private:
    static Profile load() {
        return importG10Graph(fixturePath("rules_graph.txt").toStdString(), kBatch, std::nullopt,
                              kThreshold);
    }

private slots:
    void tensorsAreNumberedAndSizedAsG10Does() {
        const auto p = load();
        // Creation order: per op its output, new inputs, then one gradient per input that gets
        // one; the loss gradient last. [99,4] at batch 1024 = 16 KiB, [99,8] = 32 KiB, small
        // shapes round up to one 4 KiB page.
        const std::vector<std::pair<Bytes, TensorKind>> want{
            {32768, TensorKind::Activation},  // 0: Dot#10, sized by its LAST use [99,8]
            {16384, TensorKind::Input},       // 1: constant 5
            {4096, TensorKind::Weight},       // 2: weight 0
            {4096, TensorKind::Gradient},     // 3: d(weight 0)
            {16384, TensorKind::Activation},  // 4: Multiply#11
            {32768, TensorKind::Gradient},    // 5: d(10) from Multiply input 0
            {32768, TensorKind::Gradient},    // 6: d(10) from Multiply input 1
            {16384, TensorKind::Activation},  // 7: Power#12
            {4096, TensorKind::Weight},       // 8: weight 1 (the exponent)
            {16384, TensorKind::Gradient},    // 9: d(11)
            {16384, TensorKind::Activation},  // 10: SoftmaxBasic#16
            {16384, TensorKind::Gradient},    // 11: d(12)
            {16384, TensorKind::Activation},  // 12: Add#17, unused: sized like its first input
            {16384, TensorKind::Gradient},    // 13: d(16)
            {32768, TensorKind::Gradient},    // 14: d(10) from Add
            {16384, TensorKind::Gradient},    // 15: the loss gradient
        };
        QCOMPARE(p.tensors.size(), want.size());
        for (size_t i = 0; i < want.size(); ++i) {
            QCOMPARE(p.tensors[i].id, TensorId(i));
            QCOMPARE(p.tensors[i].bytes, want[i].first);
            QCOMPARE(name(p.tensors[i].kind), name(want[i].second));
            QCOMPARE(p.tensors[i].persistent, want[i].second == TensorKind::Weight);
        }
        QCOMPARE(p.tensors[1].name, std::string("input#5"));
        QCOMPARE(p.tensors[10].name, std::string("SoftmaxBasic#16"));
        QCOMPARE(p.tensors[3].name, std::string("d(weight#0)"));
    }

    void kernelsFollowG10sOrderAndSets() {
        const auto p = load();
        const std::vector<Expected> want{
            {"Linear_Forward", {1, 2}, {0}, KernelPhase::Forward},
            {"Multiply_Forward", {0}, {4}, KernelPhase::Forward},  // a set: 10 once
            {"Power_Forward", {4, 8}, {7}, KernelPhase::Forward},
            {"SoftmaxBasic_Forward", {7}, {10}, KernelPhase::Forward},
            {"Add_Forward", {10, 0}, {12}, KernelPhase::Forward},
            {"makeLoss", {12}, {15}, KernelPhase::Loss},
            {"Add_Backward", {15}, {13, 14}, KernelPhase::Backward},  // no weight: no update
            {"SoftmaxBasic_Backward", {7, 13}, {11}, KernelPhase::Backward},
            {"Power_Backward", {11, 4, 8}, {9}, KernelPhase::Backward},  // no update either
            {"Multiply_Backward", {9, 0}, {5}, KernelPhase::Backward},
            {"Multiply_Backward", {9, 0}, {6}, KernelPhase::Backward},
            // Op 10 receives three gradients (two from Multiply, one from Add): summed first.
            {"Add_MultiGredient", {5, 6, 14}, {5}, KernelPhase::Backward},
            {"Linear_Backward_Weight", {5, 1}, {3}, KernelPhase::Backward},
            // No Linear_Backward_Input: the Dot's input is a constant.
            {"Linear_Apply_Grad_Weight", {3, 2}, {2}, KernelPhase::Optimizer},
        };
        QCOMPARE(p.kernels.size(), want.size());
        for (size_t k = 0; k < want.size(); ++k) {
            QCOMPARE(p.kernels[k].name, std::string(want[k].name));
            QCOMPARE(p.kernels[k].inputs, want[k].inputs);
            QCOMPARE(p.kernels[k].outputs, want[k].outputs);
            QCOMPARE(name(p.kernels[k].phase), name(want[k].phase));
        }
        QCOMPARE(p.kernels[0].op, std::string("Dot"));
        QCOMPARE(p.kernels[11].op, std::string("Dot"));
        QCOMPARE(p.kernels[3].op, std::string("SoftmaxBasic"));
    }

    void inferredThresholdIsTheSmallestOpIdAndSaysSo() {
        // An unknown graph without a threshold: ids below its smallest op id (10) are weights.
        // With the constant renumbered 5 -> 25 the expansion is the same as with threshold 5.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto path = dir.filePath(QStringLiteral("renumbered.txt"));
        QVERIFY(writeAll(path, replaceLine(readAll(fixturePath("rules_graph.txt")), 4, "25")));
        const auto p = importG10Graph(path.toStdString(), kBatch, std::nullopt);
        const auto reference = load();
        QCOMPARE(p.kernels, reference.kernels);
        QCOMPARE(p.tensors.size(), reference.tensors.size());
        const auto note = QString::fromStdString(p.metadata.notes.at("g10.weight_threshold"));
        QVERIFY2(note.contains(QStringLiteral("inferred")), qPrintable(note));
        QVERIFY2(note.contains(QStringLiteral("10")), qPrintable(note));
    }

    void aDotWithoutANonWeightInputFailsLikeG10() {
        // Inferred threshold 10 makes the constant 5 a weight too: G10 has no input to
        // differentiate against and would crash; we report the op's line instead.
        expectImportError(
            [] { importG10Graph(fixturePath("rules_graph.txt").toStdString(), kBatch, std::nullopt); },
            QStringLiteral("rules_graph.txt"), 1, QStringLiteral("non-weight input"));
    }

    void blankLinesAreSkippedAsG10Does() {
        // G10 reads the graph token by token: blank lines between or inside blocks are no
        // error and change nothing.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        auto text = readAll(fixturePath("rules_graph.txt"));
        text.replace("-------------------\n", "-------------------\n\n");
        text.replace("Dot\n", "Dot\n   \n");
        const auto path = dir.filePath(QStringLiteral("spaced.txt"));
        QVERIFY(writeAll(path, text));
        const auto p = importG10Graph(path.toStdString(), kBatch, std::nullopt, kThreshold);
        QCOMPARE(p.kernels, load().kernels);
    }

    void batchMustBePositive() {
        QVERIFY_THROWS_EXCEPTION(ImportError,
                                 importG10Graph(fixturePath("rules_graph.txt").toStdString(), 0,
                                                std::nullopt, kThreshold));
    }
};

QTEST_GUILESS_MAIN(TestG10GraphRules)
#include "tst_g10_graph_rules.moc"
