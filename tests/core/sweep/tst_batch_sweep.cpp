// A sweep over batch profiles: the values are the profiles' batches in increasing order whatever
// order they were given in, each cell is what planning and simulating that profile with that
// policy gives directly, and every bad set of profiles (unknown batch, the same batch twice,
// different models, no kernel times, an input that cannot be re-imported at another batch) is
// refused before anything runs, naming the file.
#include "core/io/base/import_error.h"
#include "core/io/native/native_json.h"
#include "core/policy/planner.h"
#include "core/hardware/hardware_presets.h"
#include "core/sim/simulator.h"
#include "core/sweep/batch_profiles.h"
#include "core/sweep/parameter_sweep.h"
#include "core/trace/transformer_training_graph.h"
#include "tests/support/tiny_gpt.h"

#include <QtTest>

#include <atomic>

using namespace spillway;

namespace {

// Two layers unless a test says otherwise (tests/support/tiny_gpt.h).
std::shared_ptr<const Profile> tinyGpt(std::int64_t batch, std::int64_t layers = 2) { return test::tinyGpt(batch, layers); }

// G10's A100 with 8 MiB of GPU memory: every batch is oversubscribed (peak 12 MiB at batch 4).
HardwareConfig smallGpu() {
    HardwareConfig hw = hardwarePreset("g10-a100");
    applyHardwareOverrides(hw, {"gpu_capacity=8MiB"});
    return hw;
}

SweepSpec policies(std::vector<std::string> names) {
    SweepSpec spec;
    spec.baseHardware = smallGpu();
    spec.policies = std::move(names);
    return spec;
}

// The message orderByBatch (or a loader) gives for `profiles`; empty when it accepted them.
QString refusal(std::vector<BatchProfile> profiles) {
    try {
        orderByBatch(std::move(profiles));
    } catch (const ImportError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

}  // namespace

class TestBatchSweep : public QObject {
    Q_OBJECT
private slots:
    void valuesAreSortedBatchesAndCellsEqualDirectRuns() {
        std::vector<BatchProfile> given{{"b4", tinyGpt(4)}, {"b1", tinyGpt(1)}, {"b2", tinyGpt(2)}};
        std::vector<std::pair<size_t, size_t>> progress;
        SweepOptions options;
        options.progress = [&](size_t done, size_t total) { progress.emplace_back(done, total); };
        const SweepResult r = runBatchSweep(given, policies({"uvm", "g10", "most"}), options);
        QVERIFY(r.spec.sweepsBatch());
        QCOMPARE(r.spec.values, (std::vector<std::string>{"1", "2", "4"}));
        QCOMPARE(r.spec.profileSources, (std::vector<std::string>{"b1", "b2", "b4"}));
        QCOMPARE(r.cells.size(), size_t(9));
        const HardwareConfig hw = smallGpu();
        const std::map<std::string, const Profile*> bySource{
            {"b1", given[1].profile.get()}, {"b2", given[2].profile.get()}, {"b4", given[0].profile.get()}};
        for (size_t v = 0; v < 3; ++v) {
            const Profile& p = *bySource.at(r.spec.profileSources[v]);
            for (size_t k = 0; k < 3; ++k) {
                const SweepCell& c = r.at(v, k);
                QVERIFY2(c.ok, c.error.c_str());
                QCOMPARE(c.value, r.spec.values[v]);
                const SimulationResult direct = simulate(p, makePlan(c.policy, p, hw), hw);
                QCOMPARE(c.iterationTime, direct.iterationTime);
                QCOMPARE(c.totals.compute, direct.totals.compute);
                QCOMPARE(c.totals.faultStall, direct.totals.faultStall);
                QCOMPARE(c.peakGpuBytes, direct.peakGpuBytes);
            }
            // Speedup is over the baseline at the same batch, not at another one.
            QCOMPARE(r.speedup(v, 0), 1.0);
            QCOMPARE(r.speedup(v, 2), double(r.at(v, 0).iterationTime) / double(r.at(v, 2).iterationTime));
        }
        // A larger batch has more to move: plain UVM stalls longer on the same GPU.
        QVERIFY(r.at(0, 0).iterationTime < r.at(2, 0).iterationTime);
        QCOMPARE(progress.size(), size_t(9));
        QCOMPARE(progress.back(), std::make_pair(size_t(9), size_t(9)));
    }

    void badSetsAreRefusedNamingTheFile() {
        auto noBatch = std::make_shared<Profile>(*tinyGpt(2));
        noBatch->metadata.batch = 0;
        QString m = refusal({{"a.json", tinyGpt(1)}, {"nobatch.json", noBatch}});
        QVERIFY2(m.startsWith("nobatch.json: ") && m.contains("batch size is unknown"), qPrintable(m));

        m = refusal({{"a.json", tinyGpt(2)}, {"b.json", tinyGpt(4)}, {"c.json", tinyGpt(2)}});
        QVERIFY2(m.startsWith("c.json: ") && m.contains("batch 2") && m.contains("a.json"), qPrintable(m));

        m = refusal({{"a.json", tinyGpt(1)}, {"deeper.json", tinyGpt(2, 3)}});
        QVERIFY2(m.startsWith("deeper.json: ") && m.contains("L3") && m.contains("L2") && m.contains("a.json"),
                 qPrintable(m));

        auto noTimes = std::make_shared<Profile>(*tinyGpt(2));
        for (Kernel& k : noTimes->kernels) k.duration = 0;
        m = refusal({{"a.json", tinyGpt(1)}, {"graph.txt at batch 2", noTimes}});
        QVERIFY2(m.startsWith("graph.txt at batch 2: ") && m.contains("no kernel times"), qPrintable(m));

        QVERIFY(!refusal({}).isEmpty());
        QVERIFY(refusal({{"a.json", tinyGpt(2)}, {"b.json", tinyGpt(1)}}).isEmpty());

        // Nothing runs before the check.
        int calls = 0;
        SweepOptions options;
        options.progress = [&](size_t, size_t) { ++calls; };
        QVERIFY_THROWS_EXCEPTION(ImportError, runBatchSweep({{"a", tinyGpt(1)}, {"b", tinyGpt(1)}},
                                                            policies({"uvm"}), options));
        QCOMPARE(calls, 0);
    }

    void filesLoadWithTheirPathsAsSources() {
        QTemporaryDir dir;
        const std::string p4 = dir.filePath("gpt-4.json").toStdString(), p1 = dir.filePath("gpt-1.json").toStdString();
        saveNativeProfile(*tinyGpt(4), p4);
        saveNativeProfile(*tinyGpt(1), p1);
        const auto loaded = orderByBatch(loadBatchProfiles({p4, p1}));
        QCOMPARE(loaded.size(), size_t(2));
        QCOMPARE(loaded[0].source, p1);
        QCOMPARE(loaded[0].profile->metadata.batch, std::int64_t(1));
        QCOMPARE(*loaded[1].profile, *tinyGpt(4));
        // A missing file is the loader's error, naming it.
        const std::string missing = dir.filePath("nope.json").toStdString();
        try {
            loadBatchProfiles({p1, missing});
            QFAIL("a missing file was accepted");
        } catch (const ImportError& e) {
            QCOMPARE(e.location().file, missing);
        }
        // A native profile keeps its batch: it cannot be re-imported at another one.
        try {
            importAtBatches(p4, {4, 8});
            QFAIL("a native profile was re-imported at batch 8");
        } catch (const ImportError& e) {
            QCOMPARE(e.location().file, p4);
            QVERIFY2(QString(e.what()).contains("batch 8"), e.what());
        }
    }

    void g10GraphReimportedAtEachBatch() {
        const std::string graph = SPILLWAY_SHARED_DATA "/g10/frontend/Nets/BERT_Base.txt";
        const std::string results = SPILLWAY_SHARED_DATA "/g10/results/BERT_Base";
        if (!QFile::exists(QString::fromStdString(graph))) QSKIP("shared G10 data not present");
        ImportOptions options;
        options.resultsDir = results;
        const auto profiles = orderByBatch(importAtBatches(graph, {512, 256}, options));
        QCOMPARE(profiles[0].profile->metadata.batch, std::int64_t(256));
        QCOMPARE(profiles[1].profile->metadata.batch, std::int64_t(512));
        QCOMPARE(profiles[0].profile->kernels.size(), profiles[1].profile->kernels.size());
        // Same graph, twice the batch: more bytes of tensors and more measured time.
        QVERIFY(profiles[1].profile->totalTensorBytes() > profiles[0].profile->totalTensorBytes());
        QVERIFY(profiles[1].profile->totalDuration() > profiles[0].profile->totalDuration());
        // G10 measured BERT at 256 and 512 only: another batch names the folder and the batch.
        try {
            importAtBatches(graph, {256, 128}, options);
            QFAIL("batch 128 has no measurements but was accepted");
        } catch (const ImportError& e) {
            QVERIFY2(QString(e.what()).contains("BERT_Base") && QString(e.what()).contains("128"), e.what());
        }
    }

    void cancelStops() {
        std::atomic<bool> cancel{true};
        SweepOptions options;
        options.cancel = &cancel;
        QVERIFY_THROWS_EXCEPTION(SweepCancelled,
                                 runBatchSweep({{"a", tinyGpt(1)}, {"b", tinyGpt(2)}}, policies({"uvm"}), options));
    }
};

QTEST_GUILESS_MAIN(TestBatchSweep)
#include "tst_batch_sweep.moc"
