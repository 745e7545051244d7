#include "app/gui/export_plan.h"

#include "core/plan/exported_plan.h"
#include "core/plan/plan_verifier.h"

#include <QFile>
#include <QObject>

namespace spillway::app {

PlanExportOutcome exportRunPlan(const views::RunViewData& run, const QString& path) {
    PlanExportOutcome outcome;
    if (!run.profile || !run.profile->profile) {
        outcome.error = QObject::tr("%1: the run has no profile").arg(path);
        return outcome;
    }
    try {
        const Profile& profile = *run.profile->profile;
        const ExportedPlan plan = makeExportedPlan(profile, run.hardware, run.plan);
        const PlanVerification verification = verifyPlan(profile, plan);
        for (const PlanProblem& p : verification.problems)
            outcome.problems << QString::fromStdString("[" + std::string(toString(p.kind)) + "] " + p.message);
        if (outcome.problems.isEmpty()) writeExportedPlan(plan, QFile::encodeName(path).toStdString());
    } catch (const std::exception& e) {
        outcome.error = QString::fromLocal8Bit(e.what());
    }
    return outcome;
}

}  // namespace spillway::app
