#pragma once
// File > Export > Run as Plan: the plan of the What-if dock's settings as spillway.plan/1
// (core/plan) for the replay runtime: its policy on its machine, with the dock's operator order
// and the arena of its placement method (the layout the Offsets tab shows), made by
// core/deploy/deployable_plan (what `spillway-cli plan --export` calls, with the same time
// limits, so the same settings give the same file). The verifier (core/deploy/plan_verifier.h)
// runs first; a plan it refuses is not written and its problems are returned for the message box.
#include "core/deploy/deployable_plan.h"
#include "core/plan/exported_plan.h"
#include "views/what_if_settings.h"

#include <QMetaType>
#include <QString>
#include <QStringList>

#include <memory>

namespace spillway::app {

struct PlanExportOutcome {
    QString error;         // the file could not be written (names it), planning failed, or no profile
    QStringList problems;  // the verifier's, one line each ("[kind] message"); nothing was written
    bool cancelled = false;  // stopped on the control's cancel flag; nothing was written
    QString summary;       // what was written: policy, machine, order, directives, arena
    bool written() const { return error.isEmpty() && problems.isEmpty() && !cancelled; }
};

// Progress of exportWhatIfPlan: DeployablePlanControl's steps, then these two.
inline constexpr int kPlanExportVerifyStep = kDeployablePlanSteps;
inline constexpr int kPlanExportWriteStep = kDeployablePlanSteps + 1;
inline constexpr int kPlanExportSteps = kDeployablePlanSteps + 2;

// The machine of the settings: the preset with the dock's values (as the what-if run uses it).
HardwareConfig hardwareOfSettings(const views::WhatIfSettings& settings);

// Verifies `plan` against `profile` and writes it only when the verifier passes it.
PlanExportOutcome writeVerifiedPlan(const Profile& profile, const ExportedPlan& plan, const QString& path);

// Plans (order, directives, arena), verifies and writes. Seconds on GPT-2-sized profiles (the
// searches run to their time limits): call it on a worker thread. `control` may be null; its
// cancel flag is checked between steps. Never throws.
PlanExportOutcome exportWhatIfPlan(std::shared_ptr<const Profile> profile, const views::WhatIfSettings& settings,
                                   const QString& path, DeployablePlanControl* control = nullptr);

}  // namespace spillway::app

Q_DECLARE_METATYPE(spillway::app::PlanExportOutcome)  // ExportActions::planExportFinished
