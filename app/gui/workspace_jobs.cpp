#include "app/gui/workspace_jobs.h"

#include "app/gui/simulation_runner.h"
#include "core/io/native/profile_hash.h"
#include "views/format_units.h"

#include <QFile>

namespace spillway::app {

StoredLoadOutcome loadStoredForViews(const QString& workspacePath, store::RowId profileId, store::RowId runId,
                                     store::RowId openProfileId,
                                     std::shared_ptr<const views::ProfileViewData> openProfile) {
    StoredLoadOutcome outcome;
    outcome.profileId = profileId;
    outcome.runId = runId;
    try {
        auto ws = store::Workspace::open(QFile::encodeName(workspacePath).toStdString());
        std::optional<store::StoredRun> run;
        if (runId != 0) {
            run = ws.loadRun(runId);
            outcome.profileId = run->summary.profileId;
        }
        const store::ProfileSummary summary = ws.profileSummary(outcome.profileId);
        outcome.sourcePath = QString::fromStdString(summary.sourcePath);
        if (openProfile && openProfileId == outcome.profileId) {
            outcome.profile = std::move(openProfile);
        } else {
            auto profile = std::make_shared<const Profile>(ws.loadProfile(outcome.profileId));
            outcome.profile = views::makeProfileViewData(std::move(profile));
        }
        if (run) {
            outcome.runPolicy = QString::fromStdString(run->plan.policy);
            outcome.run = views::makeRunViewData(QString::fromStdString(run->summary.name), outcome.profile,
                                                 std::move(run->plan), std::move(run->hardware),
                                                 std::move(run->result));
        }
    } catch (const std::exception& e) {
        outcome.error = QString::fromUtf8(e.what());
        outcome.profile.reset();
        outcome.run.reset();
    }
    return outcome;
}

ChangedRunOutcome simulateStoredWithChanges(const QString& workspacePath, store::RowId runId, store::RowId profileId,
                                            std::shared_ptr<const views::ProfileViewData> openProfile,
                                            const views::WhatIfSettings& settings) {
    ChangedRunOutcome outcome;
    const store::RowId openProfileId = openProfile ? profileId : 0;
    StoredLoadOutcome loaded = loadStoredForViews(workspacePath, profileId, runId, openProfileId, std::move(openProfile));
    if (!loaded.ok()) {
        outcome.error = loaded.error;
        return outcome;
    }
    outcome.before = views::whatIfSettingsOf(loaded.run->hardware, loaded.runPolicy.toStdString());
    SimulationOutcome sim = simulateForViews(loaded.profile, settings, nullptr);
    if (!sim.run) outcome.error = sim.error;
    outcome.run = std::move(sim.run);
    return outcome;
}

store::RowId findStoredProfile(store::Workspace& workspace, const Profile& profile) {
    const std::vector<store::RowId> same = workspace.findProfilesByHash(profileHash(profile));
    return same.empty() ? store::RowId(0) : same.front();
}

store::RowId ensureProfileStored(store::Workspace& workspace, const Profile& profile, const std::string& name,
                                 bool* existed) {
    const store::RowId stored = findStoredProfile(workspace, profile);
    if (existed) *existed = stored != 0;
    return stored != 0 ? stored : workspace.addProfile(profile, name);
}

QStringList describeChanges(const views::WhatIfSettings& before, const views::WhatIfSettings& after) {
    QStringList changes;
    auto rate = [](qint64 bytesPerSecond) { return QStringLiteral("%1 GB/s").arg(double(bytesPerSecond) / 1e9, 0, 'g', 4); };
    if (after.preset != before.preset) changes << QStringLiteral("on %1").arg(after.preset);
    if (after.policy != before.policy) changes << QStringLiteral("policy %1").arg(after.policy);
    if (after.gpuBytes != before.gpuBytes) changes << QStringLiteral("GPU %1").arg(views::formatBytes(after.gpuBytes));
    if (after.hostBytes != before.hostBytes) changes << QStringLiteral("host %1").arg(views::formatBytes(after.hostBytes));
    if (after.ssdBytesPerSecond != before.ssdBytesPerSecond) changes << QStringLiteral("SSD %1").arg(rate(after.ssdBytesPerSecond));
    if (after.pcieBytesPerSecond != before.pcieBytesPerSecond) changes << QStringLiteral("PCIe %1").arg(rate(after.pcieBytesPerSecond));
    if (after.faultLatencyNs != before.faultLatencyNs)
        changes << QStringLiteral("fault %1").arg(views::formatDuration(after.faultLatencyNs));
    if (after.faultBatchPages != before.faultBatchPages)
        changes << QStringLiteral("fault batch %1 pages").arg(after.faultBatchPages);
    return changes;
}

}  // namespace spillway::app
