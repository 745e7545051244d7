#include "app/gui/workload_run_job.h"

#include "app/gui/job_outcome.h"
#include "app/gui/workload_job_residency.h"
#include "core/sim/workload_result_convert.h"
#include "core/experiment/simulate_workload.h"

#include <QFile>

#include <map>
#include <stdexcept>

namespace spillway::app {

namespace {

void checkpoint(JobControl* control, int percent) {
    if (!control) return;
    if (control->cancel.load()) throw LoadCancelled();
    control->percent.store(percent, std::memory_order_relaxed);
}

std::shared_ptr<const LoadedWorkload> readWorkload(const QString& path, JobControl* control) {
    auto loaded = std::make_shared<LoadedWorkload>();
    loaded->path = path;
    loaded->workload = loadWorkload(std::filesystem::path(QFile::encodeName(path).toStdString()));
    checkpoint(control, 30);
    std::map<std::filesystem::path, std::shared_ptr<const views::ProfileViewData>> byFile;
    for (const WorkloadJob& job : loaded->workload.jobs) {
        auto& shared = byFile[job.resolvedPath];
        if (!shared || job.resolvedPath.empty())
            shared = views::makeProfileViewData(std::make_shared<const Profile>(job.profile));
        loaded->jobProfiles.push_back(shared);
    }
    checkpoint(control, 40);
    return loaded;
}

}  // namespace

WorkloadRunOutcome runWorkloadForViews(const QString& path, std::shared_ptr<const LoadedWorkload> loaded,
                                       const QString& policy, JobControl* control) {
    WorkloadRunOutcome outcome;
    outcome.path = path;
    runJobInto(outcome, path, [&] {
        checkpoint(control, 0);
        if (!loaded) loaded = readWorkload(path, control);
        auto data = std::make_shared<WorkloadRunData>();
        data->loaded = loaded;
        data->policy = policy;
        const std::string id = policy.toStdString();
        data->result = std::make_shared<const WorkloadResult>(simulateWorkload(loaded->workload, id));
        checkpoint(control, 70);
        data->vanilla = id == "none" ? data->result
                                     : std::make_shared<const WorkloadResult>(simulateWorkload(loaded->workload, "none"));
        data->metrics = compareWithVanilla(*data->result, *data->vanilla);
        checkpoint(control, 100);
        outcome.data = std::move(data);
    });
    return outcome;
}

std::shared_ptr<const views::RunViewData> jobRunViewData(const WorkloadRunData& run, int job, int iteration) {
    const Workload& workload = run.loaded->workload;
    if (job < 0 || job >= static_cast<int>(workload.jobs.size())) return nullptr;
    const WorkloadJobResult& j = run.result->jobs[size_t(job)];
    if (iteration < 0) iteration = static_cast<int>(j.iterationTimes.size()) - 1;
    SimulationResult result;
    try {
        result = jobSimulationResult(workload, *run.result, job, iteration);
    } catch (const std::out_of_range&) {
        return nullptr;  // the job ran no such iteration (a run that became impossible early)
    }
    result.tensorResidency = jobTensorResidency(workload.jobs[size_t(job)].profile, *run.result, job, iteration);
    Plan plan;
    plan.policy = run.policy.toStdString();
    const QString name = QStringLiteral("%1, iteration %2 (%3)")
                             .arg(QString::fromStdString(j.name))
                             .arg(iteration + 1)
                             .arg(run.policy);
    return views::makeRunViewData(name, run.loaded->jobProfiles[size_t(job)], std::move(plan), workload.hardware,
                                  std::move(result));
}

}  // namespace spillway::app
