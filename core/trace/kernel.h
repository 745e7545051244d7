#pragma once
#include "core/trace/units.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spillway {

enum class KernelPhase { Forward, Loss, Backward, Optimizer, Other };

std::string_view toString(KernelPhase phase);
std::optional<KernelPhase> kernelPhaseFromString(std::string_view text);
const std::vector<KernelPhase>& allKernelPhases();

struct Kernel {
    KernelId id = 0;
    std::string name;
    // The framework operator this kernel belongs to (G10's parent op, a torch op name).
    std::string op;
    // Time with everything resident in GPU memory.
    Nanoseconds duration = 0;
    std::vector<TensorId> inputs;
    std::vector<TensorId> outputs;
    KernelPhase phase = KernelPhase::Forward;
    JobId job = 0;
    // Scratch memory live only while the kernel runs (cuDNN workspace).
    Bytes workspaceBytes = 0;
    // G10's measured times when pages fault from host memory: every input and output faults
    // (PF), or inputs resident and outputs fault (InputPF). The g10-calibrated fault model
    // derives per-kernel fault bandwidths from them.
    std::optional<Nanoseconds> timeAllFaulted;
    std::optional<Nanoseconds> timeOutputsFaulted;
    // When the kernel started in the capture, if the source recorded it.
    std::optional<Nanoseconds> capturedStart;

    bool operator==(const Kernel&) const = default;
};

}  // namespace spillway
