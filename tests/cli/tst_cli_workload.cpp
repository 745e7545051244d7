// `spillway-cli simulate WORKLOAD.json`: the multi-job path. The JSON carries, per job and for
// the system, what the validation tables need (peak, time, MSR, EOR, CBR against vanilla);
// bad workloads and unknown policies exit 2 naming the culprit.
#include "core/policy/multi_job_planner.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

#include "cli_runner.h"

using namespace spillway;

namespace {

const QString kSample = QStringLiteral(SPILLWAY_SOURCE_DIR "/samples/workloads/resnet18-x2.workload.json");

QJsonObject jsonOf(const CliRun& r) { return QJsonDocument::fromJson(r.out).object(); }

}  // namespace

class TestCliWorkload : public QObject {
    Q_OBJECT
private slots:
    void vanillaRunOfTheSample() {
        const auto r = runCli({"simulate", kSample, "--json", "-"});
        QCOMPARE(r.code, 0);
        const auto j = jsonOf(r);
        QCOMPARE(j["link_mode"].toString(), QString("single"));
        const auto runs = j["runs"].toArray();
        QCOMPARE(runs.size(), 1);
        const auto run = runs[0].toObject();
        QCOMPARE(run["policy"].toString(), QString("none"));
        const auto system = run["system"].toObject();
        // The vanilla run against itself: MSR 0, EOR 0, CBR undefined (null).
        QCOMPARE(system["msr"].toDouble(), 0.0);
        QCOMPARE(system["eor"].toDouble(), 0.0);
        QVERIFY(system["cbr"].isNull());
        const auto jobs = run["jobs"].toArray();
        QCOMPARE(jobs.size(), 2);
        qint64 peakSum = 0, peakMax = 0, latestEnd = 0;
        for (const auto& v : jobs) {
            const auto job = v.toObject();
            for (const char* key : {"msr", "eor", "cbr", "peak_gpu_bytes", "time_ns", "vanilla_peak_gpu_bytes",
                                    "vanilla_time_ns", "swap_stall_ns", "iteration_times_ns"})
                QVERIFY2(job.contains(key), key);
            const auto peak = job["peak_gpu_bytes"].toInteger();
            peakSum += peak;
            peakMax = std::max(peakMax, peak);
            latestEnd = std::max(latestEnd, job["end_ns"].toInteger());
            qint64 iterations = 0;
            for (const auto& t : job["iteration_times_ns"].toArray()) iterations += t.toInteger();
            QCOMPARE(iterations, job["time_ns"].toInteger());  // back to back from the start
        }
        QCOMPARE(jobs[0].toObject()["iterations"].toInt(), 3);
        QCOMPARE(jobs[1].toObject()["start_ns"].toInteger(), qint64(800'000'000));
        // Together at least the larger job, at most both at their peaks.
        const auto peak = system["peak_gpu_bytes"].toInteger();
        QVERIFY(peak >= peakMax && peak <= peakSum);
        QCOMPARE(system["time_ns"].toInteger(), latestEnd);
        // The second job's arrival re-planned both jobs.
        bool arrival = false;
        for (const auto& v : run["replans"].toArray()) {
            const auto e = v.toObject();
            if (e["time_ns"].toInteger() == 800'000'000 && e["reason"].toString() == "jobs-changed")
                arrival = e["jobs"].toArray().size() == 2 && e["started"].toArray()[0].toString() == "resnet18-b";
        }
        QVERIFY(arrival);
    }

    void policiesAndTable() {
        const auto list = runCli({"simulate", kSample, "--policy", "none,none", "--json", "-"});
        QCOMPARE(list.code, 0);
        QCOMPARE(jsonOf(list)["runs"].toArray().size(), 2);
        const auto all = runCli({"simulate", kSample, "--compare", "--json", "-", "--kernels"});
        QCOMPARE(all.code, 0);
        const auto runs = jsonOf(all)["runs"].toArray();
        QCOMPARE(runs.size(), static_cast<qsizetype>(multiJobPlanners().size()));
        QVERIFY(runs[0].toObject().contains("swap_tasks"));
        QVERIFY(runs[0].toObject()["jobs"].toArray()[0].toObject().contains("kernel_runs"));
        const auto table = runCli({"simulate", kSample});
        QCOMPARE(table.code, 0);
        for (const char* text : {"MSR", "EOR", "CBR", "resnet18-a", "resnet18-b", "system"})
            QVERIFY2(table.out.contains(text), text);
    }

    void aGpuTooSmallIsReportedNotCrashed() {
        const auto r = runCli({"simulate", kSample, "--set", "gpu_capacity=1MiB", "--json", "-"});
        QCOMPARE(r.code, 0);
        const auto j = jsonOf(r);
        QVERIFY(j["vanilla_cannot_run"].toString().contains("does not fit"));
        QVERIFY(j["runs"].toArray()[0].toObject()["cannot_run"].toString().contains("does not fit"));
    }

    void badInputExitsTwoNamingTheCulprit() {
        const auto policy = runCli({"simulate", kSample, "--policy", "magic"});
        QCOMPARE(policy.code, 2);
        QVERIFY(policy.err.contains("unknown multi-job policy \"magic\""));
        QTemporaryDir dir;
        const auto path = dir.filePath("bad.workload.json").toStdString();
        std::ofstream(path) << R"({"format": "spillway.workload/1", "hardware": "g10-a100", "link_mode": "both",
                                   "jobs": [{"profile": "x.json", "iterations": 1}]})";
        const auto bad = runCli({"simulate", QString::fromStdString(path), "--json", "-"});
        QCOMPARE(bad.code, 2);
        QCOMPARE(jsonOf(bad)["error"].toObject()["json_pointer"].toString(), QString("/link_mode"));
        const auto compare = runCli({"simulate", QStringLiteral(SPILLWAY_SOURCE_DIR "/samples/torch/resnet18-b2-cpu.profile.json"),
                                     "--compare"});
        QCOMPARE(compare.code, 2);
        QVERIFY(compare.err.contains("workload"));
    }
};

QTEST_GUILESS_MAIN(TestCliWorkload)
#include "tst_cli_workload.moc"
