#include "app/cli/workload_simulate.h"

#include "app/cli/cli_common.h"
#include "app/cli/json_output.h"
#include "app/cli/sim_report.h"
#include "app/cli/workload_report.h"

#include "core/io/base/file_text.h"
#include "core/experiment/simulate_workload.h"
#include "core/hardware/hardware_presets.h"
#include "core/io/base/json_dump.h"
#include "core/io/native/profile_hash.h"
#include "core/sim/workload_sim.h"

#include <fmt/format.h>

#include <iostream>
#include <sstream>

namespace spillway::cli {

namespace {

std::vector<std::string> policyList(const WorkloadSimulateArgs& args) {
    std::vector<std::string> ids;
    if (args.compareAll) {
        for (const auto& p : multiJobPlanners()) ids.push_back(p.id);
        return ids;
    }
    for (const auto& item : args.policies) {
        std::stringstream in(item);
        for (std::string id; std::getline(in, id, ',');)
            if (!id.empty()) ids.push_back(id);
    }
    if (ids.empty()) ids.push_back("none");
    for (const auto& id : ids) (void)multiJobPlanner(id);  // unknown ids fail before any run
    return ids;
}

}  // namespace

int runWorkloadSimulate(const WorkloadSimulateArgs& args) {
    const auto policies = policyList(args);
    Workload workload = loadWorkload(args.path);
    if (args.hw) workload.hardware = loadHardware(*args.hw);
    applyHardwareOverrides(workload.hardware, args.sets);

    const WorkloadResult vanilla = simulateWorkload(workload, "none");
    nlohmann::ordered_json doc;
    doc["workload"] = args.path;
    doc["name"] = workload.name;
    doc["hardware"] = hardwareSummaryJson(workload.hardware);
    doc["overrides"] = args.sets;
    doc["link_mode"] = toString(workload.linkMode);
    doc["replan_drift"] = static_cast<double>(workload.replanDriftPpm) / 1e6;
    doc["ewma_beta"] = static_cast<double>(workload.ewmaBetaPpm) / 1e6;
    if (!vanilla.cannotRun.empty()) doc["vanilla_cannot_run"] = vanilla.cannotRun;
    auto runs = nlohmann::ordered_json::array();
    std::vector<std::pair<WorkloadResult, WorkloadMetrics>> results;
    for (const auto& id : policies) {
        WorkloadResult run = id == "none" ? vanilla : simulateWorkload(workload, id);
        const WorkloadMetrics metrics = compareWithVanilla(run, vanilla);
        runs.push_back(workloadRunJson(workload, run, metrics, args.details));
        results.emplace_back(std::move(run), metrics);
    }
    doc["runs"] = std::move(runs);
    if (!args.jsonOut.empty()) {
        const JsonOutput out{args.jsonOut};
        auto header = jsonHeader("spillway.workload-simulation/1");
        // Several profiles: one hash per job, by the job's name.
        header["profile_hashes"] = nlohmann::ordered_json::object();
        for (const WorkloadJob& job : workload.jobs) header["profile_hashes"][job.name] = profileHash(job.profile);
        writeJsonOutput(out, header, doc);
        if (out.toStdout()) return kExitOk;
    }
    fmt::print("Workload    {} ({} jobs{})\n", args.path, workload.jobs.size(),
               workload.name.empty() ? "" : ": " + workload.name);
    fmt::print("Hardware    {} (GPU {}), link {}, re-plan past {:.1f}% drift, EWMA beta {:.2f}\n", workload.hardware.id,
               readableBytes(workload.hardware.gpuCapacity), toString(workload.linkMode),
               static_cast<double>(workload.replanDriftPpm) / 1e4, static_cast<double>(workload.ewmaBetaPpm) / 1e6);
    if (!vanilla.cannotRun.empty()) fmt::print("Vanilla     cannot run: {}\n", vanilla.cannotRun);
    else
        fmt::print("Vanilla     peak GPU {}, time {} (MSR, EOR and CBR are against this run; CBR '-' = no extra time)\n",
                   readableBytes(vanilla.peakGpuBytes), readableDuration(vanilla.makespan()));
    for (const auto& [run, metrics] : results) printWorkloadRun(run, metrics);
    return kExitOk;
}

}  // namespace spillway::cli
