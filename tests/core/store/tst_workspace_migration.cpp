// A workspace written by schema version 1 (made here with raw SQL, as version 1 shipped) opens
// with the current code: migrated to version 2, every profile, run and view setting kept, the
// new profile columns filled from the stored profiles. A migration that fails leaves the file
// as it was.
#include "core/io/native/native_json.h"
#include "core/io/native/profile_hash.h"
#include "core/plan/plan_json.h"
#include "core/hardware/hardware_presets.h"
#include "core/sim/sim_result_json.h"
#include "core/store/workspace.h"
#include "store_test_support.h"

#include <sqlite3.h>

#include <QTemporaryDir>
#include <QTest>

using namespace spillway;
using namespace spillway::store;
using namespace spillway::testing;

namespace {

// Schema version 1, copied here on purpose: this is what files in the wild contain, whatever
// the code says now.
constexpr const char* kVersion1 = R"sql(
PRAGMA journal_mode = WAL;
PRAGMA application_id = 1397771351;
CREATE TABLE profiles (id INTEGER PRIMARY KEY, name TEXT NOT NULL, source_path TEXT NOT NULL,
    hash TEXT NOT NULL, native_json TEXT NOT NULL, added_at INTEGER NOT NULL, deleted_at INTEGER);
CREATE INDEX profiles_by_hash ON profiles(hash);
CREATE TABLE runs (id INTEGER PRIMARY KEY,
    profile_id INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
    name TEXT NOT NULL, policy TEXT NOT NULL, hardware_id TEXT NOT NULL, hardware_json TEXT NOT NULL,
    plan_json TEXT NOT NULL, created_at INTEGER NOT NULL, iteration_time_ns INTEGER NOT NULL,
    ideal_time_ns INTEGER NOT NULL, compute_ns INTEGER NOT NULL, fault_stall_ns INTEGER NOT NULL,
    oversub_stall_ns INTEGER NOT NULL, late_prefetch_stall_ns INTEGER NOT NULL,
    overlap_ns INTEGER NOT NULL, traffic_bytes INTEGER NOT NULL, peak_gpu_bytes INTEGER NOT NULL,
    deleted_at INTEGER);
CREATE INDEX runs_by_profile ON runs(profile_id);
CREATE TABLE run_results (run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
    encoding TEXT NOT NULL, result BLOB NOT NULL);
CREATE TABLE plans (id INTEGER PRIMARY KEY,
    profile_id INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
    name TEXT NOT NULL, policy TEXT NOT NULL, hardware_id TEXT NOT NULL, hardware_json TEXT NOT NULL,
    plan_json TEXT NOT NULL, created_at INTEGER NOT NULL, deleted_at INTEGER);
CREATE INDEX plans_by_profile ON plans(profile_id);
CREATE TABLE view_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
PRAGMA user_version = 1;
)sql";

class RawDb {
public:
    explicit RawDb(const std::filesystem::path& path) { sqlite3_open(path.c_str(), &db_); }
    ~RawDb() { sqlite3_close(db_); }
    void exec(const char* sql) {
        char* error = nullptr;
        const int rc = sqlite3_exec(db_, sql, nullptr, nullptr, &error);
        if (rc != SQLITE_OK) throw std::runtime_error(error ? error : "sqlite error");
    }
    // Values bound one by one: text for std::string, integer for std::int64_t, blob for bytes.
    template <typename... Values>
    void insert(const char* sql, const Values&... values) {
        sqlite3_stmt* s = nullptr;
        if (sqlite3_prepare_v2(db_, sql, -1, &s, nullptr) != SQLITE_OK) throw std::runtime_error(sqlite3_errmsg(db_));
        int i = 0;
        (bindOne(s, ++i, values), ...);
        const int rc = sqlite3_step(s);
        sqlite3_finalize(s);
        if (rc != SQLITE_DONE) throw std::runtime_error(sqlite3_errmsg(db_));
    }

private:
    static void bindOne(sqlite3_stmt* s, int i, const std::string& v) {
        sqlite3_bind_text(s, i, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    }
    static void bindOne(sqlite3_stmt* s, int i, std::int64_t v) { sqlite3_bind_int64(s, i, v); }
    static void bindOne(sqlite3_stmt* s, int i, const std::vector<std::uint8_t>& v) {
        sqlite3_bind_blob(s, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    }
    sqlite3* db_ = nullptr;
};

// A version-1 workspace: one profile (and one more whose JSON is `secondProfileJson`), a run
// with a real simulation, a plan, a deleted run and two view settings.
void writeVersion1(const std::filesystem::path& path, const Profile& profile, const HardwareConfig& hw,
                   const Plan& plan, const SimulationResult& result, const std::string& secondProfileJson) {
    RawDb db(path);
    db.exec(kVersion1);
    const std::string text = writeNativeProfile(profile);
    db.insert("INSERT INTO profiles(id, name, source_path, hash, native_json, added_at) VALUES (?,?,?,?,?,?)",
              std::int64_t{1}, std::string("old profile"), std::string("/data/mlp.json"), profileHash(profile), text,
              std::int64_t{1'700'000'000'000});
    db.insert("INSERT INTO profiles(id, name, source_path, hash, native_json, added_at) VALUES (?,?,?,?,?,?)",
              std::int64_t{2}, std::string("second"), std::string(""), std::string("sha256:0"), secondProfileJson,
              std::int64_t{1'700'000'000'001});
    Bytes traffic = 0;
    for (auto b : result.traffic) traffic += b;
    for (std::int64_t id : {10, 11}) {
        db.insert("INSERT INTO runs(id, profile_id, name, policy, hardware_id, hardware_json, plan_json, created_at, "
                  "iteration_time_ns, ideal_time_ns, compute_ns, fault_stall_ns, oversub_stall_ns, "
                  "late_prefetch_stall_ns, overlap_ns, traffic_bytes, peak_gpu_bytes, deleted_at) "
                  "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                  id, std::int64_t{1}, std::string(id == 10 ? "kept run" : "deleted run"), plan.policy, hw.id,
                  writeHardwareJson(hw), planToJson(plan).dump(), std::int64_t{1'700'000'000'100},
                  result.iterationTime, result.idealTime, result.totals.compute, result.totals.faultStall,
                  result.totals.oversubStall, result.totals.latePrefetchStall, result.totals.overlap, traffic,
                  result.peakGpuBytes, std::int64_t{id == 10 ? 0 : 1'700'000'000'200});
        db.insert("INSERT INTO run_results(run_id, encoding, result) VALUES (?,?,?)", id,
                  std::string("cbor:spillway.result/1"), simulationResultToCbor(result));
    }
    db.exec("UPDATE runs SET deleted_at = NULL WHERE id = 10");
    db.insert("INSERT INTO plans(id, profile_id, name, policy, hardware_id, hardware_json, plan_json, created_at) "
              "VALUES (?,?,?,?,?,?,?,?)",
              std::int64_t{5}, std::int64_t{1}, std::string("old plan"), plan.policy, hw.id, writeHardwareJson(hw),
              planToJson(plan).dump(), std::int64_t{1'700'000'000'300});
    db.exec("INSERT INTO view_state VALUES ('last_run', '10'), ('timeline', '{\"zoom\":4}')");
}

}  // namespace

class TestWorkspaceMigration : public QObject {
    Q_OBJECT

private slots:
    void version1OpensMigratedWithItsData() {
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.path().toStdString()) / "v1.spillway";
        const Profile profile = smallStep();
        const HardwareConfig hw = smallMachine();
        const Plan plan = makePlan("uvm", profile, hw);
        const SimulationResult result = simulate(profile, plan, hw);
        Profile second = smallStep();
        second.metadata.model = "second-model";
        second.kernels.pop_back();  // 4 kernels, 6 ms
        writeVersion1(path, profile, hw, plan, result, writeNativeProfile(second));

        auto ws = Workspace::open(path);
        QCOMPARE(ws.schemaVersion(), 2);
        const auto profiles = ws.listProfiles();
        QCOMPARE(profiles.size(), size_t{2});
        QCOMPARE(profiles[0].name, std::string("old profile"));
        QCOMPARE(profiles[0].sourcePath, std::string("/data/mlp.json"));
        QCOMPARE(profiles[0].addedAt, std::int64_t{1'700'000'000'000});
        // version 2's columns, filled by the migration from the stored JSON
        QCOMPARE(profiles[0].model, std::string("small-mlp"));
        QCOMPARE(profiles[0].tensorCount, std::int64_t{7});
        QCOMPARE(profiles[0].kernelCount, std::int64_t{5});
        QCOMPARE(profiles[0].totalTensorBytes, 30 * kMiB);
        QCOMPARE(profiles[0].idealTime, Nanoseconds{6'500'000});
        QCOMPARE(profiles[1].model, std::string("second-model"));
        QCOMPARE(profiles[1].kernelCount, std::int64_t{4});
        QCOMPARE(profiles[1].idealTime, Nanoseconds{6'000'000});
        QVERIFY(ws.loadProfile(1) == profile);

        const auto runs = ws.listRuns();
        QCOMPARE(runs.size(), size_t{1});  // run 11 was deleted in version 1 and stays deleted
        QCOMPARE(runs[0].id, RowId{10});
        const auto run = ws.loadRun(10);
        QVERIFY(run.result == result);
        QVERIFY(run.plan == plan);
        QVERIFY(run.hardware == hw);
        ws.restoreRun(11);
        QVERIFY(ws.loadRun(11).result == result);
        QVERIFY(ws.loadPlan(5).plan == plan);
        QCOMPARE(ws.viewState("timeline"), std::optional<std::string>("{\"zoom\":4}"));
        QCOMPARE(ws.integrityCheck(), std::vector<std::string>{"ok"});

        // and the migrated file keeps working: new rows use the new columns
        const auto id = ws.addProfile(second, "new");
        QCOMPARE(ws.profileSummary(id).kernelCount, std::int64_t{4});
    }

    void failedMigrationLeavesTheFile() {
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.path().toStdString()) / "v1-bad.spillway";
        const Profile profile = smallStep();
        const HardwareConfig hw = smallMachine();
        writeVersion1(path, profile, hw, Plan{}, SimulationResult{}, "{ not a profile");
        const std::string before = fileBytes(path);
        try {
            Workspace::open(path);
            QFAIL("a version-1 file with a broken profile was migrated");
        } catch (const WorkspaceError& e) {
            QCOMPARE(e.reason(), WorkspaceError::Reason::BadData);
            const std::string what = e.what();
            QVERIFY2(what.find(path.string()) == 0, what.c_str());
            QVERIFY2(what.find("stored profile 2") != std::string::npos, what.c_str());
        }
        QVERIFY(fileBytes(path) == before);
        sqlite3* db = nullptr;
        sqlite3_open(path.c_str(), &db);
        sqlite3_stmt* s = nullptr;
        sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &s, nullptr);
        QCOMPARE(sqlite3_step(s), SQLITE_ROW);
        QCOMPARE(sqlite3_column_int(s, 0), 1);
        sqlite3_finalize(s);
        sqlite3_close(db);
    }
};

QTEST_APPLESS_MAIN(TestWorkspaceMigration)
#include "tst_workspace_migration.moc"
