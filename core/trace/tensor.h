#pragma once
#include "core/trace/frame_stack.h"
#include "core/trace/units.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spillway {

// What a tensor holds; planners treat kinds differently (weights persist, workspaces live in one
// kernel, activations are produced in forward and consumed in backward).
enum class TensorKind { Weight, Activation, Gradient, OptimizerState, Workspace, Input, Temporary };

std::string_view toString(TensorKind kind);
std::optional<TensorKind> tensorKindFromString(std::string_view text);
const std::vector<TensorKind>& allTensorKinds();

struct Tensor {
    TensorId id = 0;
    std::string name;
    Bytes bytes = 0;
    TensorKind kind = TensorKind::Activation;
    JobId job = 0;
    // Survives the iteration (weights, optimizer state): live from the start to the end, and
    // its last use wraps around to its first use in the next iteration.
    bool persistent = false;
    // Optional capture details (memory snapshots, profiler traces): when the allocator handed
    // the block out and took it back, its device address, and the Python/C++ stack that asked.
    std::optional<Nanoseconds> allocTime;
    std::optional<Nanoseconds> freeTime;
    std::optional<std::uint64_t> address;
    FrameStack frames;

    bool operator==(const Tensor&) const = default;
};

}  // namespace spillway
