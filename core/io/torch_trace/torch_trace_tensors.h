#pragma once
// Turns memory blocks into tensors attached to kernels. The trace has no tensor arguments, so
// the uses are inferred from time: the kernel during which a block was allocated produces it,
// the kernel during which it was freed is its last reader (see docs/torch-import.md).
#include "core/io/torch_trace/torch_trace_kernels.h"
#include "core/io/torch_trace/torch_trace_memory.h"
#include "core/trace/kernel.h"
#include "core/trace/tensor.h"

#include <vector>

namespace spillway::torch_trace {

struct TensorInference {
    std::vector<Tensor> tensors;
    std::int64_t withoutUses = 0;      // live only between kernels, or outside the iteration
    std::int64_t persistent = 0;       // never freed in the trace
    std::int64_t workspaces = 0;       // allocated and freed within one kernel
    std::int64_t betweenKernels = 0;   // allocated and freed between two kernels: no uses
};

// Appends the inferred tensor ids to kernels[i].inputs/outputs (kernels parallel to
// selection.kernels, same order).
TensorInference inferTensors(const MemoryBlocks& blocks, const KernelSelection& selection,
                             std::vector<Kernel>& kernels);

}  // namespace spillway::torch_trace
