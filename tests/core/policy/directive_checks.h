#pragma once
// Properties every plan of the DeepUM, FlashNeuron and discard suites must have on a real
// profile. Each returns the first violation in words (empty = none), so a failing QVERIFY2
// says which directive broke which rule.
#include "core/analysis/liveness.h"
#include "core/plan/plan.h"
#include "core/trace/profile.h"

#include <algorithm>
#include <string>

namespace spillway::testing {

inline std::string describe(const Directive& d) {
    return std::to_string(d.kernelPos) + " " + std::string(toString(d.kind)) + " tensor " +
           std::to_string(d.tensor);
}

// Names a real tensor, sits at a kernel position of the profile, plan sorted by position.
inline std::string checkWellFormed(const Profile& profile, const Plan& plan) {
    const ProfileIndex index(profile);
    const auto n = static_cast<std::int64_t>(profile.kernels.size());
    std::int64_t previous = 0;
    for (const auto& d : plan.directives) {
        if (index.tensorPos(d.tensor) < 0) return describe(d) + ": no such tensor";
        if (d.kernelPos < 0 || d.kernelPos >= n) return describe(d) + ": no such kernel position";
        if (d.kernelPos < previous) return describe(d) + ": directives not sorted by position";
        if (d.keepUntil < -1 || d.keepUntil >= n) return describe(d) + ": keepUntil is no kernel position";
        previous = d.kernelPos;
    }
    return {};
}

inline bool usesTensor(const Kernel& kernel, TensorId id) {
    return std::find(kernel.inputs.begin(), kernel.inputs.end(), id) != kernel.inputs.end() ||
           std::find(kernel.outputs.begin(), kernel.outputs.end(), id) != kernel.outputs.end();
}

// Every Discard / DiscardLazy comes after the tensor's last use in the iteration, never for a
// persistent tensor, and no kernel at or after it touches the tensor again.
inline std::string checkDiscardsAfterLastUse(const Profile& profile, const Plan& plan) {
    const ProfileIndex index(profile);
    const auto liveness = computeLiveness(profile);
    for (const auto& d : plan.directives) {
        if (d.kind != DirectiveKind::Discard && d.kind != DirectiveKind::DiscardLazy) continue;
        const auto t = static_cast<size_t>(index.tensorPos(d.tensor));
        if (profile.tensors[t].persistent) return describe(d) + ": persistent tensors are never dead";
        if (d.kernelPos <= liveness.tensors[t].lastUse) return describe(d) + ": before the last use";
    }
    return {};
}

}  // namespace spillway::testing
