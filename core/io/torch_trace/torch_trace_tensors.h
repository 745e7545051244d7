#pragma once
// Turns memory blocks into tensors attached to kernels. The trace has no tensor arguments, so
// the uses are inferred from time: the kernel during which a block was allocated produces it,
// the kernel during which it was freed is its last reader (see docs/torch-import.md). Kinds come
// from torch_trace_kinds, rule by rule, tallied in a KindEvidence. A tensor's bytes are its
// block's, except a gradient's that is paired with its parameter (torch_trace_gradients).
#include "core/io/torch_trace/torch_trace_gradients.h"
#include "core/io/torch_trace/torch_trace_iterations.h"
#include "core/io/torch_trace/torch_trace_kernels.h"
#include "core/io/torch_trace/torch_trace_memory.h"
#include "core/trace/kernel.h"
#include "core/trace/kind_evidence.h"
#include "core/trace/tensor.h"

#include <vector>

namespace spillway::torch_trace {

struct TensorInference {
    std::vector<Tensor> tensors;
    KindEvidence kinds;
    std::int64_t withoutUses = 0;       // live only between kernels, or outside the iteration
    std::int64_t persistent = 0;        // never freed in the iteration
    std::int64_t workspaces = 0;        // allocated and freed within one kernel or one op
    std::int64_t betweenKernels = 0;    // allocated and freed between two kernels: no uses
    std::int64_t otherIterations = 0;   // blocks not live in the imported iteration, left out
    Bytes totalBytes = 0;               // of all tensors (checked: NumberOverflow past 64 bits)
    Bytes weightBlockBytes = 0;         // blocks of rule weight.before_iteration
    Bytes optimizerBlockBytes = 0;      // blocks made by the optimizer and kept (optimizer_state.made)
    GradientSizes gradients;            // the gradient blocks and the bytes their tensors were given
};

// Appends the inferred tensor ids to kernels[i].inputs/outputs (kernels parallel to
// selection.kernels, same order). Blocks are cut to `window`: allocated before it, a tensor has
// no alloc_time; freed after it, no free_time. `parameters` (one iteration's, ModelEvidence) and
// `granule` (allocatorGranule of the memory device) size the gradients.
TensorInference inferTensors(const TraceEvents& events, const MemoryBlocks& blocks, const KernelSelection& selection,
                             const PhaseMap& phases, const Iteration& window,
                             const std::vector<ShapedTensor>& parameters, Bytes granule,
                             std::vector<Kernel>& kernels);

}  // namespace spillway::torch_trace
