#pragma once
// The work behind the workspace dock that must not run on the GUI thread: reading a stored run
// (and its profile) into the views' data, simulating it again with other settings, and storing a
// profile once (found again by its hash). Plus the small translations between a stored run and
// the What-if dock's settings.
#include "core/store/workspace.h"
#include "views/profile_view_data.h"
#include "views/run_view_data.h"
#include "views/what_if_settings.h"

#include <QString>
#include <QStringList>

#include <memory>

namespace spillway::app {

struct StoredLoadOutcome {
    store::RowId profileId = 0;
    std::shared_ptr<const views::ProfileViewData> profile;  // null on failure
    QString sourcePath;                                     // where the profile was first read from
    store::RowId runId = 0;                                 // 0: only the profile was asked for
    std::shared_ptr<const views::RunViewData> run;
    QString runPolicy;
    QString error;
    bool ok() const { return error.isEmpty() && profile; }
};

// Opens its own connection to `workspacePath` (call on a worker thread). `runId` 0 loads only
// the profile. `openProfile` is reused instead of reading the profile again when `openProfileId`
// is the run's profile. Never throws.
StoredLoadOutcome loadStoredForViews(const QString& workspacePath, store::RowId profileId, store::RowId runId,
                                     store::RowId openProfileId,
                                     std::shared_ptr<const views::ProfileViewData> openProfile);

// Duplicate with Changes: the stored run simulated again with the What-if dock's settings.
struct ChangedRunOutcome {
    QString error;                  // "" when simulated
    views::WhatIfSettings before;   // the stored run's settings
    std::shared_ptr<const views::RunViewData> run;
};

// Reads run `runId` of profile `profileId` (reusing `openProfile` when it is that profile, as
// loadStoredForViews does) and simulates it with `settings`. Never throws.
ChangedRunOutcome simulateStoredWithChanges(const QString& workspacePath, store::RowId runId, store::RowId profileId,
                                            std::shared_ptr<const views::ProfileViewData> openProfile,
                                            const views::WhatIfSettings& settings);

// The live profile with the same hash, or 0 when the workspace has none.
store::RowId findStoredProfile(store::Workspace& workspace, const Profile& profile);

// The live profile with the same hash, else a new row named `name`. `existed` says which.
store::RowId ensureProfileStored(store::Workspace& workspace, const Profile& profile, const std::string& name,
                                 bool* existed = nullptr);

// "GPU 20.00 GiB", "policy uvm", ...: what differs between a run's configuration and `after`.
QStringList describeChanges(const views::WhatIfSettings& before, const views::WhatIfSettings& after);

}  // namespace spillway::app
