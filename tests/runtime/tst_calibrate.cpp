// spillway-calibrate as a program: without a GPU it says so as spillway-replay does and exits 3
// writing nothing; the output is checked before the device (an existing file without --force,
// a folder, a missing folder: exit 2 naming the file, the file untouched); usage errors exit 2.
// On a machine with a GPU the no-device case instead checks the file it wrote.
#include "core/hardware/hardware_presets.h"
#include "core/io/base/file_text.h"
#include "tests/cli/cli_runner.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

namespace {

// Built beside spillway-replay (runtime/), which the runtime suites are told about.
QString calibrateTool() {
    const QString replay = qEnvironmentVariable("SPILLWAY_REPLAY");
    return QFileInfo(replay).dir().filePath("spillway-calibrate");
}

CliRun calibrate(const QStringList& args) { return runProgram(calibrateTool(), args, 300000); }

std::string fileBytes(const QString& path) {
    std::ifstream in(path.toStdString(), std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

class TestCalibrate : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;

private slots:
    void initTestCase() {
        QVERIFY2(!qEnvironmentVariable("SPILLWAY_REPLAY").isEmpty(), "SPILLWAY_REPLAY is not set (run through ctest)");
        QVERIFY2(QFileInfo(calibrateTool()).isExecutable(), qPrintable(calibrateTool()));
    }

    void withoutADeviceItSaysSoAndWritesNothing() {
        const QString out = dir_.filePath("machine.json");
        const CliRun r = calibrate({"-o", out, "--quick"});
        if (r.code == 0) {  // a machine with a GPU: the file is a machine --hw reads
            QVERIFY(spillway::loadHardware(out.toStdString())
                        .measured.curve(spillway::TransferDirection::ToGpu, spillway::TransferMechanism::PinnedCopy)
                        .points.size() == 3);
            return;
        }
        QCOMPARE(r.code, 3);
        // spillway-replay's words: "no CUDA device found (<cudaError name: text>)", or a build without nvcc
        const bool noDevice = r.err.contains("spillway-calibrate: no CUDA device found (cudaError");
        QVERIFY2(noDevice || r.err.contains("this build has no CUDA"), r.err.constData());
        QVERIFY(!QFile::exists(out));
        QVERIFY(!QFile::exists(out + ".part"));
    }

    // The output is checked first: a refusal costs no minute of measuring, and reads the same
    // with or without a GPU.
    void anExistingFileIsKeptWithoutForce() {
        const QString out = dir_.filePath("kept.json");
        std::ofstream(out.toStdString()) << "the user's file\n";
        const CliRun r = calibrate({"-o", out});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(out.toUtf8() + " exists; pass --force to overwrite it"), r.err.constData());
        QCOMPARE(fileBytes(out), std::string("the user's file\n"));
    }

    void withForceTheDeviceIsAsked() {
        const QString out = dir_.filePath("forced.json");
        std::ofstream(out.toStdString()) << "the user's file\n";
        const CliRun r = calibrate({"-o", out, "--force", "--quick"});
        if (r.code == 0) return;  // a GPU: overwritten with a machine (checked above)
        QCOMPARE(r.code, 3);      // past the output check, refused by the device check
        QCOMPARE(fileBytes(out), std::string("the user's file\n"));
    }

    void aFolderOrAMissingFolderIsAnOutputError() {
        const CliRun folder = calibrate({"-o", dir_.path()});
        QCOMPARE(folder.code, 2);
        QVERIFY2(folder.err.contains(dir_.path().toUtf8() + " is a folder"), folder.err.constData());
        const QString missing = dir_.filePath("no-such-folder/machine.json");
        const CliRun r = calibrate({"-o", missing, "--force"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(missing.toUtf8() + ": cannot write: no folder"), r.err.constData());
    }

    void usageErrorsExitTwo() {
        QCOMPARE(calibrate({}).code, 2);  // -o is required
        QCOMPARE(calibrate({"-o", dir_.filePath("x.json"), "--id", ""}).code, 2);
        QCOMPARE(calibrate({"-o", dir_.filePath("x.json"), "--surprise"}).code, 2);
        const CliRun help = calibrate({"--help"});
        QCOMPARE(help.code, 0);
        QVERIFY(help.out.contains("--quick") && help.out.contains("--force") && help.out.contains("--id"));
    }
};

QTEST_GUILESS_MAIN(TestCalibrate)
#include "tst_calibrate.moc"
