#include "app/gui/export_plan.h"

#include "core/deploy/plan_verifier.h"
#include "core/hardware/hardware_presets.h"
#include "views/format_units.h"

#include <QFile>
#include <QObject>

namespace spillway::app {

HardwareConfig hardwareOfSettings(const views::WhatIfSettings& settings) {
    HardwareConfig hw = loadHardware(settings.preset.toStdString());
    applyHardwareOverrides(hw, settings.hardwareOverrides());
    return hw;
}

PlanExportOutcome writeVerifiedPlan(const Profile& profile, const ExportedPlan& plan, const QString& path) {
    PlanExportOutcome outcome;
    try {
        const PlanVerification verification = verifyPlan(profile, plan);
        for (const PlanProblem& p : verification.problems)
            outcome.problems << QString::fromStdString("[" + std::string(toString(p.kind)) + "] " + p.message);
        if (outcome.problems.isEmpty()) writeExportedPlan(plan, QFile::encodeName(path).toStdString());
    } catch (const std::exception& e) {
        outcome.error = QString::fromLocal8Bit(e.what());
    }
    return outcome;
}

PlanExportOutcome exportWhatIfPlan(std::shared_ptr<const Profile> profile, const views::WhatIfSettings& settings,
                                   const QString& path, DeployablePlanControl* control) {
    PlanExportOutcome outcome;
    if (!profile) {
        outcome.error = QObject::tr("%1: no profile is open").arg(path);
        return outcome;
    }
    try {
        const HardwareConfig hardware = hardwareOfSettings(settings);
        DeployablePlanRequest request;  // as runPlanExport (app/cli/plan_export.cpp) fills it
        request.policy = settings.policy.toStdString();
        request.order = settings.order.toStdString();
        request.placement = settings.placement.toStdString();
        request.orderOptions.timeLimitSecondsPerSegment = kDeployablePlanTimeLimitSeconds;
        request.placementOptions.timeLimitSeconds = kDeployablePlanTimeLimitSeconds;
        const DeployablePlan made = makeDeployablePlan(*profile, hardware, request, control);
        const ExportedPlan exported = makeExportedPlan(*profile, hardware, made.plan);
        if (control) {
            if (control->cancel.load()) throw DeployablePlanCancelled();
            control->step.store(kPlanExportVerifyStep);
        }
        // The verifier replays the plan; the file is written only after it (never half a plan).
        const PlanVerification verification = verifyPlan(*profile, exported);
        for (const PlanProblem& p : verification.problems)
            outcome.problems << QString::fromStdString("[" + std::string(toString(p.kind)) + "] " + p.message);
        if (!outcome.problems.isEmpty()) return outcome;
        if (control) {
            if (control->cancel.load()) throw DeployablePlanCancelled();
            control->step.store(kPlanExportWriteStep);
        }
        writeExportedPlan(exported, QFile::encodeName(path).toStdString());
        outcome.summary = QObject::tr("%1 on %2, order %3, %4 directives")
                              .arg(settings.policy, QString::fromStdString(hardware.id), QString::fromStdString(made.order.method))
                              .arg(made.plan.directives.size());
        if (!made.plan.arena.empty())
            outcome.summary += QObject::tr(", arena %1 by %2")
                                   .arg(views::formatBytes(made.plan.arenaBytes), QString::fromStdString(made.plan.placement));
    } catch (const DeployablePlanCancelled&) {
        outcome.cancelled = true;
    } catch (const std::exception& e) {
        outcome.error = QString::fromLocal8Bit(e.what());  // the writer's errors name the file
    }
    return outcome;
}

}  // namespace spillway::app
