#pragma once
// A gradient's bytes are its parameter's, where the trace pairs them. The [memory] events give
// the allocator's block ("Bytes"), which the CUDA caching allocator rounds up to 512 bytes and,
// for a request over 1 MiB, may leave up to 1 MiB larger still; the parameter's size is what the
// tensor asked for. The AccumulateGrad call of each parameter (its input's shape and type) runs
// right after the backward op that allocated the gradient's block (autograd steals that block for
// .grad, or clones into a new one inside the call), so each call is paired with the block of a
// size that can hold its parameter allocated last before it ends; a block allocated before the
// trace (a step before profiling) with a parameter of a size that fits it. A gradient block with
// no such parameter keeps the block's size (docs/torch-import.md, "Tensor bytes").
#include "core/io/torch_trace/torch_trace_events.h"
#include "core/io/torch_trace/torch_trace_params.h"

#include <optional>
#include <string>
#include <vector>

namespace spillway::torch_trace {

struct GradientBlock {
    Bytes bytes = 0;                        // the allocator's block
    std::optional<Nanoseconds> allocTime;   // unset: allocated before the trace
};

struct GradientSizes {
    std::vector<Bytes> bytes;       // parallel to the blocks: the parameter's bytes, or the block's
    std::int64_t byCall = 0;        // paired with an AccumulateGrad call that followed the allocation
    std::int64_t bySize = 0;        // allocated before the trace, paired with a parameter by size
    std::int64_t unpaired = 0;      // no parameter fits: the block's size
    Bytes blockBytes = 0;           // of all the gradient blocks
    Bytes tensorBytes = 0;          // of the tensors made of them

    std::string describe() const;   // the gradient_bytes note
};

// `parameters`: one iteration's parameters with a gradient (ModelEvidence), for the blocks from
// before the trace; the AccumulateGrad calls are read from `events`, all of them (the blocks
// kept from an earlier iteration were made by that iteration's calls). `granule`: as
// allocatorGranule of the memory device.
GradientSizes sizeGradients(const std::vector<GradientBlock>& blocks, const TraceEvents& events,
                            const std::vector<ShapedTensor>& parameters, Bytes granule);

}  // namespace spillway::torch_trace
