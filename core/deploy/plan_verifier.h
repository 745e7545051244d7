#pragma once
// The plan verifier: run before every export (spillway-cli plan --export, File > Export Plan)
// and by `spillway-cli verify PLAN PROFILE`. It checks that the plan belongs to the profile
// (hash), that its order is a permutation that respects the data flow, that its directives name
// real kernels and tensors, that its arena slots cover every buffer without overlapping
// (core/layout/layout_verifier) and fit, and it replays the plan in the simulator on the plan's
// own machine: a kernel that would use a tensor whose data is not on the GPU, in a plan that
// may not fault (Plan::faultsAllowed), and a run that cannot complete, are refused. Every
// problem is returned, each naming its kernel (position and name) and tensor (id and name).
// Rules and decisions: docs/plans.md.
#include "core/plan/exported_plan.h"
#include "core/sim/sim_result.h"
#include "core/trace/profile.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace spillway {

enum class PlanProblemKind {
    ProfileMismatch,  // the plan's profile hash is not this profile's
    BadOrder,         // not a permutation of the kernels, or a kernel before one whose output it needs
    BadDirective,     // names a kernel or tensor the profile lacks, a wrong target, advice or delay
    BadArena,         // a slot for no buffer, a buffer without a slot, a slot too small, arena_bytes short
    Overlap,          // two buffers live at the same kernel overlap in the arena
    DoesNotFit,       // the arena exceeds the memory it must live in, or the replay cannot complete
    UsedWhileAbsent,  // a kernel uses a tensor that is on the host or SSD and the plan may not fault
    CannotReplay,     // the simulator refused the plan for another reason (its message says why)
};
std::string_view toString(PlanProblemKind kind);

struct PlanProblem {
    PlanProblemKind kind = PlanProblemKind::BadOrder;
    std::string message;          // one line; names the kernel and the tensor where there are
    std::int64_t kernelPos = -1;  // profile position of the kernel involved; -1 = none
    TensorId tensor = -1;         // id of the tensor involved; -1 = none
    TensorId otherTensor = -1;    // Overlap: the tensor it overlaps (-1: a kernel workspace or none)
    std::int64_t directive = -1;  // BadDirective: index into plan.directives
};

struct PlanVerification {
    std::vector<PlanProblem> problems;
    // The replay ran (it is skipped while the order or a directive is malformed, or the plan
    // is for another profile: the simulator would reject or misread it).
    bool replayed = false;
    SimulationResult result;  // of the replay, when it ran
    bool ok() const { return problems.empty(); }
};

// Problems of one kind beyond this many are summed up in one last problem of that kind.
inline constexpr std::size_t kMaxProblemsPerKind = 200;

// Checked between kernels of the replay; a cancelled verification throws SimulationCancelled.
PlanVerification verifyPlan(const Profile& profile, const ExportedPlan& plan, const std::atomic<bool>* cancel = nullptr);

// How problems name things: "kernel 12 'fc2'" (profile position, name) and "tensor 7 'x.grad'"
// (id, name); out-of-range values are named as such.
std::string describeKernel(const Profile& profile, std::int64_t position);
std::string describeTensor(const Profile& profile, TensorId id);

}  // namespace spillway
