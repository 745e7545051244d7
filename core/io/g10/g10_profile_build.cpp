#include "core/io/g10/g10_profile_build.h"

#include <cmath>
#include <unordered_map>

namespace spillway {

KernelPhase g10KernelPhase(std::string_view name) {
    if (name == "makeLoss") return KernelPhase::Loss;
    if (name.find("Apply_Grad") != std::string_view::npos) return KernelPhase::Optimizer;
    if (name.ends_with("_Forward") || name == "LoadData_A0") return KernelPhase::Forward;
    if (name.find("_Backward") != std::string_view::npos || name == "Add_MultiGredient")
        return KernelPhase::Backward;
    return KernelPhase::Other;
}

Nanoseconds g10CyclesToNanoseconds(std::int64_t cycles) {
    return static_cast<Nanoseconds>(std::llround(static_cast<double>(cycles) / kG10CyclesPerNanosecond));
}

namespace {

TensorKind kindFromFirstWriter(KernelPhase phase) {
    switch (phase) {
        case KernelPhase::Forward: return TensorKind::Activation;
        case KernelPhase::Loss:
        case KernelPhase::Backward: return TensorKind::Gradient;
        case KernelPhase::Optimizer: return TensorKind::OptimizerState;
        case KernelPhase::Other: break;
    }
    return TensorKind::Temporary;
}

}  // namespace

Profile buildG10Profile(G10RawWorkload w, ProfileMetadata metadata) {
    Profile p;
    p.metadata = std::move(metadata);
    p.jobs.push_back({0, p.metadata.model});

    std::unordered_map<TensorId, KernelPhase> firstWriter;
    firstWriter.reserve(w.tensors.size());
    p.kernels.reserve(w.kernels.size());
    for (auto& rk : w.kernels) {
        Kernel k;
        k.id = rk.id;
        k.name = std::move(rk.name);
        k.op = std::move(rk.op);
        k.duration = rk.cycles ? g10CyclesToNanoseconds(*rk.cycles) : 0;
        k.inputs = std::move(rk.inputs);
        k.outputs = std::move(rk.outputs);
        k.phase = g10KernelPhase(k.name);
        k.workspaceBytes = rk.workspaceBytes;
        for (auto id : k.outputs) firstWriter.try_emplace(id, k.phase);
        p.kernels.push_back(std::move(k));
    }

    p.tensors.reserve(w.tensors.size());
    for (auto& rt : w.tensors) {
        Tensor t;
        t.id = rt.id;
        t.name = std::move(rt.name);
        t.bytes = rt.bytes;
        if (rt.weight) {
            t.kind = TensorKind::Weight;
            t.persistent = true;
        } else if (auto it = firstWriter.find(rt.id); it != firstWriter.end()) {
            t.kind = kindFromFirstWriter(it->second);
        } else {
            t.kind = TensorKind::Input;
        }
        p.tensors.push_back(std::move(t));
    }
    return p;
}

}  // namespace spillway
