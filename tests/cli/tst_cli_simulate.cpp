// Runs the real spillway-cli: presets, simulate, compare and the simulator half of bench.
// Usage errors (unknown preset, key, policy, bad value) exit 2 with a message naming the
// culprit; results in JSON obey the engine's invariants (the split sums to the iteration time).
#include "core/io/native/native_json.h"
#include "core/io/profile_loader.h"
#include "core/hardware/hardware_presets.h"
#include "core/trace/profile.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "cli_runner.h"

using namespace spillway;

namespace {

const QString kBert = QStringLiteral(SPILLWAY_SHARED_DATA "/g10/derived/BERT_Base_256");

// Five kernels over 8 MiB of 2 MiB tensors: a weight, an activation written in the forward
// pass and read in the backward pass, a temporary that is dead after `loss` (what UVM Discard
// is for), and a gradient. No kernel needs more than 6 MiB at once.
Profile smallTraining() {
    Profile p;
    p.metadata.model = "tiny";
    p.metadata.batch = 1;
    p.metadata.source = "test";
    p.jobs = {{0, "tiny"}};
    p.tensors = {{.id = 1, .name = "w", .bytes = 2 * kMiB, .kind = TensorKind::Weight, .persistent = true},
                 {.id = 2, .name = "act", .bytes = 2 * kMiB, .kind = TensorKind::Activation},
                 {.id = 3, .name = "tmp", .bytes = 2 * kMiB, .kind = TensorKind::Temporary},
                 {.id = 4, .name = "grad", .bytes = 2 * kMiB, .kind = TensorKind::Gradient}};
    p.kernels = {{.id = 0, .name = "fwd", .duration = 100'000, .inputs = {1}, .outputs = {2}},
                 {.id = 1, .name = "tmpk", .duration = 50'000, .inputs = {2}, .outputs = {3}},
                 {.id = 2, .name = "loss", .duration = 20'000, .inputs = {3}},
                 {.id = 3, .name = "bwd", .duration = 200'000, .inputs = {2, 1}, .outputs = {4},
                  .phase = KernelPhase::Backward},
                 {.id = 4, .name = "update", .duration = 30'000, .inputs = {4}, .outputs = {1},
                  .phase = KernelPhase::Optimizer}};
    return p;
}

Nanoseconds sumOfDurations(const Profile& p) {
    Nanoseconds sum = 0;
    for (const auto& k : p.kernels) sum += k.duration;
    return sum;
}

// The JSON invariants every simulation result must hold.
void checkTotals(const QJsonObject& j, Nanoseconds ideal) {
    const auto iteration = j["iteration_time_ns"].toInteger();
    QVERIFY2(iteration >= ideal, qPrintable(QString("%1 < %2").arg(iteration).arg(ideal)));
    QCOMPARE(j["ideal_time_ns"].toInteger(), ideal);
    const auto split = j["stall_split_ns"].toObject();
    QCOMPARE(split.keys().size(), 4);
    qint64 sum = 0;
    for (const auto& key : split.keys()) {
        QVERIFY(split[key].toInteger() >= 0);
        sum += split[key].toInteger();
    }
    QCOMPARE(sum, iteration);
    const auto traffic = j["traffic_bytes"].toObject();
    for (const char* link : {"host_to_gpu", "gpu_to_host", "ssd_to_gpu", "gpu_to_ssd", "ssd_to_host", "host_to_ssd", "nvlink"}) {
        QVERIFY2(traffic.contains(link), link);
        QVERIFY(traffic[link].toInteger() >= 0);
    }
}

}  // namespace

class TestCliSimulate : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QString tiny_;

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        tiny_ = dir_.filePath("tiny.json");
        saveNativeProfile(smallTraining(), tiny_.toStdString());
    }

    void helpOnNewCommands() {
        for (const QString cmd : {"simulate", "compare", "presets", "bench"}) {
            const auto r = runCli({cmd, "--help"});
            QCOMPARE(r.code, 0);
            QVERIFY2(r.out.contains("--set") || cmd == "presets", qPrintable(cmd));
        }
    }

    void presetsListsPresetsAndKeys() {
        const auto r = runCli({"presets", "--json"});
        QCOMPARE(r.code, 0);
        const auto j = QJsonDocument::fromJson(r.out).object();
        QStringList ids;
        for (const auto& p : j["presets"].toArray()) ids << p.toObject()["id"].toString();
        QCOMPARE(ids.size(), int(hardwarePresetIds().size()));
        for (const auto& id : hardwarePresetIds()) QVERIFY(ids.contains(QString::fromStdString(id)));
        bool found = false;
        for (const auto& k : j["keys"].toArray())
            found = found || (k.toObject()["name"] == "gpu_capacity_bytes" && k.toObject()["alias"] == "gpu_capacity");
        QVERIFY(found);
        const auto text = runCli({"presets"});
        QCOMPARE(text.code, 0);
        QVERIFY(text.out.contains("ssd.bandwidth"));
    }

    // The JSON a preset prints is a hardware file: edit it, pass it back with --hw.
    void presetJsonIsAHardwareFile() {
        const auto r = runCli({"presets", "most-rtx4090", "--set", "gpu_capacity=12GiB", "--json"});
        QCOMPARE(r.code, 0);
        const auto j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j["gpu_capacity_bytes"].toInteger(), 12 * kGiB);
        QCOMPARE(j["ssd_to_gpu"].toObject()["bytes_per_s"].toInteger(), qint64(3'200'000'000));
        const auto path = dir_.filePath("mine.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(r.out);
        f.close();
        const auto back = runCli({"presets", path, "--json"});
        QCOMPARE(back.code, 0);
        QCOMPARE(QJsonDocument::fromJson(back.out).object(), j);
    }

    void usageErrorsExitTwoNamingTheCulprit() {
        struct Case {
            QStringList args;
            QByteArray culprit;
        };
        const Case cases[] = {
            {{"simulate", tiny_, "--hw", "a100"}, "a100"},
            {{"simulate", tiny_, "--set", "gpu_capacty=1GiB"}, "gpu_capacty"},
            {{"simulate", tiny_, "--set", "gpu_capacity=lots"}, "gpu_capacity"},
            {{"simulate", tiny_, "--set", "fault_model=exact"}, "g10-calibrated"},
            {{"simulate", tiny_, "--set", "gpu_count=0"}, "gpu_count"},
            {{"simulate", tiny_, "--set", "novalue"}, "key=value"},
            {{"simulate", tiny_, "--policy", "lru"}, "lru"},
            {{"simulate", tiny_, "--policy", "g10+discrad"}, "discrad"},
            {{"compare", tiny_, "--policies", "uvm,nope"}, "nope"},
            {{"presets", "most-rtx4090", "--set", "ssd.bandwidth=fast"}, "ssd.bandwidth"},
            {{"simulate", dir_.filePath("missing.json")}, "missing.json"},
        };
        for (const auto& c : cases) {
            const auto r = runCli(c.args);
            QVERIFY2(r.code == 2, qPrintable(c.args.join(' ') + " -> " + QString::number(r.code)));
            QVERIFY2(r.err.contains(c.culprit), qPrintable(c.args.join(' ') + ": " + r.err));
        }
        // With --json -, the error is JSON on stdout too.
        const auto r = runCli({"simulate", tiny_, "--set", "bogus=1", "--json", "-"});
        QCOMPARE(r.code, 2);
        QVERIFY(QJsonDocument::fromJson(r.out).object()["error"].toObject()["message"].toString().contains("bogus"));
    }

    void simulateSmallProfileJson() {
        // One iteration, so the weight's first trip from host memory is in the reported one.
        const auto r = runCli({"simulate", tiny_, "--hw", "discard-3080ti-pcie4", "--policy", "uvm", "--json", "-",
                               "--kernels", "--set", "iterations=1"});
        QVERIFY2(r.code == 0, r.err.constData());
        const auto j = QJsonDocument::fromJson(r.out).object();
        checkTotals(j, sumOfDurations(smallTraining()));
        QCOMPARE(j["hardware"].toObject()["id"].toString(), QString("discard-3080ti-pcie4"));
        QCOMPARE(j["policy"].toString(), QString("uvm"));
        // The weight starts on the host, so at least its 2 MiB cross PCIe into the GPU.
        QVERIFY(j["traffic_bytes"].toObject()["host_to_gpu"].toInteger() >= 2 * kMiB);
        const auto kernels = j["kernel_timings"].toArray();
        QCOMPARE(kernels.size(), 5);
        qint64 previousEnd = 0;
        for (const auto& k : kernels) {
            const auto o = k.toObject();
            QVERIFY(o["start_ns"].toInteger() >= previousEnd);
            QCOMPARE(o["compute_ns"].toInteger() + o["fault_stall_ns"].toInteger() + o["oversub_stall_ns"].toInteger() +
                         o["late_prefetch_stall_ns"].toInteger(),
                     o["end_ns"].toInteger() - o["start_ns"].toInteger());
            previousEnd = o["end_ns"].toInteger();
        }
    }

    // Overrides change the answer: a slower PCIe never makes the iteration faster, and the run
    // records the overrides it used.
    void overridesReachTheSimulation() {
        const auto fast = runCli({"simulate", tiny_, "--hw", "discard-3080ti-pcie4", "--set", "iterations=1", "--json", "-"});
        const auto slow = runCli({"simulate", tiny_, "--hw", "discard-3080ti-pcie4", "--set", "iterations=1", "--set",
                                  "pcie.bandwidth=1GB/s", "--json", "-"});
        QVERIFY2(fast.code == 0 && slow.code == 0, (fast.err + slow.err).constData());
        const auto f = QJsonDocument::fromJson(fast.out).object();
        const auto s = QJsonDocument::fromJson(slow.out).object();
        QVERIFY(s["iteration_time_ns"].toInteger() > f["iteration_time_ns"].toInteger());
        QCOMPARE(s["overrides"].toArray().last().toString(), QString("pcie.bandwidth=1GB/s"));
    }

    void simulateWritesJsonFileAndPrintsText() {
        const auto out = dir_.filePath("result.json");
        const auto r = runCli({"simulate", tiny_, "--hw", "discard-3080ti-pcie3", "--json", out});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(r.out.contains("Iteration"));
        QVERIFY(r.out.contains("oversubscription stall"));
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        checkTotals(QJsonDocument::fromJson(f.readAll()).object(), sumOfDurations(smallTraining()));
    }

    // --chrome-trace: a Trace Event JSON with one kernel slice per kernel, in run order and
    // named after it, and an unwritable path refused with the path named (core's test checks
    // the mapping itself).
    void simulateWritesChromeTrace() {
        const QString out = dir_.filePath("tiny.trace.json");
        const auto r = runCli({"simulate", tiny_, "--hw", "g10-a100", "--set", "gpu_capacity=6MiB", "--policy", "uvm",
                               "--chrome-trace", out});
        QVERIFY2(r.code == 0, r.err.constData());
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto j = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(j["displayTimeUnit"].toString(), QString("ns"));
        QStringList kernels;
        int transfers = 0;
        for (const auto& e : j["traceEvents"].toArray()) {
            const auto o = e.toObject();
            if (o["ph"] == "X" && o["cat"] == "kernel") kernels << o["name"].toString();
            transfers += o["ph"] == "X" && o["cat"] == "transfer";
        }
        QCOMPARE(kernels, (QStringList{"fwd", "tmpk", "loss", "bwd", "update"}));
        QVERIFY(transfers > 0);  // 8 MiB through 6 MiB: something moves
        const auto bad = runCli({"simulate", tiny_, "--hw", "g10-a100", "--chrome-trace", "/nonexistent-dir/t.json"});
        QCOMPARE(bad.code, 2);
        QVERIFY(bad.err.contains("/nonexistent-dir/t.json"));
    }

    // The real thing: BERT batch 256 (148 GiB footprint) on G10's A100 under UVM.
    void simulateBertUvm() {
        const auto r = runCli({"simulate", kBert, "--hw", "g10-a100", "--policy", "uvm", "--json", "-"});
        QVERIFY2(r.code == 0, r.err.constData());
        const auto j = QJsonDocument::fromJson(r.out).object();
        const auto profile = loadProfile(kBert.toStdString());
        checkTotals(j, sumOfDurations(profile));
        QCOMPARE(j["kernels"].toInteger(), qint64(profile.kernels.size()));
        // 148 GiB through a 40 GiB GPU: UVM must fault, and move more than the GPU holds.
        QVERIFY(j["stall_split_ns"].toObject()["fault_stall"].toInteger() > 0);
        const auto traffic = j["traffic_bytes"].toObject();
        qint64 in = 0;
        for (const char* link : {"host_to_gpu", "ssd_to_gpu"}) in += traffic[link].toInteger();
        QVERIFY(in > 40 * kGiB);
    }

    // G10's FlashNeuron cannot run ViT-1280 on 40 GiB: the JSON says why, the text says so,
    // and the exit code is still 0 (an impossible run is a result, not an error).
    void simulateImpossibleRunSaysWhy() {
        const QString vit = QStringLiteral(SPILLWAY_SHARED_DATA "/g10/derived/VIT_1280");
        const auto r = runCli({"simulate", vit, "--hw", "g10-a100", "--policy", "flashneuron", "--json", "-"});
        QVERIFY2(r.code == 0, r.err.constData());
        const auto j = QJsonDocument::fromJson(r.out).object();
        QVERIFY(j["cannot_run"].toString().startsWith("does not fit: tensor "));
        QCOMPARE(j["iteration_time_ns"].toInteger(), qint64(0));
        const auto text = runCli({"simulate", vit, "--hw", "g10-a100", "--policy", "flashneuron"});
        QVERIFY(text.out.contains("memory contiguous-first-fit"));
        QVERIFY(text.out.contains("Cannot run  does not fit"));
    }

    // 8 MiB of tensors through a 6 MiB GPU: uvm must evict; discard drops the dead temporary
    // instead of writing it back.
    void compareRowsAndSpeedups() {
        const auto r = runCli({"compare", tiny_, "--hw", "discard-3080ti-pcie4", "--policies", "uvm,uvm+discard",
                               "--set", "gpu_capacity=6MiB", "--json"});
        QVERIFY2(r.code == 0, r.err.constData());
        const auto j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j["baseline"].toString(), QString("uvm"));
        const auto rows = j["rows"].toArray();
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows[0].toObject()["speedup"].toDouble(), 1.0);
        const auto base = rows[0].toObject()["iteration_time_ns"].toDouble();
        const auto other = rows[1].toObject()["iteration_time_ns"].toDouble();
        QVERIFY(qAbs(rows[1].toObject()["speedup"].toDouble() - base / other) < 1e-9);
        for (const auto& row : rows) checkTotals(row.toObject(), sumOfDurations(smallTraining()));
        QVERIFY(rows[0].toObject()["traffic_bytes"].toObject()["gpu_to_host"].toInteger() > 0);
        QVERIFY(rows[1].toObject()["discard_saved_bytes"].toInteger() > 0);
        const auto text = runCli({"compare", tiny_, "--hw", "discard-3080ti-pcie4", "--policies", "uvm,uvm+discard",
                                  "--set", "gpu_capacity=6MiB"});
        QCOMPARE(text.code, 0);
        QVERIFY(text.out.contains("uvm+discard"));
        QVERIFY(text.out.contains("1.00x"));
    }

    // Two GPUs over a 1 GB/s NVLink: every kernel scatters half its inputs and reduces half its
    // outputs at 1 B/ns (the 2 MiB gradient alone: 1 MiB out of its producer, 1 MiB into `update`,
    // and more for the other tensors), so an NVLink column appears, in the text and in every JSON row.
    void compareShowsNvlinkStall() {
        const QStringList args{"compare", tiny_, "--hw", "discard-3080ti-pcie4", "--policies", "uvm,uvm+discard",
                               "--set", "gpu_count=2", "--set", "nvlink.bandwidth=1GB/s"};
        const auto r = runCli(args + QStringList{"--json"});
        QVERIFY2(r.code == 0, r.err.constData());
        const auto rows = QJsonDocument::fromJson(r.out).object()["rows"].toArray();
        QCOMPARE(rows.size(), 2);
        for (const auto& row : rows) {
            const auto split = row.toObject()["stall_split_ns"].toObject();
            QVERIFY(split.contains("nvlink_stall"));
            QVERIFY(split["nvlink_stall"].toInteger() >= 4'194'304);
        }
        const auto text = runCli(args);
        QCOMPARE(text.code, 0);
        QVERIFY(text.out.contains("nvlink"));
        // One GPU: no NVLink stall, no column.
        const auto one = runCli({"compare", tiny_, "--hw", "discard-3080ti-pcie4", "--policies", "uvm"});
        QCOMPARE(one.code, 0);
        QVERIFY(!one.out.contains("nvlink"));
    }

    // The simulator benchmark on a small profile: one row per policy with a time and a peak.
    void benchSimulatorRows() {
        const auto r = runCli({"bench", "--skip-import", "--sim-workload", tiny_, "--sim-repeat", "1", "--policies",
                               "uvm", "--hw", "discard-3080ti-pcie4", "--json"});
        QVERIFY2(r.code == 0, r.err.constData());
        const auto sim = QJsonDocument::fromJson(r.out).object()["simulator"].toObject();
        const auto rows = sim["workloads"].toArray().first().toObject()["rows"].toArray();
        QCOMPARE(rows.size(), 1);
        const auto row = rows.first().toObject();
        QVERIFY2(!row.contains("error"), qPrintable(row["error"].toString()));
        QVERIFY(row["peak_rss_bytes"].toInteger() > 0);
        QVERIFY(row["simulate_median_ms"].toDouble() >= 0);
        QVERIFY(row["ratio_to_import"].toDouble() > 0);
    }
};

QTEST_GUILESS_MAIN(TestCliSimulate)
#include "tst_cli_simulate.moc"
