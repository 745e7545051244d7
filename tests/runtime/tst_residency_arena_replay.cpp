// The small GPT lesson's plans that do not fault, at 0.3 GiB with an arena that follows the
// plan's residency (docs/plans.md): tensors pre-evicted to the host give their bytes to others
// meanwhile. Replayed by the replay model in a device arena on the h200 machine, the runtime's
// slot order (replay_slot_order.h) keeps every reuse safe: no slot race, and no two tensors
// sharing bytes are ever touched at the same time (a kernel reading or writing one, or a copy of
// one, while a kernel or a copy touches the other), in any of three iterations.
#include "../support/shared_replay_machine.h"
#include "core/deploy/deployable_plan.h"
#include "core/hardware/hardware_presets.h"
#include "core/io/native/profile_hash.h"
#include "core/io/valid_profile.h"
#include "runtime/replay/model_backend.h"
#include "runtime/replay/replay_program_builder.h"
#include "runtime/replay/replay_runner.h"
#include "runtime/replay/replay_slot_order.h"

#include <QtTest>

using namespace spillway;

namespace {

const char* const kSmallGpt = SPILLWAY_SOURCE_DIR "/samples/lessons/small-gpt.profile.json";
constexpr int kIterations = 3;


struct Window {
    Nanoseconds start, end;
    std::string what;
};

// Per tensor (profile position): when it is touched, over all iterations: the kernels that
// read or write it and the directives that copy it (a call that moves data and takes time).
// Without the slot order (ReplayOptions::orderSlots false) both plans fail this: e.g. most's
// pre-evict of 'wte.exp_avg_sq' still copying while a kernel writes 'wte.adamw.denom' there.
std::vector<std::vector<Window>> touchWindows(const Profile& profile, const replay::ReplayProgram& program,
                                              const replay::BackendRun& run) {
    const ProfileIndex index(profile);
    std::vector<std::vector<Window>> out(profile.tensors.size());
    for (std::size_t it = 0; it < run.iterations.size(); ++it) {
        for (std::size_t r = 0; r < program.kernels.size(); ++r) {
            const Kernel& k = profile.kernels[static_cast<std::size_t>(program.kernels[r].position)];
            const auto& t = run.iterations[it].kernels[r];
            for (const auto& ids : {k.inputs, k.outputs})
                for (const TensorId id : ids)
                    out[static_cast<std::size_t>(index.tensorPos(id))].push_back(
                        {t.start, t.end, "kernel " + k.name + " (iteration " + std::to_string(it) + ")"});
        }
        for (std::size_t j = 0; j < program.directives.size(); ++j) {
            const auto& t = run.iterations[it].directives[j];
            if (t.end > t.start && t.call.rfind("nothing", 0) != 0)  // a call that moves data
                out[static_cast<std::size_t>(program.directives[j].tensor)].push_back(
                    {t.start, t.end, program.directives[j].kind + " (" + t.call + ", iteration " + std::to_string(it) + ")"});
        }
    }
    return out;
}

}  // namespace

class TestResidencyArenaReplay : public QObject {
    Q_OBJECT
    Profile profile_;

private slots:
    void initTestCase() { profile_ = loadValidProfile(kSmallGpt); }

    void sharedSlotsAreNeverTouchedTogether_data() {
        QTest::addColumn<QString>("policy");
        QTest::newRow("g10") << "g10";
        QTest::newRow("most") << "most";
    }
    void sharedSlotsAreNeverTouchedTogether() {
        QFETCH(QString, policy);
        const HardwareConfig hw = test::sharedReplayMachine();
        const DeployablePlan made = makeDeployablePlan(profile_, hw, test::faultFreeRequest(policy.toStdString()));
        QVERIFY(made.plan.arenaBytes <= hw.gpuCapacity);
        const ExportedPlan exported{profile_.metadata.model, profileHash(profile_), hw, made.plan};
        replay::ReplayOptions device;
        device.arena = replay::ArenaChoice::Device;
        const replay::ReplayProgram program = replay::buildReplayProgram(profile_, exported, device);
        QVERIFY(program.slotsOrdered && program.plannedOffsets);
        QCOMPARE(program.arenaBytes, made.plan.arenaBytes);

        // Tensors that share bytes: the residency layout made many such pairs.
        const auto overlapping = replay::overlappingTensors(program.tensors);
        std::size_t pairs = 0;
        for (const auto& others : overlapping) pairs += others.size();
        QVERIFY(pairs > 0);

        replay::ModelBackend model(hardwarePreset("h200"));
        const MeasuredTimeline timeline = replay::runReplay(program, model, kIterations);
        QVERIFY(model.slotRaces().empty());
        QCOMPARE(timeline.iterations.size(), std::size_t(kIterations));
        QVERIFY(timeline.failures.empty());
        const auto& last = timeline.iterations.back();
        qInfo("%s: arena %lld bytes, %zu tensor pairs share bytes; model of h200, device arena: iteration %lld ns",
              qPrintable(policy), static_cast<long long>(program.arenaBytes), pairs / 2,
              static_cast<long long>(last.endNs - last.startNs));

        const replay::BackendRun run = model.run(program, kIterations);
        const auto windows = touchWindows(profile_, program, run);
        for (std::size_t a = 0; a < overlapping.size(); ++a)
            for (const std::int32_t b : overlapping[a]) {
                if (static_cast<std::size_t>(b) < a) continue;
                for (const Window& x : windows[a])
                    for (const Window& y : windows[static_cast<std::size_t>(b)])
                        QVERIFY2(x.end <= y.start || y.end <= x.start,
                                 qPrintable(QStringLiteral("'%1' %2 [%3, %4) and '%5' %6 [%7, %8) share arena bytes")
                                                .arg(QString::fromStdString(profile_.tensors[a].name),
                                                     QString::fromStdString(x.what))
                                                .arg(x.start)
                                                .arg(x.end)
                                                .arg(QString::fromStdString(profile_.tensors[static_cast<std::size_t>(b)].name),
                                                     QString::fromStdString(y.what))
                                                .arg(y.start)
                                                .arg(y.end)));
            }
    }
};

QTEST_GUILESS_MAIN(TestResidencyArenaReplay)
#include "tst_residency_arena_replay.moc"
