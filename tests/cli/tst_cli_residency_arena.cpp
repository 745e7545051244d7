// `spillway-cli plan --no-faults --export` with an arena, on the machine of the real replays
// at 0.3 GiB (issue 16): the g10 and most plans move tensors out and back, and their arena now
// follows that residency (docs/plans.md), so it fits the GPU: the plan is written, its
// arena_bytes is at most 0.3 GiB, and `spillway-cli verify` passes it (faults not allowed).
// Before, both were refused: "[does-not-fit] the arena (345.49 MiB) does not fit in the GPU's
// 307.20 MiB".
#include "cli_runner.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

namespace {

const QString kSmallGpt = QStringLiteral(SPILLWAY_SOURCE_DIR "/samples/lessons/small-gpt.profile.json");
constexpr qint64 kPointThreeGiB = 322'122'547;  // 0.3 GiB as `--set gpu_capacity=0.3GiB` reads it

}  // namespace

class TestCliResidencyArena : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void exportsAndVerifies_data() {
        QTest::addColumn<QString>("policy");
        QTest::newRow("g10") << "g10";
        QTest::newRow("most") << "most";
    }
    void exportsAndVerifies() {
        QFETCH(QString, policy);
        const QString path = dir_.filePath(policy + ".plan.json");
        const CliRun made = runCli({"plan", kSmallGpt, "--hw", "g10-a100", "--set", "fault_model=analytic", "--set",
                                    "ssd_capacity=0", "--set", "weights_start_on=host", "--set", "gpu_capacity=0.3GiB",
                                    "--set", "host_to_gpu.bandwidth=40.72GB/s", "--set",
                                    "gpu_to_host.bandwidth=14.85GB/s", "--policy", policy, "--order", "program",
                                    "--placement", "best", "--export", path, "--no-faults"});
        QVERIFY2(made.code == 0, made.err.constData());
        QVERIFY(made.out.contains("no kernel uses a tensor that is not on the GPU"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject plan = QJsonDocument::fromJson(file.readAll()).object();
        QCOMPARE(plan["allow_faults"].toBool(true), false);
        const qint64 arena = plan["arena_bytes"].toInteger();
        QVERIFY2(arena > 0 && arena <= kPointThreeGiB, qPrintable(QString::number(arena)));
        QCOMPARE(plan["hardware"].toObject()["gpu_capacity_bytes"].toInteger(), kPointThreeGiB);

        const CliRun verified = runCli({"verify", path, kSmallGpt});
        QVERIFY2(verified.code == 0, verified.err.constData());
        QVERIFY2(verified.out.contains(": ok against"), verified.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliResidencyArena)
#include "tst_cli_residency_arena.moc"
