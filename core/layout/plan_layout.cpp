#include "core/layout/plan_layout.h"

#include "core/layout/layout_verifier.h"

#include <stdexcept>

namespace spillway {

void attachLayout(Plan& plan, const AllocationProblem& problem, const Layout& layout, const std::string& method) {
    const auto violations = verifyLayout(problem, layout, 1);
    if (!violations.empty()) throw std::invalid_argument("cannot attach an invalid layout: " + violations.front().message);
    plan.placement = method;
    plan.arenaBytes = arenaBytes(problem, layout);
    plan.arena.clear();
    plan.arena.reserve(problem.buffers.size());
    for (size_t i = 0; i < problem.buffers.size(); ++i) {
        const Buffer& b = problem.buffers[i];
        if (b.origin.tensor < 0 && b.origin.kernelPos < 0)
            throw std::invalid_argument("buffer '" + b.id + "' does not come from a profile");
        ArenaSlot slot;
        slot.tensor = b.origin.tensor;
        slot.workspaceKernelPos = b.origin.tensor < 0 ? b.origin.kernelPos : -1;
        slot.offset = layout.offsets[i];
        slot.bytes = b.size;
        plan.arena.push_back(slot);
    }
}

}  // namespace spillway
