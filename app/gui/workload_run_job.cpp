#include "app/gui/workload_run_job.h"

#include "app/gui/workload_job_residency.h"
#include "core/io/import_error.h"
#include "core/sim/workload_result_convert.h"
#include "core/sim/workload_sim.h"

#include <QElapsedTimer>
#include <QFile>

#include <map>
#include <stdexcept>

namespace spillway::app {

namespace {

struct Cancelled {};

void checkpoint(WorkloadRunControl* control, int percent) {
    if (!control) return;
    if (control->cancel.load()) throw Cancelled{};
    control->percent.store(percent, std::memory_order_relaxed);
}

std::shared_ptr<const LoadedWorkload> readWorkload(const QString& path, WorkloadRunControl* control) {
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
                                       const QString& policy, WorkloadRunControl* control) {
    WorkloadRunOutcome outcome;
    outcome.path = path;
    QElapsedTimer timer;
    timer.start();
    try {
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
    } catch (const Cancelled&) {
        outcome.cancelled = true;
    } catch (const ImportError& e) {
        outcome.errorWhere = QString::fromStdString(e.location().describe());
        outcome.errorMessage = QString::fromStdString(e.message());
    } catch (const std::exception& e) {
        // Not a problem the reader diagnosed (an unknown policy, a planner's bad plan, out of
        // memory): still reported against the file rather than ending the app.
        outcome.errorWhere = path;
        outcome.errorMessage = QString::fromLocal8Bit(e.what());
    }
    outcome.elapsedNs = timer.nsecsElapsed();
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
