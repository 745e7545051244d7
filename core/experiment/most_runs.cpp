#include "core/experiment/most_runs.h"

#include "core/experiment/most_workloads.h"
#include "core/hardware/hardware_presets.h"
#include "core/policy/planner.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <limits>

namespace spillway {

namespace {

const std::vector<std::string>& mostPolicies() {
    static const std::vector<std::string> policies = {"deepum", "uvm", "g10", "most"};
    return policies;
}

SweepSpec sweepSpec(const char* parameter, std::vector<std::string> values) {
    SweepSpec spec;
    spec.baseHardware = hardwarePreset(kMostMachine);
    spec.parameter = parameter;
    spec.values = std::move(values);
    spec.policies = mostPolicies();
    return spec;
}

// The workloads `only` names (all when empty), in Table I's order.
std::vector<MostWorkload> chosenWorkloads(const std::vector<std::string>& only) {
    std::vector<MostWorkload> all = mostWorkloads();
    if (only.empty()) return all;
    std::vector<MostWorkload> chosen;
    std::string known;
    for (const auto& w : all) known += (known.empty() ? "" : ", ") + w.name;
    for (const auto& name : only)
        if (std::none_of(all.begin(), all.end(), [&](const MostWorkload& w) { return w.name == name; }))
            throw std::invalid_argument(fmt::format("no MOST workload '{}' (there are {})", name, known));
    for (auto& w : all)
        if (std::find(only.begin(), only.end(), w.name) != only.end()) chosen.push_back(std::move(w));
    return chosen;
}

// Mean bytes per PreEvict directive of `policy`'s plan; NaN without one or when it cannot plan.
double meanPreEvictedBytes(const Profile& profile, const std::string& policy, const HardwareConfig& machine) {
    try {
        const Plan plan = makePlan(policy, profile, machine);
        const ProfileIndex index(profile);
        double bytes = 0;
        int count = 0;
        for (const Directive& d : plan.directives)
            if (d.kind == DirectiveKind::PreEvict) {
                bytes += double(profile.tensors[index.tensorPos(d.tensor)].bytes);
                ++count;
            }
        return count ? bytes / count : std::nan("");
    } catch (const std::exception&) {
        return std::nan("");
    }
}

}  // namespace

std::vector<MostWorkloadRuns> runMostEvaluation(const ReproductionOptions& options) {
    const std::vector<SweepSpec> specs = {
        sweepSpec("ssd.bandwidth", {"3.2GB/s", "6.4GB/s", "12.8GB/s", "25.6GB/s"}),
        sweepSpec("gpu_count", {"1", "2", "4"}),
        sweepSpec("ssd.latency", {"5us", "10us", "15us", "20us"}),
        sweepSpec("fault_model", {"analytic", "g10-calibrated"}),
    };
    std::vector<MostWorkload> workloads = chosenWorkloads(options.only);
    size_t cellsPerWorkload = 0;
    for (const auto& spec : specs) cellsPerWorkload += spec.values.size() * spec.policies.size();
    const size_t total = cellsPerWorkload * workloads.size();
    size_t before = 0;  // cells of the sweeps already finished
    SweepOptions sweepOptions;
    sweepOptions.cancel = options.cancel;
    sweepOptions.threads = options.threads;
    sweepOptions.progress = [&](size_t done, size_t) {
        if (options.progress) options.progress(before + done, total);
    };
    std::vector<MostWorkloadRuns> runs;
    for (auto& workload : workloads) {
        MostWorkloadRuns r{workload.name, workload.command, {}, {}, {}, {}};
        SweepResult* slots[] = {&r.bandwidth, &r.gpus, &r.latency, &r.faultModel};
        for (size_t i = 0; i < specs.size(); ++i) {
            *slots[i] = runSweep(workload.profile, specs[i], sweepOptions);
            before += specs[i].values.size() * specs[i].policies.size();
        }
        for (size_t p = 0; p < mostPolicies().size(); ++p)
            r.meanPreEvictedBytes[p] = meanPreEvictedBytes(workload.profile, mostPolicies()[p], specs[0].baseHardware);
        workload.profile = Profile{};  // the next workload's profile needs the memory more
        runs.push_back(std::move(r));
    }
    return runs;
}

double mostSpeedup(const SweepResult& sweep, size_t v, size_t policy, size_t base) {
    const SweepCell& b = sweep.at(v, base);
    const SweepCell& c = sweep.at(v, policy);
    if (!b.ok || !c.ok || c.iterationTime <= 0) return std::numeric_limits<double>::quiet_NaN();
    return double(b.iterationTime) / double(c.iterationTime);
}

std::string mostCellError(const SweepResult& sweep, size_t v, size_t policy) {
    const SweepCell& c = sweep.at(v, policy);
    return c.ok ? std::string() : c.error;
}

}  // namespace spillway
