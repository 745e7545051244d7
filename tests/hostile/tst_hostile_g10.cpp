// Issue 15, finding 7: kernels.config has no end marker, so one cut at a kernel boundary still
// parses. Opened by itself it was accepted (1,235 of BERT's 1,369 kernels, exit 0). It is now
// checked against its tensors.config (every tensor listed there must be named by a kernel) and
// against the measurement files beside it (one line per kernel), in the single-file form as in
// the folder form, and refused with an error naming kernels.config and the line where it ends.
#include "tests/cli/cli_runner.h"
#include "tests/core/io/tst_g10_support.h"

#include "core/io/g10/g10_import.h"

#include <QTemporaryDir>
#include <QTest>

using namespace spillway;
using namespace g10test;

namespace {

const QString kBert = QStringLiteral("derived/BERT_Base_256");
const QStringList kMeasurements{"cudnn256.txt", "cudnn256PF.txt", "cudnn256InputPF.txt",
                                "cudnn256Workspace.txt"};

// BERT's kernels.config cut just before the block of kernel `firstDropped`.
QByteArray bertKernelsCutBefore(int firstDropped) {
    const auto text = readAll(dataPath(kBert + "/kernels.config"));
    const auto at = text.indexOf(QStringLiteral("Kernel ID: %1, ").arg(firstDropped).toUtf8());
    return at < 0 ? QByteArray() : text.left(at);
}

// A copy of BERT 256 in `dir`: kernels.config as given, tensors.config, and the measurement
// files when asked.
bool makeBert(const QTemporaryDir& dir, const QByteArray& kernels, bool withMeasurements) {
    if (kernels.isEmpty() || !writeAll(dir.filePath("kernels.config"), kernels)) return false;
    QStringList copied{"tensors.config"};
    if (withMeasurements) copied += kMeasurements;
    for (const auto& f : copied)
        if (!writeAll(dir.filePath(f), readAll(dataPath(kBert + "/" + f)))) return false;
    return true;
}

qint64 lineCount(const QByteArray& text) { return text.count('\n'); }

// `spillway-cli info` on `path` exits 2 with a message naming kernels.config and `parts`.
void expectCliRefuses(const QString& path, const QStringList& parts) {
    const auto r = runCli({QStringLiteral("info"), path});
    QVERIFY2(r.code == 2, qPrintable(QStringLiteral("exit %1: %2").arg(r.code).arg(QString::fromUtf8(r.err))));
    QVERIFY2(r.err.contains("kernels.config:"), r.err.constData());
    for (const auto& part : parts) QVERIFY2(r.err.contains(part.toUtf8()), r.err.constData());
}

}  // namespace

class TestHostileG10 : public QObject {
    Q_OBJECT

private slots:
    void aCutConfigAloneIsRefused() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto cut = bertKernelsCutBefore(1235);
        QVERIFY(makeBert(dir, cut, false));
        const auto kernels = dir.filePath("kernels.config");
        expectImportError([&] { importG10Configs(kernels.toStdString()); }, QStringLiteral("kernels.config"),
                          lineCount(cut), QStringLiteral("1235 kernels"));
        expectCliRefuses(kernels, {QStringLiteral("1235 kernels"), QStringLiteral("tensors.config")});
        expectCliRefuses(dir.path(), {QStringLiteral("1235 kernels")});
    }

    void aCutConfigBesideItsMeasurementsIsRefusedInBothForms() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(makeBert(dir, bertKernelsCutBefore(1235), true));
        expectCliRefuses(dir.filePath("kernels.config"), {QStringLiteral("1235 kernels")});
        expectCliRefuses(dir.path(), {QStringLiteral("1235 kernels")});
    }

    void losingOnlyTheLastKernelIsCaughtByTheMeasurementCount() {
        // Kernel 1368 names only tensors that earlier kernels name too: tensors.config cannot
        // tell, the measurement files (1369 lines) can.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto cut = bertKernelsCutBefore(1368);
        QVERIFY(makeBert(dir, cut, true));
        const auto kernels = dir.filePath("kernels.config");
        expectImportError([&] { importG10Configs(kernels.toStdString()); }, QStringLiteral("kernels.config"),
                          lineCount(cut), QStringLiteral("cudnn256.txt"));
        expectCliRefuses(kernels, {QStringLiteral("1368 kernels"), QStringLiteral("cudnn256.txt"),
                                   QStringLiteral("1369")});
        const auto folder = runCli({QStringLiteral("info"), dir.path()});
        QVERIFY2(folder.code == 2, folder.err.constData());
        QVERIFY2(folder.err.contains("1368 kernels"), folder.err.constData());
    }

    void theWholeCopyStillLoads() {
        for (const bool withMeasurements : {false, true}) {
            QTemporaryDir dir;
            QVERIFY(dir.isValid());
            QVERIFY(makeBert(dir, readAll(dataPath(kBert + "/kernels.config")), withMeasurements));
            const auto single = runCli({QStringLiteral("info"), dir.filePath("kernels.config")});
            QVERIFY2(single.code == 0, single.err.constData());
            const auto folder = runCli({QStringLiteral("info"), dir.path()});
            QVERIFY2(folder.code == 0, folder.err.constData());
        }
    }
};

QTEST_GUILESS_MAIN(TestHostileG10)
#include "tst_hostile_g10.moc"
