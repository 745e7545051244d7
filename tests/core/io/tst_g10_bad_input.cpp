// Broken input for every G10 reader: empty, truncated, corrupted and wrong-format files each
// give an ImportError that names the file and the line, and says what was expected there.
// Broken files are small fixtures (tests/fixtures/g10/) or made here from the real ones.
#include "tst_g10_support.h"

#include "core/io/g10/g10_import.h"

#include <QTemporaryDir>
#include <QTest>

#include <map>

using namespace spillway;
using namespace g10test;

namespace {

const QString kBertDerived = QStringLiteral("derived/BERT_Base_256");
const QStringList kBertFiles{"kernels.config", "tensors.config", "cudnn256.txt",
                             "cudnn256PF.txt", "cudnn256InputPF.txt", "cudnn256Workspace.txt"};

// A BERT 256 workload folder in `dir` with some files replaced.
bool makeBertWorkload(const QTemporaryDir& dir, const std::map<QString, QByteArray>& replaced) {
    for (const auto& f : kBertFiles) {
        const auto it = replaced.find(f);
        const auto bytes = it != replaced.end() ? it->second : readAll(dataPath(kBertDerived + "/" + f));
        if (!writeAll(dir.filePath(f), bytes)) return false;
    }
    return true;
}

QByteArray bert(const QString& file) { return readAll(dataPath(kBertDerived + "/" + file)); }
QByteArray bertGraph() { return readAll(dataPath("frontend/Nets/BERT_Base.txt")); }
QByteArray jsonFile() { return readAll(fixturePath("kernels_not_config.json")); }

}  // namespace

class TestG10BadInput : public QObject {
    Q_OBJECT

private:
    // Writes `bytes` as a graph file and expects importG10Graph to fail at `line`.
    static void expectGraphError(const QByteArray& bytes, qint64 line, const QString& part) {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto path = dir.filePath(QStringLiteral("BERT_Base.txt"));
        QVERIFY(writeAll(path, bytes));
        expectImportError([&] { importG10Graph(path.toStdString(), 256, std::nullopt); },
                          QStringLiteral("BERT_Base.txt"), line, part);
    }

    static void expectWorkloadError(const QString& file, const QByteArray& bytes, qint64 line,
                                    const QString& part) {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(makeBertWorkload(dir, {{file, bytes}}));
        expectImportError([&] { importG10Workload(dir.path().toStdString()); }, file, line, part);
    }

private slots:
    // --- transformer graphs -------------------------------------------------------------
    void graphEmpty() { expectGraphError("", 1, QStringLiteral("empty")); }

    void graphTruncatedInsideABlock() {
        // Lines 1-7: op 215, GatherV2, 2 inputs (2, 211), rank 2, first dim 2; the second dim
        // (768) should be on line 8.
        expectGraphError(firstLines(bertGraph(), 7), 8, QStringLiteral("dimension 2 of input 1"));
    }

    void graphTruncatedInsideASoftmax() {
        // Cut right after the first block of the first SoftmaxBasic: its three steps are missing.
        const auto lines = bertGraph().split('\n');
        const int type = int(lines.indexOf("SoftmaxBasic"));
        QVERIFY(type > 0);
        int dashes = type;
        while (!lines[dashes].startsWith("---")) ++dashes;
        expectGraphError(firstLines(bertGraph(), dashes + 1), dashes + 2, QStringLiteral("SoftmaxBasic step"));
    }

    void graphCorruptedNumber() {
        expectGraphError(replaceLine(bertGraph(), 3, "two"), 3, QStringLiteral("number of inputs"));
    }

    void graphNegativeDimension() {
        expectGraphError(replaceLine(bertGraph(), 7, "-2"), 7, QStringLiteral("dimension 1 of input 1"));
    }

    void graphWrongFormat() { expectGraphError(jsonFile(), 1, QStringLiteral("op id")); }

    void graphUnknownOpType() {
        expectImportError(
            [] { importG10Graph(fixturePath("graph_unknown_op.txt").toStdString(), 8, std::nullopt, 5); },
            QStringLiteral("graph_unknown_op.txt"), 14, QStringLiteral("MaxPool"));
    }

    void graphMissingDashes() {
        expectImportError(
            [] { importG10Graph(fixturePath("graph_missing_dashes.txt").toStdString(), 8, std::nullopt, 5); },
            QStringLiteral("graph_missing_dashes.txt"), 12, QStringLiteral("dashes"));
    }

    void graphResultsWithTooFewLines() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(makeBertWorkload(dir, {{"cudnn256.txt", firstLines(bert("cudnn256.txt"), 1368)}}));
        expectImportError(
            [&] {
                importG10Graph(dataPath("frontend/Nets/BERT_Base.txt").toStdString(), 256,
                               std::filesystem::path(dir.path().toStdString()));
            },
            QStringLiteral("cudnn256.txt"), 1369, QStringLiteral("1369 kernels"));
    }

    // --- kernels.config -----------------------------------------------------------------
    void kernelsEmpty() { expectWorkloadError("kernels.config", "", 1, QStringLiteral("empty")); }

    void kernelsTruncatedAfterAnInput() {
        // Kernel 0 stops after its first input tensor (line 5).
        expectWorkloadError("kernels.config", firstLines(bert("kernels.config"), 5), 6,
                            QStringLiteral("Output Tensors:"));
    }

    void kernelsTruncatedMidLine() {
        const auto cut = firstLines(bert("kernels.config"), 5) + "tensor1 Is weight (glo";
        expectWorkloadError("kernels.config", cut, 6, QStringLiteral("weight flag"));
    }

    void kernelsCorruptedCycles() {
        expectWorkloadError("kernels.config", replaceLine(bert("kernels.config"), 3, "Execution Time: fast"),
                            3, QStringLiteral("cycles"));
    }

    void kernelsSizeDisagreesWithTensors() {
        const auto text = bert("kernels.config");
        QVERIFY(text.split('\n')[4].startsWith("tensor2 Is weight (global)?: 0, Size in byte: 131072,"));
        auto line = text.split('\n')[4];
        line.replace("131072", "131073");
        expectWorkloadError("kernels.config", replaceLine(text, 5, line), 5, QStringLiteral("tensors.config"));
    }

    void kernelsOutOfOrder() {
        expectWorkloadError("kernels.config",
                            replaceLine(bert("kernels.config"), 1, "Kernel ID: 7, Name: GatherV2_Forward"),
                            1, QStringLiteral("kernel id 0"));
    }

    void kernelsWrongFormat() {
        expectWorkloadError("kernels.config", jsonFile(), 1, QStringLiteral("Kernel ID: "));
    }

    void configsReaderReportsTheSameLines() {
        // importG10Configs reads the same files with the same errors.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(makeBertWorkload(dir, {{"kernels.config", jsonFile()}}));
        expectImportError([&] { importG10Configs(dir.filePath("kernels.config").toStdString()); },
                          QStringLiteral("kernels.config"), 1, QStringLiteral("Kernel ID: "));
    }

    // --- tensors.config -----------------------------------------------------------------
    void tensorsEmpty() { expectWorkloadError("tensors.config", "", 1, QStringLiteral("empty")); }

    void tensorsTruncatedMidLine() {
        const auto cut = firstLines(bert("tensors.config"), 3) + "tensor3 Is weight (global)?: 0, Size in";
        expectWorkloadError("tensors.config", cut, 4, QStringLiteral("tensor size"));
    }

    void tensorsCorruptedSize() {
        expectWorkloadError("tensors.config",
                            replaceLine(bert("tensors.config"), 2,
                                        "tensor1 Is weight (global)?: 1, Size in byte: abc, Range:0--8192"),
                            2, QStringLiteral("tensor size in bytes"));
    }

    void tensorsWrongFormat() {
        expectWorkloadError("tensors.config", jsonFile(), 1, QStringLiteral("tensor"));
    }

    // --- cudnn<B>*.txt measurements -------------------------------------------------------
    void measurementEmpty() { expectWorkloadError("cudnn256.txt", "", 1, QStringLiteral("empty")); }

    void measurementTruncated() {
        expectWorkloadError("cudnn256PF.txt", firstLines(bert("cudnn256PF.txt"), 100), 101,
                            QStringLiteral("kernel 100"));
    }

    void measurementCorruptedValue() {
        expectWorkloadError("cudnn256InputPF.txt",
                            replaceLine(bert("cudnn256InputPF.txt"), 10, "0009 fast ms"), 10,
                            QStringLiteral("kernel time in ms"));
    }

    void measurementOutOfOrder() {
        expectWorkloadError("cudnn256.txt", replaceLine(bert("cudnn256.txt"), 5, "0005 0.1 ms"), 5,
                            QStringLiteral("kernel index 4"));
    }

    void measurementExtraLine() {
        expectWorkloadError("cudnn256.txt", bert("cudnn256.txt") + "1369 0.1 ms\n", 1370,
                            QStringLiteral("more lines"));
    }

    void measurementWrongUnit() {
        // tests/fixtures/g10/cudnn_bad_unit.txt: its second line says "sec".
        expectWorkloadError("cudnn256.txt", readAll(fixturePath("cudnn_bad_unit.txt")), 2,
                            QStringLiteral("unit"));
    }

    void measurementWrongFormat() {
        expectWorkloadError("cudnn256Workspace.txt", jsonFile(), 1, QStringLiteral("kernel index"));
    }

    // --- files that are not there ---------------------------------------------------------
    void missingFilesAreNamed() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(QFile::copy(dataPath(kBertDerived + "/kernels.config"), dir.filePath("kernels.config")));
        try {
            importG10Configs(dir.filePath("kernels.config").toStdString());
            QFAIL("a missing tensors.config was accepted");
        } catch (const ImportError& e) {
            QVERIFY(QString::fromStdString(e.location().file).endsWith(QStringLiteral("tensors.config")));
        }
        QVERIFY_THROWS_EXCEPTION(ImportError, importG10Graph(dir.filePath("nothing.txt").toStdString(), 8, std::nullopt));
        QVERIFY_THROWS_EXCEPTION(ImportError, importG10Workload(dir.filePath("kernels.config").toStdString()));
    }
};

QTEST_GUILESS_MAIN(TestG10BadInput)
#include "tst_g10_bad_input.moc"
