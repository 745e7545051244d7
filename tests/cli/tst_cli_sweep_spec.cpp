// spillway-cli sweep SPEC.json (issue 21): the sample spec run locally equals its 3 shards run
// one thread each and merged (CSV and SQLite); a killed shard resumes; merge refuses missing
// cells unless asked and names the file and line of a mixed hash; --slurm writes scripts that,
// run as Slurm would run them, give the same table, and --submit hands them to sbatch (a stand-in
// here: the real one is tests/slurm) with the merge after the shards; a bad spec is named with
// its JSON pointer, and the one-parameter sweep's options are refused beside a spec.
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "cli_runner.h"

namespace {

const QString kSpec = QStringLiteral(SPILLWAY_SOURCE_DIR "/samples/sweeps/small-gpt.sweep.json");

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// A program run in `dir` with extra environment, as Slurm or a user's shell would run it.
CliRun runIn(const QString& dir, const QString& program, const QStringList& args,
             const QStringList& environment = {}) {
    QProcess p;
    p.setWorkingDirectory(dir);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString& kv : environment) env.insert(kv.section('=', 0, 0), kv.section('=', 1));
    p.setProcessEnvironment(env);
    p.start(program, args);
    CliRun r;
    if (!p.waitForFinished(300000)) return r;
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

}  // namespace

class TestCliSweepSpec : public QObject {
    Q_OBJECT
private slots:
    void shardsMergeToTheLocalRun() {
        QTemporaryDir dir;
        const QString cli = QStringLiteral(SPILLWAY_CLI_PATH);
        CliRun r = runIn(dir.path(), cli, {"sweep", kSpec});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(QFile::exists(dir.filePath("small-gpt.sweep.jsonl")));  // the default name, here
        r = runCli({"sweep", "merge", dir.filePath("small-gpt.sweep.jsonl"), "--csv", dir.filePath("local.csv")});
        QVERIFY2(r.code == 0, r.err.constData());
        QStringList shards;
        for (int k = 0; k < 3; ++k) {
            r = runIn(dir.path(), cli, {"sweep", kSpec, "--shard", QString("%1/3").arg(k), "--threads", "1"});
            QVERIFY2(r.code == 0, r.err.constData());
            shards << dir.filePath(QString("small-gpt.sweep.shard-%1-of-3.jsonl").arg(k));
        }
        r = runCli(QStringList{"sweep", "merge"} + shards +
                   QStringList{"--csv", dir.filePath("m.csv"), "--sqlite", dir.filePath("m.sqlite")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QByteArray local = readAll(dir.filePath("local.csv"));
        QCOMPARE(readAll(dir.filePath("m.csv")), local);
        QCOMPARE(local.count('\n'), 1 + 54);  // 3 GPU sizes x 3 bandwidths x 2 samples x 3 policies
        QVERIFY(local.startsWith("cell,profile,policy,gpu_capacity_bytes,pcie.bytes_per_s,fault_latency_ns,ok,"
                                 "iteration_time_s,stall_s,"));
        QVERIFY(readAll(dir.filePath("m.sqlite")).startsWith("SQLite format 3"));

        // Missing cells: refused with their count, written with --allow-missing.
        r = runCli({"sweep", "merge", shards[0], shards[2], "--csv", dir.filePath("part.csv")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("18 of the sweep's 54 cells are missing"), r.err.constData());
        QVERIFY(!QFile::exists(dir.filePath("part.csv")));
        r = runCli({"sweep", "merge", shards[0], shards[2], "--csv", dir.filePath("part.csv"), "--allow-missing"});
        QCOMPARE(r.code, 0);
        QCOMPARE(readAll(dir.filePath("part.csv")).count('\n'), 1 + 36);

        // A shard killed mid-line resumes: the same file as before, the same merge.
        const QByteArray whole = readAll(shards[1]);
        QFile f(shards[1]);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(whole.left(whole.size() - 25));
        f.close();
        r = runIn(dir.path(), cli, {"sweep", kSpec, "--shard", "1/3"});
        QVERIFY2(r.code == 0 && r.out.contains("17 already in") && r.out.contains("1 run now"), r.out.constData());
        r = runCli(QStringList{"sweep", "merge"} + shards + QStringList{"--csv", dir.filePath("again.csv")});
        QCOMPARE(readAll(dir.filePath("again.csv")), local);

        // Shards of another sweep: refused, naming the file and the line.
        QByteArray other = readAll(shards[2]);
        other.replace("\"spec_hash\":\"sha256:", "\"spec_hash\":\"sha256:0");
        QFile g(shards[2]);
        QVERIFY(g.open(QIODevice::WriteOnly));
        g.write(other);
        g.close();
        r = runCli(QStringList{"sweep", "merge"} + shards + QStringList{"--csv", dir.filePath("mixed.csv")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(shards[2].toUtf8() + ":1: spec hash"), r.err.constData());
        r = runIn(dir.path(), cli, {"sweep", kSpec, "--shard", "2/3"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("small-gpt.sweep.shard-2-of-3.jsonl:1: results of another sweep"), r.err.constData());
    }

    void slurmScriptsRunAsSlurmWouldAndSubmit() {
        QTemporaryDir dir;
        const QString slurm = dir.filePath("slurm");
        CliRun r = runCli({"sweep", kSpec, "--slurm", slurm, "--shards", "4", "--partition", "cpu", "--time",
                           "00:10:00", "--cpus-per-task", "2"});
        QVERIFY2(r.code == 0, r.err.constData());
        const QByteArray shardsScript = readAll(slurm + "/shards.sbatch");
        QVERIFY(shardsScript.contains("#SBATCH --array=0-3\n"));
        QVERIFY(shardsScript.contains("#SBATCH --partition=cpu\n"));
        QVERIFY(shardsScript.contains("#SBATCH --cpus-per-task=2\n"));
        QVERIFY(shardsScript.contains("'" SPILLWAY_CLI_PATH "' sweep '" + kSpec.toUtf8() + "' --shard"));
        // Each array task as Slurm runs it (from another folder), then the merge job.
        for (int k = 0; k < 4; ++k) {
            r = runIn(dir.path(), "bash", {slurm + "/shards.sbatch"},
                      {QString("SLURM_ARRAY_TASK_ID=%1").arg(k), "SLURM_CPUS_PER_TASK=1"});
            QVERIFY2(r.code == 0, r.err.constData());
        }
        r = runIn(dir.path(), "bash", {slurm + "/merge.sbatch"});
        QVERIFY2(r.code == 0, r.err.constData());
        r = runIn(dir.path(), SPILLWAY_CLI_PATH, {"sweep", kSpec, "--out", "local.jsonl"});
        QVERIFY2(r.code == 0, r.err.constData());
        r = runCli({"sweep", "merge", dir.filePath("local.jsonl"), "--csv", dir.filePath("local.csv")});
        QCOMPARE(readAll(slurm + "/merged.csv"), readAll(dir.filePath("local.csv")));
        QVERIFY(QFile::exists(slurm + "/merged.sqlite"));

        // --submit: a stand-in sbatch that records its arguments and answers with job ids.
        const QString bin = dir.filePath("bin");
        QVERIFY(QDir().mkpath(bin));
        QFile sbatch(bin + "/sbatch");
        QVERIFY(sbatch.open(QIODevice::WriteOnly));
        sbatch.write("#!/bin/sh\necho \"$@\" >> \"$(dirname \"$0\")/calls\"\n"
                     "case \"$*\" in *merge.sbatch) echo '77;cluster' ;; *) echo 76 ;; esac\n");
        sbatch.close();
        sbatch.setPermissions(sbatch.permissions() | QFileDevice::ExeOwner);
        r = runIn(dir.path(), SPILLWAY_CLI_PATH, {"sweep", kSpec, "--slurm", slurm, "--shards", "4", "--submit"},
                  {"PATH=" + bin + ":" + qEnvironmentVariable("PATH")});
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(r.out, QByteArray("shards 76\nmerge 77\n"));
        QCOMPARE(readAll(bin + "/calls"), ("--parsable " + slurm + "/shards.sbatch\n--parsable "
                                           "--dependency=afterok:76 " + slurm + "/merge.sbatch\n").toUtf8());
    }

    void mistakesAreNamed() {
        QTemporaryDir dir;
        const QString bad = dir.filePath("bad.sweep.json");
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"format": "spillway.sweep/1", "profiles": ["x"], "policies": ["uvm"], "hardware": "g10-a100",
                   "axes": [{"key": "gpu_capacity", "values": ["lots"]}]})");
        f.close();
        CliRun r = runCli({"sweep", bad});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(bad.toUtf8() + ": /axes/0/values/0"), r.err.constData());
        r = runCli({"sweep", kSpec, "--param", "gpu_capacity", "--out", dir.filePath("x.jsonl")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--param does not go with a sweep spec"), r.err.constData());
        r = runCli({"sweep", kSpec, "--shard", "2/2", "--out", dir.filePath("x.jsonl")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("0 <= K < N"), r.err.constData());
        r = runCli({"sweep", kSpec, "--slurm", dir.filePath("s")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--shards N"), r.err.constData());
        // The one-parameter sweep keeps its usage, and refuses the spec's options.
        r = runCli({"sweep", SPILLWAY_SOURCE_DIR "/samples/lessons/small-gpt.profile.json", "--param", "gpu_capacity",
                    "--values", "256MiB", "--policies", "uvm", "--shard", "0/2"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--shard goes with a sweep spec"), r.err.constData());
        r = runCli({"sweep", SPILLWAY_SOURCE_DIR "/samples/lessons/small-gpt.profile.json", "--values", "256MiB"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--param is required"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliSweepSpec)
#include "tst_cli_sweep_spec.moc"
