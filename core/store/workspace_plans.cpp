// Plans the user keeps (apart from the plan each run carries): the plan as JSON and the
// machine it was made for.
#include "core/io/base/import_error.h"
#include "core/plan/plan_json.h"
#include "core/hardware/hardware_presets.h"
#include "core/sqlite/sqlite_connection.h"
#include "core/store/workspace.h"
#include "core/store/workspace_clock.h"

namespace spillway::store {

namespace {

constexpr const char* kSummaryColumns = "id, profile_id, name, policy, hardware_id, created_at";

PlanSummary readSummary(const SqliteStatement& s) {
    return {s.columnInt(0), s.columnInt(1), s.columnText(2), s.columnText(3), s.columnText(4), s.columnInt(5)};
}

}  // namespace

RowId Workspace::addPlan(RowId profileId, const std::string& name, const HardwareConfig& hardware, const Plan& plan) {
    const std::string op = "adding plan \"" + name + "\"";
    SqliteTransaction tx(db(), op);
    requireLiveProfile(profileId);
    SqliteStatement(db(),
                    "INSERT INTO plans(profile_id, name, policy, hardware_id, hardware_json, plan_json, created_at) "
                    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                    op)
        .bind(1, profileId)
        .bind(2, std::string_view(name))
        .bind(3, std::string_view(plan.policy))
        .bind(4, std::string_view(hardware.id))
        .bind(5, std::string_view(writeHardwareJson(hardware)))
        .bind(6, std::string_view(planToJson(plan).dump()))
        .bind(7, nowMs())
        .run();
    const RowId id = db().lastInsertId();
    tx.commit();
    return id;
}

std::vector<PlanSummary> Workspace::listPlans(std::optional<RowId> profileId) {
    SqliteStatement s(db(),
                      std::string("SELECT ") + kSummaryColumns +
                          " FROM plans WHERE deleted_at IS NULL AND (?1 IS NULL OR profile_id = ?1) AND profile_id IN "
                          "(SELECT id FROM profiles WHERE deleted_at IS NULL) ORDER BY id",
                      "listing plans");
    s.bind(1, profileId);
    std::vector<PlanSummary> out;
    while (s.step()) out.push_back(readSummary(s));
    return out;
}

StoredPlan Workspace::loadPlan(RowId id) {
    const std::string op = "loading plan " + std::to_string(id);
    SqliteStatement s(db(), std::string("SELECT ") + kSummaryColumns +
                                ", hardware_json, plan_json FROM plans WHERE id = ?1 AND deleted_at IS NULL", op);
    s.bind(1, id);
    if (!s.step()) throw WorkspaceError(WorkspaceError::Reason::NotFound, label(), op + ": no such plan");
    StoredPlan plan;
    plan.summary = readSummary(s);
    const std::string where = label() + " plan " + std::to_string(id);
    try {
        plan.hardware = parseHardwareJson(s.columnText(6), where + " hardware_json");
        plan.plan = planFromJson(nlohmann::json::parse(s.columnText(7)), where + " plan_json");
    } catch (const ImportError& e) {
        throw WorkspaceError(WorkspaceError::Reason::BadData, label(), op + ": " + e.what());
    } catch (const nlohmann::json::exception& e) {
        throw WorkspaceError(WorkspaceError::Reason::BadData, label(), op + ": plan_json: " + e.what());
    }
    return plan;
}

}  // namespace spillway::store
