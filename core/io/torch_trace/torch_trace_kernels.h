#pragma once
// Which spans of a torch.profiler trace become the profile's kernels: the GPU kernels when the
// trace has any (category "kernel"), otherwise the outermost CPU ops of the iteration, one per
// operator call as the user wrote it (aten::conv2d, not its aten::mkldnn_convolution inside;
// one autograd node per backward step).
#include "core/io/torch_trace/torch_trace_events.h"
#include "core/io/torch_trace/torch_trace_phases.h"

#include <string>
#include <vector>

namespace spillway::torch_trace {

struct SelectedKernel {
    std::string name;
    std::string op;  // the framework op: the CPU op itself, or the CPU op that launched it
    Nanoseconds start = 0;
    Nanoseconds duration = 0;  // at least 1 ns (profiles need positive durations)
    // When the host worked on it: the op's span for CPU kernels, the launch call for GPU
    // kernels. The allocator's events are host-side, so tensors attach by these times.
    Nanoseconds hostStart = 0;
    Nanoseconds hostEnd = 0;
    KernelPhase phase = KernelPhase::Forward;
    std::size_t eventIndex = 0;
};

struct KernelSelection {
    std::vector<SelectedKernel> kernels;  // program order
    bool gpu = false;
    std::int64_t zeroDurationRaised = 0;  // durations that rounded to 0 ns and were set to 1 ns
    std::int64_t outsideIteration = 0;    // candidates left out: in spillway.setup, unmarked, or in another iteration
    std::string rule;                     // one line for the notes
    // Allocations from here on belong to the iteration: the first phase mark, or without marks
    // the start of the first kernel's CPU op (a GPU kernel's memory is allocated before its
    // launch call).
    std::optional<Nanoseconds> iterationStart;
};

// Only spans whose host time is in `window` (the imported iteration) are candidates.
KernelSelection selectKernels(const TraceEvents& events, const PhaseMap& phases, const Iteration& window);

// The spans among `spans` that no other of them encloses on the same thread (sorted by start).
std::vector<const Span*> outermostSpans(const std::vector<const Span*>& spans);

// The framework ops as the user called them: cpu_op spans no other cpu_op encloses on the same
// thread, without profiler and record_function bookkeeping (ProfilerStep#, Optimizer.*,
// spillway.*), sorted by start.
std::vector<const Span*> topLevelOps(const TraceEvents& events);

}  // namespace spillway::torch_trace
