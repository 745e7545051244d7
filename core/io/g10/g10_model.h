#pragma once
// G10's own view of a workload, before it becomes a Profile: the tensors and kernels exactly as
// its simulator lists them (kernels.config / tensors.config), whether read from those files or
// rebuilt from a transformer graph. Both G10 readers produce this; g10_profile_build turns it
// into a Profile, so the mapping rules live in one place.
#include "core/trace/units.h"

#include <optional>
#include <string>
#include <vector>

namespace spillway {

struct G10RawTensor {
    TensorId id = 0;      // G10's "tensorN": N, the order in which its simulator created it
    Bytes bytes = 0;      // as G10 allocates it: rounded up to whole 4 KiB pages
    bool weight = false;  // G10's "Is weight (global)?"
    std::string name;
};

struct G10RawKernel {
    KernelId id = 0;
    std::string name;     // G10's kernel type: "GatherV2_Forward", "Add_MultiGredient", ...
    std::string op;       // the parent op or layer type: "GatherV2", "Conv2d"
    std::int64_t parentId = -1;  // the parent op id (graph op id) or layer id
    std::optional<std::int64_t> cycles;  // "Execution Time" at 1.2 GHz, when the source has it
    // In G10 these are sets: a tensor appears at most once in each list.
    std::vector<TensorId> inputs;
    std::vector<TensorId> outputs;
    Bytes workspaceBytes = 0;
};

struct G10RawWorkload {
    std::vector<G10RawTensor> tensors;  // ascending id
    std::vector<G10RawKernel> kernels;  // in G10's kernel order; kernel id == position
};

// G10's clock: the time unit of its configs and results.
constexpr double kG10CyclesPerNanosecond = 1.2;
// G10 allocates every tensor (and workspace) in whole pages of this size.
constexpr Bytes kG10PageBytes = 4096;

inline Bytes roundUpToG10Page(Bytes bytes) {
    return (bytes + kG10PageBytes - 1) / kG10PageBytes * kG10PageBytes;
}

}  // namespace spillway
