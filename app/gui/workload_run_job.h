#pragma once
// The work behind File ▸ Open Workload and the Jobs tab's policy choice, run on a worker
// thread: read the workload and every job's profile (core/workload/workload.h), simulate it with the
// chosen multi-job policy and with "none" (the vanilla run TENSILE's ratios are measured
// against), and compare them. The outcome is a value handed to the GUI thread; nothing is
// shared while the job runs but the atomics of its JobControl.
#include "app/gui/job_control.h"
#include "core/workload/workload.h"
#include "core/sim/workload_metrics.h"
#include "core/sim/workload_result.h"
#include "views/profile_view_data.h"
#include "views/run_view_data.h"

#include <QString>

#include <memory>
#include <vector>

namespace spillway::app {

// A workload as read, with each job's profile prepared for the run views (jobs that name the
// same profile file share one). Immutable once made: a new policy reuses it.
struct LoadedWorkload {
    QString path;
    Workload workload;
    std::vector<std::shared_ptr<const views::ProfileViewData>> jobProfiles;  // parallel to jobs
};

struct WorkloadRunData {
    std::shared_ptr<const LoadedWorkload> loaded;
    QString policy;
    std::shared_ptr<const WorkloadResult> result;
    std::shared_ptr<const WorkloadResult> vanilla;  // the same object as result for "none"
    WorkloadMetrics metrics;
};

struct WorkloadRunOutcome {
    QString path;
    std::shared_ptr<const WorkloadRunData> data;  // null on failure or cancellation
    QString errorWhere;    // "w.json: /jobs/1/start" (ImportError's file and JSON pointer)
    QString errorMessage;  // what was expected there
    bool cancelled = false;
    qint64 elapsedNs = 0;
};

// Never throws. Reads `path` unless `loaded` is given (a new policy on the open workload).
// `control` may be null; its `percent` goes: reading 0-40, the policy's run 40-70, vanilla 70-100
// (the simulator reports no progress inside a run, so `cancel` is seen between the stages).
WorkloadRunOutcome runWorkloadForViews(const QString& path, std::shared_ptr<const LoadedWorkload> loaded,
                                       const QString& policy, JobControl* control = nullptr);

// One job's iteration (-1: its last) of the run as the run tabs' data (Memory, Stalls, Lifetimes,
// Traffic), through core's jobSimulationResult plus the approximate per-tensor residency of
// workload_job_residency.h; null when the job ran no such iteration. Linear in the job's
// iteration: fine on the GUI thread for profiles of thousands of kernels.
std::shared_ptr<const views::RunViewData> jobRunViewData(const WorkloadRunData& run, int job, int iteration = -1);

}  // namespace spillway::app
