// The workspace's operations: profiles, runs and plans come back equal to what was stored;
// listing shows the key numbers worked out from the result; rename, soft delete / restore
// (the app's undo), duplicate-then-replace, view state and purge do what they say.
#include "core/io/native/profile_hash.h"
#include "core/store/workspace.h"
#include "store_test_support.h"

#include <QTemporaryDir>
#include <QTest>

using namespace spillway;
using namespace spillway::store;
using namespace spillway::testing;

namespace {

std::filesystem::path tempFile(const QTemporaryDir& dir, const char* name) {
    return std::filesystem::path(dir.path().toStdString()) / name;
}

template <typename F>
WorkspaceError::Reason reasonOf(F&& f) {
    try {
        f();
    } catch (const WorkspaceError& e) {
        return e.reason();
    }
    return WorkspaceError::Reason::Sqlite;  // "no error" is reported as a mismatch by QCOMPARE
}

// A step of several MB in the workspace: many tensors and kernels, different for each seed.
Profile bigStep(int seed) {
    ProfileBuilder b("big-" + std::to_string(seed));
    for (int t = 0; t < 20000; ++t) b.tensor(t, "tensor-" + std::to_string(t) + "-" + std::to_string(seed), kMiB + t,
                                           TensorKind::Activation, false);
    for (int k = 0; k < 10000; ++k)
        b.kernel(k, "kernel-with-a-long-name-" + std::to_string(k), KernelPhase::Forward, 1000 + k, {2 * k},
                 {2 * k + 1});
    return b.build();
}

std::vector<RowId> ids(const auto& rows) {
    std::vector<RowId> out;
    for (const auto& r : rows) out.push_back(r.id);
    return out;
}

}  // namespace

class TestWorkspace : public QObject {
    Q_OBJECT

private slots:
    void createStoresAndReopens() {
        QTemporaryDir dir;
        const auto path = tempFile(dir, "sub/folder/w.spillway");  // parent folders are made
        const Profile profile = smallStep();
        const HardwareConfig hw = smallMachine();
        const Plan plan = makePlan("uvm", profile, hw);
        const SimulationResult result = simulate(profile, plan, hw);
        QVERIFY(result.totals.faultStall > 0);
        RowId profileId = 0, runId = 0, planId = 0;
        {
            auto ws = Workspace::create(path);
            QCOMPARE(ws.schemaVersion(), 2);
            profileId = ws.addProfile(profile, "small step");
            runId = ws.addRun(profileId, "uvm on 24 MiB", hw, plan, result);
            planId = ws.addPlan(profileId, "kept plan", hw, plan);
            ws.setViewState("last_run", std::to_string(runId));
        }
        auto ws = Workspace::open(path);
        QCOMPARE(ws.integrityCheck(), std::vector<std::string>{"ok"});

        QVERIFY(ws.loadProfile(profileId) == profile);
        const auto profiles = ws.listProfiles();
        QCOMPARE(profiles.size(), size_t{1});
        QCOMPARE(profiles[0].name, std::string("small step"));
        QCOMPARE(profiles[0].hash, profileHash(profile));
        QCOMPARE(profiles[0].model, std::string("small-mlp"));
        QCOMPARE(profiles[0].tensorCount, std::int64_t{7});
        QCOMPARE(profiles[0].kernelCount, std::int64_t{5});
        QCOMPARE(profiles[0].totalTensorBytes, 30 * kMiB);     // 4+4+2+6+6+4+4 MiB
        QCOMPARE(profiles[0].idealTime, Nanoseconds{6'500'000});  // 1+1+2+2+0.5 ms
        QCOMPARE(ws.findProfilesByHash(profileHash(profile)), std::vector<RowId>{profileId});

        const StoredRun run = ws.loadRun(runId);
        QVERIFY(run.result == result);
        QVERIFY(run.plan == plan);
        QVERIFY(run.hardware == hw);
        // the listing columns are the result's numbers
        const auto& s = run.summary;
        QCOMPARE(s.name, std::string("uvm on 24 MiB"));
        QCOMPARE(s.policy, std::string("uvm"));
        QCOMPARE(s.hardwareId, std::string("unit-24mib"));
        QCOMPARE(s.iterationTime, result.iterationTime);
        QVERIFY(s.totals == result.totals);
        Bytes traffic = 0;
        for (auto b : result.traffic) traffic += b;
        QCOMPARE(s.trafficBytes, traffic);
        QCOMPARE(s.peakGpuBytes, result.peakGpuBytes);
        QVERIFY(ws.listRuns() == std::vector<RunSummary>{s});

        const StoredPlan kept = ws.loadPlan(planId);
        QVERIFY(kept.plan == plan);
        QVERIFY(kept.hardware == hw);
        QCOMPARE(ws.viewState("last_run"), std::optional<std::string>(std::to_string(runId)));
        QCOMPARE(ws.viewState("nothing"), std::optional<std::string>());
    }

    void renameDeleteRestore() {
        QTemporaryDir dir;
        auto ws = Workspace::create(tempFile(dir, "w.spillway"));
        const auto a = ws.addProfile(smallStep(), "a");
        const auto b = ws.addProfile(smallStep(), "b");
        const auto r1 = ws.addRun(a, "r1", smallMachine(), Plan{}, syntheticResult(1, 10));
        const auto r2 = ws.addRun(a, "r2", smallMachine(), Plan{}, syntheticResult(2, 10));
        const auto r3 = ws.addRun(b, "r3", smallMachine(), Plan{}, syntheticResult(3, 10));
        const auto p1 = ws.addPlan(a, "p1", smallMachine(), Plan{});
        QCOMPARE(ids(ws.listRuns(a)), (std::vector<RowId>{r1, r2}));
        QCOMPARE(ids(ws.listRuns()), (std::vector<RowId>{r1, r2, r3}));

        ws.renameRun(r2, "second");
        QCOMPARE(ws.runSummary(r2).name, std::string("second"));
        ws.renameProfile(b, "bee");
        QCOMPARE(ws.profileSummary(b).name, std::string("bee"));
        ws.renamePlan(p1, "plan one");
        QCOMPARE(ws.listPlans(a)[0].name, std::string("plan one"));

        // delete a run: gone from listing and loading; restore brings back the same run
        ws.deleteRun(r1);
        QCOMPARE(ids(ws.listRuns(a)), std::vector<RowId>{r2});
        QCOMPARE(reasonOf([&] { ws.loadRun(r1); }), WorkspaceError::Reason::NotFound);
        QCOMPARE(reasonOf([&] { ws.deleteRun(r1); }), WorkspaceError::Reason::NotFound);
        ws.restoreRun(r1);
        QVERIFY(ws.loadRun(r1).result == syntheticResult(1, 10));
        QCOMPARE(reasonOf([&] { ws.restoreRun(r1); }), WorkspaceError::Reason::NotFound);

        // delete a profile: its runs and plans are hidden too, and come back with it; a run
        // deleted on its own before stays deleted
        ws.deleteRun(r2);
        ws.deleteProfile(a);
        QCOMPARE(ids(ws.listProfiles()), std::vector<RowId>{b});
        QCOMPARE(ids(ws.listRuns()), std::vector<RowId>{r3});
        QVERIFY(ws.listPlans().empty());
        QCOMPARE(reasonOf([&] { ws.addRun(a, "x", smallMachine(), Plan{}, SimulationResult{}); }),
                 WorkspaceError::Reason::NotFound);
        ws.restoreProfile(a);
        QCOMPARE(ids(ws.listRuns()), (std::vector<RowId>{r1, r3}));
        QCOMPARE(ids(ws.listPlans()), std::vector<RowId>{p1});

        // purge removes only what is deleted
        QCOMPARE(ws.purgeDeleted(), std::int64_t{1});
        QCOMPARE(reasonOf([&] { ws.restoreRun(r2); }), WorkspaceError::Reason::NotFound);
        ws.deletePlan(p1);
        ws.deleteProfile(b);
        QCOMPARE(ws.purgeDeleted(), std::int64_t{2});  // the plan, profile b (r3 goes with it)
        QCOMPARE(ids(ws.listRuns()), std::vector<RowId>{r1});
        QCOMPARE(reasonOf([&] { ws.restoreRun(r1); }), WorkspaceError::Reason::NotFound);  // not deleted
    }

    void duplicateThenReplace() {
        QTemporaryDir dir;
        auto ws = Workspace::create(tempFile(dir, "w.spillway"));
        const Profile profile = smallStep();
        const auto p = ws.addProfile(profile, "p");
        HardwareConfig hw = smallMachine();
        const Plan plan = makePlan("uvm", profile, hw);
        const auto original = ws.addRun(p, "base", hw, plan, simulate(profile, plan, hw));
        const auto copy = ws.duplicateRun(original, "base, 32 MiB");
        QVERIFY(copy != original);
        QCOMPARE(ws.runSummary(copy).name, std::string("base, 32 MiB"));
        QVERIFY(ws.loadRun(copy).result == ws.loadRun(original).result);

        // the app changes the configuration and re-simulates
        hw.gpuCapacity = 32 * kMiB;
        hw.id = "unit-32mib";
        const Plan plan2 = makePlan("g10", profile, hw);
        const auto result2 = simulate(profile, plan2, hw);
        ws.replaceRun(copy, hw, plan2, result2);
        const auto stored = ws.loadRun(copy);
        QVERIFY(stored.result == result2);
        QVERIFY(stored.plan == plan2);
        QVERIFY(stored.hardware == hw);
        QCOMPARE(stored.summary.policy, std::string("g10"));
        QCOMPARE(stored.summary.iterationTime, result2.iterationTime);
        QCOMPARE(stored.summary.name, std::string("base, 32 MiB"));
        // the original is untouched
        QCOMPARE(ws.loadRun(original).hardware.gpuCapacity, 24 * kMiB);
        QCOMPARE(reasonOf([&] { ws.duplicateRun(999, "x"); }), WorkspaceError::Reason::NotFound);
        QCOMPARE(reasonOf([&] { ws.replaceRun(999, hw, plan2, result2); }), WorkspaceError::Reason::NotFound);
    }

    void theWalDoesNotGrowWithEveryProfile() {
        // Issue 20: six opened profiles left a 120 MB WAL beside a 128 MB workspace. After each
        // large write the WAL is checkpointed and cut back (it was never larger than 4 MiB after).
        QTemporaryDir dir;
        const auto path = tempFile(dir, "w.spillway");
        Workspace ws = Workspace::create(path);
        std::filesystem::path wal = path;
        wal += "-wal";
        Bytes largest = 0;
        for (int i = 0; i < 6; ++i) {
            Profile p = bigStep(i);
            ws.addProfile(p, "big " + std::to_string(i));
            largest = std::max<Bytes>(largest, std::filesystem::exists(wal) ? Bytes(std::filesystem::file_size(wal)) : 0);
        }
        const Bytes file = Bytes(std::filesystem::file_size(path));
        QVERIFY2(file > 6 * kMiB, "the profiles are large enough to matter");
        QVERIFY2(largest <= 4 * kMiB, qPrintable(QString("WAL reached %1 bytes").arg(largest)));
        QCOMPARE(ws.listProfiles().size(), size_t(6));
    }

    void viewStateAndDefaults() {
        QTemporaryDir dir;
        const auto path = defaultWorkspacePath(dir.path().toStdString());
        QCOMPARE(path.filename().string(), std::string("workspace.spillway"));
        {
            auto ws = Workspace::openOrCreate(path);  // first start: created
            ws.setViewState("timeline", R"({"zoom": 2})");
            ws.setViewState("timeline", R"({"zoom": 3})");
            ws.setViewState("gantt", "{}");
            ws.removeViewState("gantt");
        }
        auto ws = Workspace::openOrCreate(path);  // next start: opened
        QCOMPARE(ws.viewState("timeline"), std::optional<std::string>(R"({"zoom": 3})"));
        QCOMPARE(ws.viewState("gantt"), std::optional<std::string>());
        QCOMPARE(reasonOf([&] { Workspace::create(path); }), WorkspaceError::Reason::AlreadyExists);
    }
};

QTEST_APPLESS_MAIN(TestWorkspace)
#include "tst_workspace.moc"
