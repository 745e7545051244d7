// spillway-cli generate transformer: writes a profile that reads back with the counts the
// generator's formula gives (worked out by hand below), refuses to overwrite without --force, and
// names the bad option on bad input.
#include "core/io/native/native_json.h"
#include "core/trace/validate.h"

#include <QTemporaryDir>
#include <QTest>

#include "cli_runner.h"

using namespace spillway;

class TestCliGenerate : public QObject {
    Q_OBJECT
private slots:
    void smallTransformer() {
        QTemporaryDir dir;
        const QString out = dir.filePath("t.profile.json");
        const QStringList args = {"generate", "transformer", "--layers", "2", "--hidden", "64", "--heads", "4",
                                  "--seq", "16", "--vocab", "100", "--max-positions", "32", "--micro-batches", "1",
                                  "-o", out};
        const CliRun r = runCli(args);
        QCOMPARE(r.code, 0);
        const Profile p = readNativeProfile(out.toStdString());
        // 1 x (47 x 2 + 15) + 10 x (12 x 2 + 4) + 1 = 109 + 281 = 390 kernels.
        QCOMPARE(p.kernels.size(), size_t(390));
        QVERIFY(validateProfile(p).empty());
        QCOMPARE(runCli(args).code, 2);  // exists, no --force
    }

    void badHeadsNamed() {
        QTemporaryDir dir;
        const CliRun r = runCli({"generate", "transformer", "--heads", "7", "-o", dir.filePath("x.json")});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("heads"));
    }
};

QTEST_GUILESS_MAIN(TestCliGenerate)
#include "tst_cli_generate.moc"
