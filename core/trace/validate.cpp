#include "core/trace/validate.h"

#include "core/trace/dependency_graph.h"
#include "core/trace/number_limits.h"

#include <fmt/format.h>

#include <unordered_map>
#include <unordered_set>

namespace spillway {

namespace {

void checkDuplicates(const Profile& p, std::vector<ValidationProblem>& out) {
    std::unordered_map<TensorId, size_t> seenTensors;
    for (size_t i = 0; i < p.tensors.size(); ++i) {
        auto [it, fresh] = seenTensors.emplace(p.tensors[i].id, i);
        if (!fresh)
            out.push_back({fmt::format("/tensors/{}/id", i),
                           fmt::format("duplicate tensor id {} (first at /tensors/{})",
                                       p.tensors[i].id, it->second)});
    }
    std::unordered_map<KernelId, size_t> seenKernels;
    for (size_t i = 0; i < p.kernels.size(); ++i) {
        auto [it, fresh] = seenKernels.emplace(p.kernels[i].id, i);
        if (!fresh)
            out.push_back({fmt::format("/kernels/{}/id", i),
                           fmt::format("duplicate kernel id {} (first at /kernels/{})",
                                       p.kernels[i].id, it->second)});
    }
    std::unordered_map<JobId, size_t> seenJobs;
    for (size_t i = 0; i < p.jobs.size(); ++i) {
        auto [it, fresh] = seenJobs.emplace(p.jobs[i].id, i);
        if (!fresh)
            out.push_back({fmt::format("/jobs/{}/id", i),
                           fmt::format("duplicate job id {} (first at /jobs/{})", p.jobs[i].id,
                                       it->second)});
    }
}

// Sizes must be positive and durations too; both, and workspaces, at most their bound
// (number_limits.h), which every importer also enforces: a profile built in memory may not have
// been read through one.
void checkSizes(const Profile& p, std::vector<ValidationProblem>& out) {
    for (size_t i = 0; i < p.tensors.size(); ++i) {
        const auto& t = p.tensors[i];
        if (t.bytes <= 0)
            out.push_back({fmt::format("/tensors/{}/bytes", i),
                           fmt::format("tensor {} has size {} bytes; expected a positive size", t.id, t.bytes)});
        else if (t.bytes > kMaxBytes)
            out.push_back({fmt::format("/tensors/{}/bytes", i),
                           fmt::format("tensor {}: {}", t.id, outOfBytesRange(t.bytes))});
    }
    for (size_t i = 0; i < p.kernels.size(); ++i) {
        const auto& k = p.kernels[i];
        if (k.duration <= 0)
            out.push_back({fmt::format("/kernels/{}/duration_ns", i),
                           fmt::format("kernel {} ({}) has duration {} ns; expected a positive "
                                       "duration",
                                       k.id, k.name, k.duration)});
        else if (k.duration > kMaxDurationNs)
            out.push_back({fmt::format("/kernels/{}/duration_ns", i),
                           fmt::format("kernel {} ({}): {}", k.id, k.name, outOfDurationRange(k.duration))});
        if (k.workspaceBytes < 0)
            out.push_back({fmt::format("/kernels/{}/workspace_bytes", i),
                           fmt::format("kernel {} has negative workspace {}", k.id,
                                       k.workspaceBytes)});
        else if (k.workspaceBytes > kMaxBytes)
            out.push_back({fmt::format("/kernels/{}/workspace_bytes", i),
                           fmt::format("kernel {} workspace: {}", k.id, outOfBytesRange(k.workspaceBytes))});
    }
}

// The optional times: faulted kernel times are durations (0 to the bound); times from the
// capture's zero may be before it, but not further from it than the bound.
void checkTimes(const Profile& p, std::vector<ValidationProblem>& out) {
    using Range = std::string (*)(std::int64_t);
    const auto check = [&](const std::optional<Nanoseconds>& t, Range range, const std::string& pointer,
                           const std::string& whose) {
        if (!t) return;
        if (const std::string why = range(*t); !why.empty()) out.push_back({pointer, fmt::format("{}: {}", whose, why)});
    };
    for (size_t i = 0; i < p.tensors.size(); ++i) {
        const auto& t = p.tensors[i];
        const std::string whose = fmt::format("tensor {}", t.id);
        check(t.allocTime, outOfTimestampRange, fmt::format("/tensors/{}/alloc_time_ns", i), whose);
        check(t.freeTime, outOfTimestampRange, fmt::format("/tensors/{}/free_time_ns", i), whose);
    }
    for (size_t i = 0; i < p.kernels.size(); ++i) {
        const auto& k = p.kernels[i];
        const std::string whose = fmt::format("kernel {} ({})", k.id, k.name);
        check(k.timeAllFaulted, outOfDurationRange, fmt::format("/kernels/{}/time_all_faulted_ns", i), whose);
        check(k.timeOutputsFaulted, outOfDurationRange, fmt::format("/kernels/{}/time_outputs_faulted_ns", i), whose);
        check(k.capturedStart, outOfTimestampRange, fmt::format("/kernels/{}/captured_start_ns", i), whose);
    }
}

void checkJobs(const Profile& p, std::vector<ValidationProblem>& out) {
    if (p.jobs.empty()) return;
    std::unordered_set<JobId> jobs;
    for (const auto& j : p.jobs) jobs.insert(j.id);
    for (size_t i = 0; i < p.tensors.size(); ++i)
        if (!jobs.contains(p.tensors[i].job))
            out.push_back({fmt::format("/tensors/{}/job", i),
                           fmt::format("tensor {} names unknown job {}", p.tensors[i].id, p.tensors[i].job)});
    for (size_t i = 0; i < p.kernels.size(); ++i)
        if (!jobs.contains(p.kernels[i].job))
            out.push_back({fmt::format("/kernels/{}/job", i),
                           fmt::format("kernel {} names unknown job {}", p.kernels[i].id, p.kernels[i].job)});
}

// Unknown ids, and non-persistent tensors read before their first producer.
void checkUses(const Profile& p, const ProfileIndex& index, std::vector<ValidationProblem>& out) {
    std::vector<std::int64_t> firstProducer(p.tensors.size(), -1);
    for (size_t k = 0; k < p.kernels.size(); ++k)
        for (TensorId id : p.kernels[k].outputs) {
            auto pos = index.tensorPos(id);
            if (pos >= 0 && firstProducer[pos] < 0) firstProducer[pos] = static_cast<std::int64_t>(k);
        }
    for (size_t k = 0; k < p.kernels.size(); ++k) {
        const auto& kernel = p.kernels[k];
        for (size_t j = 0; j < kernel.inputs.size(); ++j) {
            auto pos = index.tensorPos(kernel.inputs[j]);
            if (pos < 0) {
                out.push_back({fmt::format("/kernels/{}/inputs/{}", k, j),
                               fmt::format("kernel {} ({}) reads unknown tensor id {}", kernel.id,
                                           kernel.name, kernel.inputs[j])});
                continue;
            }
            const auto& t = p.tensors[pos];
            if (!t.persistent && firstProducer[pos] > static_cast<std::int64_t>(k))
                out.push_back({fmt::format("/kernels/{}/inputs/{}", k, j),
                               fmt::format("kernel {} ({}) reads tensor {} ({}) before kernel {} "
                                           "produces it",
                                           kernel.id, kernel.name, t.id, t.name,
                                           p.kernels[firstProducer[pos]].id)});
        }
        for (size_t j = 0; j < kernel.outputs.size(); ++j)
            if (index.tensorPos(kernel.outputs[j]) < 0)
                out.push_back({fmt::format("/kernels/{}/outputs/{}", k, j),
                               fmt::format("kernel {} ({}) writes unknown tensor id {}", kernel.id,
                                           kernel.name, kernel.outputs[j])});
    }
}

void checkCycles(const Profile& p, std::vector<ValidationProblem>& out) {
    const DependencyGraph graph = DependencyGraph::derive(p);
    const auto cycle = graph.findCycle();
    if (cycle.empty()) return;
    std::string path;
    for (size_t i = 0; i < cycle.size(); ++i) {
        if (i) path += " -> ";
        path += fmt::format("{}", p.kernels[cycle[i]].id);
    }
    path += fmt::format(" -> {}", p.kernels[cycle.front()].id);
    out.push_back({fmt::format("/kernels/{}", cycle.front()),
                   fmt::format("the dependency graph derived from the tensors has a cycle through "
                               "kernels {}",
                               path)});
}

}  // namespace

std::vector<ValidationProblem> validateProfile(const Profile& profile) {
    std::vector<ValidationProblem> problems;
    const ProfileIndex index(profile);
    checkDuplicates(profile, problems);
    checkSizes(profile, problems);
    checkTimes(profile, problems);
    checkJobs(profile, problems);
    checkUses(profile, index, problems);
    checkCycles(profile, problems);
    return problems;
}

}  // namespace spillway
