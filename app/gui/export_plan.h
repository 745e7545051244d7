#pragma once
// File > Export > Run as Plan: the current run's plan as spillway.plan/1 (core/plan), for the
// replay runtime. The verifier (core/plan/plan_verifier.h) runs first; a plan it refuses is
// not written and its problems are returned for the message box.
#include "views/run_view_data.h"

#include <QString>
#include <QStringList>

namespace spillway::app {

struct PlanExportOutcome {
    QString error;         // the file could not be written (names it), or the run has no profile
    QStringList problems;  // the verifier's, one line each ("[kind] message"); nothing was written
    bool written() const { return error.isEmpty() && problems.isEmpty(); }
};

// Runs a replay of the plan (the verifier's): seconds on the largest profiles.
PlanExportOutcome exportRunPlan(const views::RunViewData& run, const QString& path);

}  // namespace spillway::app
