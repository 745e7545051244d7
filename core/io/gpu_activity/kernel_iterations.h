#pragma once
// The training iterations in a capture's kernel sequence, and the one to import
// (ImportOptions::iteration; docs/capture.md, "Iterations").
//
// Anchors: kernel names that occur the same number of times N >= 2 and in lockstep, the k-th
// occurrence of each in the k-th iteration (a pooling layer's forward kernel, the loss, the first
// convolution's weight gradient ...). The largest such N whose iterations each hold both forward
// (or loss) and backward kernels, when the capture has a backward pass at all, is the number of
// iterations: names repeated once per layer are in lockstep too, but their "iterations" would
// hold one phase only. Boundaries: after the last optimizer kernel between two iterations'
// anchors, else at the longest pause of the GPU between them; the first iteration starts as far
// before its first anchor as the second does, the last ends after its optimizer kernels (else as
// far after its last anchor as the one before). Without anchors the capture is one iteration.
#include "core/io/base/import_options.h"
#include "core/trace/kernel.h"
#include "core/trace/units.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace spillway::gpu_activity {

struct IterationSpan {
    std::size_t begin = 0;  // kernel positions [begin, end)
    std::size_t end = 0;
};

struct FoundIterations {
    std::vector<IterationSpan> spans;  // one span [0, n) when no iterations were found
    std::size_t anchors = 0;           // names in lockstep; 0: no repetition found
    std::string anchorExample;         // one of them, for the note
};

// `names`, `phases`, `starts`, `ends`: the kernels in program order (phases from kernel_phases.h;
// nullopt counts as other).
FoundIterations findIterations(const std::vector<std::string>& names,
                               const std::vector<std::optional<KernelPhase>>& phases,
                               const std::vector<Nanoseconds>& starts, const std::vector<Nanoseconds>& ends);

struct ChosenIteration {
    std::size_t begin = 0;  // kernel positions [begin, end)
    std::size_t end = 0;
    std::string imported;   // "3", or "all"
    std::string why;        // how this one was chosen
};

// kSteadyIteration: the first iteration whose kernel names equal the previous one's (warm-up is
// over: cuDNN has chosen its algorithms, the optimizer has its state), else the last one;
// kAllIterations: every kernel; K >= 1: the K-th. Throws ImportError naming `file` and the count
// found when K is past the last iteration (or below -1).
ChosenIteration chooseIteration(const FoundIterations& found, const std::vector<std::string>& names,
                                std::int64_t iteration, const std::string& file);

// The notes "iterations.found", "iterations.imported" and "iterations.rule".
void noteIterations(const FoundIterations& found, const ChosenIteration& chosen, std::size_t kernels,
                    std::map<std::string, std::string>& notes);

}  // namespace spillway::gpu_activity
