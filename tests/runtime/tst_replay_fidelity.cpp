// Replay fidelity: the six replays measured on a real H200 (../shared/data/h200/replays: the
// small GPT lesson's uvm, g10 and most plans, each in a managed and a device arena) re-simulated
// by the replay model on the machine they ran on (the h200 preset, built from that machine's
// probes), each with its own arena and the calls it made. The model must come within 10% of
// the measured last iteration; the plans' own simulations (on the machine they were planned
// for) were -97% to +840% off. docs/validation.md, "Real GPU".
#include "core/deploy/measured_comparison.h"
#include "core/hardware/hardware_presets.h"
#include "core/io/measured/measured_timeline.h"
#include "core/io/valid_profile.h"
#include "core/plan/exported_plan.h"
#include "core/sim/simulator.h"
#include "runtime/replay/kernel_error_causes.h"
#include "runtime/replay/model_backend.h"
#include "runtime/replay/replay_program_builder.h"
#include "runtime/replay/replay_runner.h"

#include <QtTest>

#include <cmath>
#include <set>

using namespace spillway;

namespace {

const std::string kReplays = SPILLWAY_SHARED_DATA "/h200/replays/";
const std::string kProfile = SPILLWAY_SOURCE_DIR "/samples/lessons/small-gpt.profile.json";

struct Fidelity {
    MeasuredComparison comparison;
    replay::ReplayProgram program;
    MeasuredTimeline measured;
    MeasuredTimeline model;
    std::vector<replay::ModelBackend::SlotRace> races;
    std::set<std::int64_t> raced;  // run indices of the last iteration's kernels in a slot race
};

const std::string kFixedRuntime = SPILLWAY_SOURCE_DIR "/tests/fixtures/replays/h200-fixed-runtime/";

Fidelity resimulateFile(const Profile& profile, const std::string& policy, const std::string& measuredPath,
                        const HardwareConfig& machine) {
    const ExportedPlan plan = readExportedPlan(kReplays + "gpt-" + policy + ".plan.json");
    const MeasuredTimeline measured = readMeasuredTimeline(measuredPath);
    const replay::ReplayOptions options = replay::replayOptionsOf(measured);
    const replay::ReplayProgram program = replay::buildReplayProgram(profile, plan, options);
    replay::ModelBackend model(machine);
    model.followCalls(program, measured);
    Fidelity f;
    f.model = replay::runReplay(program, model, static_cast<int>(measured.iterations.size()));
    f.comparison = compareWithModel(measured, f.model, -1, 3);
    f.program = program;
    f.measured = measured;
    f.races = model.slotRaces();
    for (const auto& race : model.slotRaces())
        if (race.iteration + 1 == measured.iterations.size()) f.raced.insert(static_cast<std::int64_t>(race.kernel));
    return f;
}

Fidelity resimulate(const Profile& profile, const std::string& policy, const std::string& arena,
                    const HardwareConfig& machine) {
    return resimulateFile(profile, policy, kReplays + "gpt-" + policy + "-" + arena + ".measured.json", machine);
}

}  // namespace

class TestReplayFidelity : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (!QFileInfo::exists(QString::fromStdString(kReplays + "gpt-uvm.plan.json")))
            QSKIP("../shared/data/h200/replays is not beside the checkout");
    }

    void replaysAreResimulatedWithinTenPercent_data() {
        QTest::addColumn<QString>("policy");
        QTest::addColumn<QString>("arena");
        for (const char* policy : {"uvm", "g10", "most"})
            for (const char* arena : {"managed", "auto"})
                QTest::newRow(qPrintable(QString("%1-%2").arg(policy, arena))) << QString(policy) << QString(arena);
    }
    void replaysAreResimulatedWithinTenPercent() {
        QFETCH(QString, policy);
        QFETCH(QString, arena);
        const Profile profile = loadValidProfile(kProfile);
        const Fidelity f = resimulate(profile, policy.toStdString(), arena.toStdString(), hardwarePreset("h200"));
        const MeasuredComparison& c = f.comparison;
        qInfo("%s-%s: measured %.3f ms, model %.3f ms, %+.1f%%; %zu kernels in slot races", qPrintable(policy),
              qPrintable(arena), double(c.measuredTotal) / 1e6, double(c.simulatedTotal) / 1e6,
              100.0 * c.totalRelativeError, f.raced.size());
        for (std::int64_t i : c.worst) {
            const KernelError& k = c.kernels[static_cast<std::size_t>(i)];
            qInfo("  kernel %lld %s: measured %.1f us, model %.1f us", static_cast<long long>(k.runIndex), k.name.c_str(),
                  double(k.measuredDuration) / 1e3, double(k.simulatedDuration) / 1e3);
        }
        // A managed arena whose plan discards (g10, most): kernels writing bytes that a discard
        // dropped and a prefetch populated again took 50 to 63 write faults of ~150 us each in
        // 20 to 40% of the cases, which no rule yet predicts (docs/validation.md, "Real GPU").
        if (arena == "managed" && policy != "uvm")
            QEXPECT_FAIL("", "managed arena with discards: driver faults the model does not predict (issue 16, open)",
                         Continue);
        QVERIFY2(std::abs(c.totalRelativeError) <= 0.10,
                 qPrintable(QString("%1-%2 off by %3%").arg(policy, arena).arg(100.0 * c.totalRelativeError, 0, 'f', 1)));
    }

    // Replays by this runtime on an H200, re-simulated on the machine spillway-calibrate measured
    // in the same session (tests/fixtures/replays/h200-fixed-runtime, README there), two runs
    // of each. Without the plans' discards (--no-discards) the model is within 10% of their
    // mean and 15% of each (the two runs of one plan differed by up to 13%); with them it is not.
    void replaysOnTheCalibratedMachine_data() {
        QTest::addColumn<QString>("policy");
        QTest::addColumn<QString>("replay");
        for (const char* policy : {"g10", "most"})
            for (const char* replay : {"nodiscard", "managed"})
                QTest::newRow(qPrintable(QString("%1-%2").arg(policy, replay))) << QString(policy) << QString(replay);
    }

    void replaysOnTheCalibratedMachine() {
        QFETCH(QString, policy);
        QFETCH(QString, replay);
        const Profile profile = loadValidProfile(kProfile);
        const HardwareConfig machine = loadHardware(kFixedRuntime + "machine.hardware.json");
        double measured = 0, model = 0, worst = 0;
        for (const char* run : {"1", "2"}) {
            const std::string file = kFixedRuntime + policy.toStdString() + "-" + replay.toStdString() + "-" + run + ".measured.json.gz";
            const MeasuredComparison c = resimulateFile(profile, policy.toStdString(), file, machine).comparison;
            qInfo("%s-%s-%s: measured %.3f ms, model %.3f ms, %+.1f%%", qPrintable(policy), qPrintable(replay), run,
                  double(c.measuredTotal) / 1e6, double(c.simulatedTotal) / 1e6, 100.0 * c.totalRelativeError);
            measured += double(c.measuredTotal);
            model += double(c.simulatedTotal);
            worst = std::max(worst, std::abs(c.totalRelativeError));
        }
        const double meanError = (measured - model) / model;
        if (replay == "managed")
            QEXPECT_FAIL("", "managed arena with discards: driver faults the model does not predict (issue 16, open)",
                         Continue);
        QVERIFY2(std::abs(meanError) <= 0.10 && worst <= 0.15,
                 qPrintable(QString("%1-%2: mean %3%, worst run %4%")
                                .arg(policy, replay)
                                .arg(100.0 * meanError, 0, 'f', 1)
                                .arg(100.0 * worst, 0, 'f', 1)));
    }

    // The runtime before issue 16 did not order slot reuse: the model finds the kernels whose
    // pages a late discard wiped in the g10 plan's managed replay, and none in a device arena.
    void slotRacesAreFoundWhereTheyHappened() {
        const Profile profile = loadValidProfile(kProfile);
        QVERIFY(!resimulate(profile, "g10", "managed", hardwarePreset("h200")).raced.empty());
        QVERIFY(resimulate(profile, "g10", "auto", hardwarePreset("h200")).raced.empty());
        QVERIFY(resimulate(profile, "uvm", "managed", hardwarePreset("h200")).raced.empty());
    }

    // The error table says why, kernel by kernel (kernel_error_causes.h), from the two timelines.
    void theErrorTableSaysWhy() {
        const Profile profile = loadValidProfile(kProfile);
        const HardwareConfig machine = loadHardware(kFixedRuntime + "machine.hardware.json");
        const auto causes = [&](const Fidelity& f, std::size_t k) {
            return replay::kernelErrorCauses(f.program, f.measured, f.model, machine, f.races, -1, k);
        };
        const auto breakdown = [&](const Fidelity& f) {
            std::vector<replay::KernelErrorCauses> all;
            for (std::size_t k = 0; k < f.program.kernels.size(); ++k) all.push_back(causes(f, k));
            return replay::errorBreakdown(all);
        };
        // This runtime, managed arena: kernel 88's 4 MiB output was dropped and prefetched again
        // 5.7 ms before it ran 7 ms longer than modelled; kernel 70, as fast as modelled, says nothing.
        const Fidelity fixed = resimulateFile(profile, "g10", kFixedRuntime + "g10-managed-1.measured.json.gz", machine);
        const auto k88 = causes(fixed, 88);
        QCOMPARE(k88.refilledBytes, Bytes(4) << 20);
        QVERIFY(k88.runError > 6'000'000 && k88.sincePrefetch > 5'000'000 && k88.sinceDrop > k88.sincePrefetch);
        QVERIFY2(k88.text.find("does not predict") != std::string::npos, k88.text.c_str());
        QVERIFY2(causes(fixed, 70).text.find("fault") == std::string::npos, causes(fixed, 70).text.c_str());
        // The whole iteration: what the model misses is in the kernels writing refilled bytes; the
        // other 168 run within a millisecond of the model, all together.
        const auto split = breakdown(fixed);
        QVERIFY2(split.refilled.runError > 60'000'000 && std::abs(split.other.runError) < 1'000'000 &&
                     split.slotRaces.kernels == 0 && split.dropped.kernels == 0,
                 split.text.c_str());
        QCOMPARE(split.refilled.kernels + split.other.kernels, fixed.program.kernels.size());
        // The runtime of session 8: kernel 16's output was dropped after its prefetch (no slot
        // order), kernel 97 ran while another tensor's call dropped its bytes.
        const Fidelity shared = resimulate(profile, "g10", "managed", machine);
        const auto k16 = causes(shared, 16);
        QCOMPARE(k16.droppedBytes, Bytes(16) << 20);
        QVERIFY2(k16.text.find("no prefetch since") != std::string::npos, k16.text.c_str());
        QVERIFY(causes(shared, 97).slotRace);
        const auto sharedSplit = breakdown(shared);
        QCOMPARE(sharedSplit.slotRaces.kernels, shared.raced.size());
        QVERIFY2(sharedSplit.slotRaces.runError > 40'000'000 && sharedSplit.dropped.kernels > 0, sharedSplit.text.c_str());
        // A device arena drops nothing.
        const Fidelity device = resimulate(profile, "g10", "auto", machine);
        for (std::size_t k = 0; k < device.program.kernels.size(); ++k) {
            const auto c = causes(device, k);
            QVERIFY(c.refilledBytes == 0 && c.droppedBytes == 0 && !c.slotRace);
        }
        bool refused = false;
        try {
            replay::kernelErrorCauses(fixed.program, fixed.measured, fixed.model, machine, fixed.races, 7, 0);
        } catch (const std::invalid_argument&) {
            refused = true;
        }
        QVERIFY(refused);
    }

    // The plans' own simulation (their planning machine, g10-a100 at 0.3 GiB) against the same
    // replays: what the issue started from (-97% to +840%).
    void thePlanningMachineWasFarOff() {
        const Profile profile = loadValidProfile(kProfile);
        const ExportedPlan plan = readExportedPlan(kReplays + "gpt-g10.plan.json");
        const MeasuredTimeline measured = readMeasuredTimeline(kReplays + "gpt-g10-managed.measured.json");
        const MeasuredComparison c = compareMeasured(measured, simulate(profile, plan.plan, plan.hardware));
        QVERIFY(c.totalRelativeError > 5.0);
    }

    // What spillway-calibrate wrote on an H200 (tests/fixtures/hardware) is a machine the
    // simulator and the replay model read.
    void aRecordedCalibrationIsAMachine() {
        const HardwareConfig machine = loadHardware(SPILLWAY_SOURCE_DIR "/tests/fixtures/hardware/h200-calibrated.hardware.json");
        QVERIFY(!machine.measured.empty());
        QVERIFY(!machine.measured.isDuplex(TransferMechanism::ManagedPrefetch));
        QVERIFY(machine.kernelLaunch > 0);
        QVERIFY(machine.directiveOverhead > 0);
        const Profile profile = loadValidProfile(kProfile);
        const ExportedPlan plan = readExportedPlan(kReplays + "gpt-uvm.plan.json");
        const SimulationResult sim = simulate(profile, plan.plan, machine);
        QVERIFY(sim.cannotRun.empty());
        QVERIFY(sim.iterationTime >= profile.totalDuration() + 390 * machine.kernelLaunch);
        const Fidelity f = resimulate(profile, "uvm", "auto", machine);
        QVERIFY2(std::abs(f.comparison.totalRelativeError) <= 0.10,
                 qPrintable(QString("uvm on the calibrated machine off by %1%").arg(100.0 * f.comparison.totalRelativeError)));
    }
};

QTEST_GUILESS_MAIN(TestReplayFidelity)
#include "tst_replay_fidelity.moc"
