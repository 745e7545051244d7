#include "core/policy/tensile/schedule_plans.h"

#include "core/policy/tensile/task_anchor.h"

#include <algorithm>

namespace spillway::tensile {

namespace {

Directive directive(DirectiveKind kind, TensorId tensor, const TaskAnchor& at) {
    Directive d;
    d.kind = kind;
    d.tensor = tensor;
    d.kernelPos = at.kernelPos;
    d.afterKernel = at.afterKernel;
    d.delay = at.delay;
    d.target = kind == DirectiveKind::PreEvict ? Tier::Host : Tier::Gpu;
    return d;
}

TaskAnchor justAfter(const TensorAccess& access) { return {access.kernelPos, true, 0}; }

}  // namespace

std::vector<Plan> plansFromSchedule(const TensorAccessSequence& tas, const MemorySchedule& schedule,
                                    const std::string& policy) {
    std::vector<Plan> plans(tas.jobs.size());
    for (auto& plan : plans) plan.policy = policy;
    for (size_t t = 0; t < tas.tensors.size(); ++t) {
        const auto& tensor = tas.tensors[t];
        const auto& job = tas.jobs[static_cast<size_t>(tensor.job)];
        auto& out = plans[static_cast<size_t>(tensor.job)].directives;
        for (const auto& d : schedule.of(t)) {
            const auto& access = tensor.accesses[static_cast<size_t>(d.afterAccess)];
            switch (d.action) {
            case GapAction::Swap:
                out.push_back(directive(DirectiveKind::PreEvict, tensor.id, anchorAt(job, d.swapOutStart)));
                out.push_back(directive(DirectiveKind::Prefetch, tensor.id, anchorAt(job, d.swapInStart)));
                break;
            case GapAction::Release:
                out.push_back(directive(DirectiveKind::PreEvict, tensor.id, justAfter(access)));
                out.push_back(directive(DirectiveKind::Prefetch, tensor.id, anchorAt(job, d.swapInStart)));
                break;
            case GapAction::Recompute:
                out.push_back(directive(DirectiveKind::Recompute, tensor.id, justAfter(access)));
                break;
            }
        }
        if (!tensor.persistent && !tensor.accesses.empty())
            out.push_back(directive(DirectiveKind::Free, tensor.id, justAfter(tensor.accesses.back())));
    }
    for (auto& plan : plans)
        std::stable_sort(plan.directives.begin(), plan.directives.end(), [](const Directive& a, const Directive& b) {
            if (a.kernelPos != b.kernelPos) return a.kernelPos < b.kernelPos;
            if (a.afterKernel != b.afterKernel) return !a.afterKernel;
            return a.delay < b.delay;
        });
    return plans;
}

void addPeakNotes(const TensorAccessSequence& tas, const MemorySchedule& schedule, const PeakAnalysis& before,
                  const PeakAnalysis& after, Bytes gpuCapacity, std::vector<Plan>& plans) {
    const MemorySchedule none(tas.tensors.size());
    for (size_t j = 0; j < plans.size(); ++j) {
        auto& notes = plans[j].notes;
        notes["predicted_peak_before_bytes"] = std::to_string(before.peak);
        notes["predicted_peak_after_bytes"] = std::to_string(after.peak);
        notes["predicted_peak_time_ns"] = std::to_string(after.peakTime);
        notes["job_predicted_peak_before_bytes"] = std::to_string(analysePeak(tas, none, static_cast<int>(j)).peak);
        notes["job_predicted_peak_after_bytes"] = std::to_string(analysePeak(tas, schedule, static_cast<int>(j)).peak);
        notes["fits"] = gpuCapacity <= 0 ? "unknown (no GPU capacity)" : after.peak <= gpuCapacity ? "yes" : "no";
        int swaps = 0, releases = 0, recomputes = 0;
        for (size_t t = 0; t < tas.tensors.size(); ++t) {
            if (tas.tensors[t].job != static_cast<std::int32_t>(j)) continue;
            for (const auto& d : schedule.of(t)) {
                swaps += d.action == GapAction::Swap;
                releases += d.action == GapAction::Release;
                recomputes += d.action == GapAction::Recompute;
            }
        }
        notes["swap_outs"] = std::to_string(swaps);
        notes["extra_swap_ins"] = std::to_string(releases);
        notes["recomputations"] = std::to_string(recomputes);
    }
}

}  // namespace spillway::tensile
