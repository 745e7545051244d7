// Runs: the configuration (hardware and plan as JSON), key numbers as columns for listing and
// comparing without decoding anything, and the full SimulationResult as CBOR in run_results.
#include "core/io/base/import_error.h"
#include "core/store/workspace_connections.h"
#include "core/plan/plan_json.h"
#include "core/hardware/hardware_presets.h"
#include "core/sim/sim_result_json.h"
#include "core/sqlite/sqlite_connection.h"
#include "core/store/workspace.h"
#include "core/store/workspace_clock.h"

namespace spillway::store {

namespace {

// run_results.encoding: how run_results.result is to be read.
constexpr std::string_view kResultEncoding = "cbor:spillway.result/1";

constexpr const char* kSummaryColumns =
    "id, profile_id, name, policy, hardware_id, created_at, iteration_time_ns, ideal_time_ns, compute_ns, "
    "fault_stall_ns, oversub_stall_ns, late_prefetch_stall_ns, overlap_ns, traffic_bytes, peak_gpu_bytes";

RunSummary readSummary(const SqliteStatement& s) {
    RunSummary r;
    r.id = s.columnInt(0);
    r.profileId = s.columnInt(1);
    r.name = s.columnText(2);
    r.policy = s.columnText(3);
    r.hardwareId = s.columnText(4);
    r.createdAt = s.columnInt(5);
    r.iterationTime = s.columnInt(6);
    r.idealTime = s.columnInt(7);
    r.totals = {s.columnInt(8), s.columnInt(9), s.columnInt(10), s.columnInt(11), s.columnInt(12)};
    r.trafficBytes = s.columnInt(13);
    r.peakGpuBytes = s.columnInt(14);
    return r;
}

Bytes trafficTotal(const SimulationResult& result) {
    Bytes total = 0;
    for (const auto bytes : result.traffic) total += bytes;
    return total;
}

// Binds ?1 policy ?2 hardware_id ?3 hardware_json ?4 plan_json ?5.. key numbers (?5..?13).
void bindConfiguration(SqliteStatement& s, const HardwareConfig& hardware, const Plan& plan,
                       const SimulationResult& result) {
    s.bind(1, std::string_view(plan.policy))
        .bind(2, std::string_view(hardware.id))
        .bind(3, std::string_view(writeHardwareJson(hardware)))
        .bind(4, std::string_view(planToJson(plan).dump()))
        .bind(5, result.iterationTime)
        .bind(6, result.idealTime)
        .bind(7, result.totals.compute)
        .bind(8, result.totals.faultStall)
        .bind(9, result.totals.oversubStall)
        .bind(10, result.totals.latePrefetchStall)
        .bind(11, result.totals.overlap)
        .bind(12, trafficTotal(result))
        .bind(13, result.peakGpuBytes);
}

}  // namespace

RowId Workspace::addRun(RowId profileId, const std::string& name, const HardwareConfig& hardware, const Plan& plan,
                        const SimulationResult& result) {
    const std::string op = "adding run \"" + name + "\"";
    const auto blob = simulationResultToCbor(result);  // outside the transaction: the lock is held briefly
    SqliteTransaction tx(db(), op);
    requireLiveProfile(profileId);
    SqliteStatement insert(db(),
                           "INSERT INTO runs(policy, hardware_id, hardware_json, plan_json, iteration_time_ns, "
                           "ideal_time_ns, compute_ns, fault_stall_ns, oversub_stall_ns, late_prefetch_stall_ns, "
                           "overlap_ns, traffic_bytes, peak_gpu_bytes, profile_id, name, created_at) "
                           "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
                           op);
    bindConfiguration(insert, hardware, plan, result);
    insert.bind(14, profileId).bind(15, std::string_view(name)).bind(16, nowMs()).run();
    const RowId id = db().lastInsertId();
    SqliteStatement(db(), "INSERT INTO run_results(run_id, encoding, result) VALUES (?1, ?2, ?3)", op)
        .bind(1, id)
        .bind(2, kResultEncoding)
        .bind(3, blob)
        .run();
    tx.commit();
    truncateWal(db());
    return id;
}

std::vector<RunSummary> Workspace::listRuns(std::optional<RowId> profileId) {
    SqliteStatement s(db(),
                      std::string("SELECT ") + kSummaryColumns +
                          " FROM runs WHERE deleted_at IS NULL AND (?1 IS NULL OR profile_id = ?1) AND profile_id IN "
                          "(SELECT id FROM profiles WHERE deleted_at IS NULL) ORDER BY id",
                      "listing runs");
    s.bind(1, profileId);
    std::vector<RunSummary> out;
    while (s.step()) out.push_back(readSummary(s));
    return out;
}

RunSummary Workspace::runSummary(RowId id) {
    const std::string op = "reading run " + std::to_string(id);
    SqliteStatement s(db(), std::string("SELECT ") + kSummaryColumns + " FROM runs WHERE id = ?1 AND deleted_at IS NULL", op);
    s.bind(1, id);
    if (!s.step()) throw WorkspaceError(WorkspaceError::Reason::NotFound, label(), op + ": no such run");
    return readSummary(s);
}

StoredRun Workspace::loadRun(RowId id) {
    const std::string op = "loading run " + std::to_string(id);
    SqliteStatement s(db(),
                      std::string("SELECT ") + kSummaryColumns +
                          ", hardware_json, plan_json, encoding, result FROM runs JOIN run_results ON run_id = id "
                          "WHERE id = ?1 AND deleted_at IS NULL",
                      op);
    s.bind(1, id);
    if (!s.step()) throw WorkspaceError(WorkspaceError::Reason::NotFound, label(), op + ": no such run");
    StoredRun run;
    run.summary = readSummary(s);
    const std::string where = label() + " run " + std::to_string(id);
    try {
        run.hardware = parseHardwareJson(s.columnText(15), where + " hardware_json");
        run.plan = planFromJson(nlohmann::json::parse(s.columnText(16)), where + " plan_json");
        if (s.columnText(17) != kResultEncoding)
            throw WorkspaceError(WorkspaceError::Reason::TooNew, label(),
                                 op + ": result encoding \"" + s.columnText(17) + "\", expected \"" +
                                     std::string(kResultEncoding) + "\"");
        const auto blob = s.columnBlob(18);
        run.result = simulationResultFromCbor(blob.data(), blob.size(), where + " result");
    } catch (const ImportError& e) {
        throw WorkspaceError(WorkspaceError::Reason::BadData, label(), op + ": " + e.what());
    } catch (const nlohmann::json::exception& e) {
        throw WorkspaceError(WorkspaceError::Reason::BadData, label(), op + ": plan_json: " + e.what());
    }
    return run;
}

RowId Workspace::duplicateRun(RowId id, const std::string& newName) {
    const std::string op = "duplicating run " + std::to_string(id);
    SqliteTransaction tx(db(), op);
    SqliteStatement(db(),
                    "INSERT INTO runs(profile_id, name, policy, hardware_id, hardware_json, plan_json, created_at, "
                    "iteration_time_ns, ideal_time_ns, compute_ns, fault_stall_ns, oversub_stall_ns, "
                    "late_prefetch_stall_ns, overlap_ns, traffic_bytes, peak_gpu_bytes) "
                    "SELECT profile_id, ?2, policy, hardware_id, hardware_json, plan_json, ?3, iteration_time_ns, "
                    "ideal_time_ns, compute_ns, fault_stall_ns, oversub_stall_ns, late_prefetch_stall_ns, "
                    "overlap_ns, traffic_bytes, peak_gpu_bytes FROM runs WHERE id = ?1 AND deleted_at IS NULL",
                    op)
        .bind(1, id)
        .bind(2, std::string_view(newName))
        .bind(3, nowMs())
        .run();
    if (db().changes() != 1) throw WorkspaceError(WorkspaceError::Reason::NotFound, label(), op + ": no such run");
    const RowId copy = db().lastInsertId();
    SqliteStatement(db(), "INSERT INTO run_results(run_id, encoding, result) SELECT ?2, encoding, result "
                          "FROM run_results WHERE run_id = ?1", op)
        .bind(1, id)
        .bind(2, copy)
        .run();
    tx.commit();
    return copy;
}

void Workspace::replaceRun(RowId id, const HardwareConfig& hardware, const Plan& plan, const SimulationResult& result) {
    const std::string op = "replacing run " + std::to_string(id);
    const auto blob = simulationResultToCbor(result);
    SqliteTransaction tx(db(), op);
    SqliteStatement update(db(),
                           "UPDATE runs SET policy = ?1, hardware_id = ?2, hardware_json = ?3, plan_json = ?4, "
                           "iteration_time_ns = ?5, ideal_time_ns = ?6, compute_ns = ?7, fault_stall_ns = ?8, "
                           "oversub_stall_ns = ?9, late_prefetch_stall_ns = ?10, overlap_ns = ?11, "
                           "traffic_bytes = ?12, peak_gpu_bytes = ?13 WHERE id = ?14 AND deleted_at IS NULL",
                           op);
    bindConfiguration(update, hardware, plan, result);
    update.bind(14, id).run();
    if (db().changes() != 1) throw WorkspaceError(WorkspaceError::Reason::NotFound, label(), op + ": no such run");
    SqliteStatement(db(), "UPDATE run_results SET encoding = ?2, result = ?3 WHERE run_id = ?1", op)
        .bind(1, id)
        .bind(2, kResultEncoding)
        .bind(3, blob)
        .run();
    tx.commit();
}

}  // namespace spillway::store
