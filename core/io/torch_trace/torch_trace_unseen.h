#pragma once
// What the allocator held when the trace began and no event of the trace frees: a model built
// (and an optimizer stepped) before profiling started. The [memory] events' running totals
// ("Total Allocated") prove how many bytes that is; the ops' recorded shapes say what they are
// (parameters, buffers, optimizer state). They become persistent tensors, so the footprint and
// the planners see the weights.
#include "core/io/torch_trace/torch_trace_memory.h"
#include "core/io/torch_trace/torch_trace_params.h"
#include "core/io/torch_trace/torch_trace_tensors.h"

#include <map>
#include <string>

namespace spillway::torch_trace {

// Appends the tensors to `out` (tallied in out.kinds) and explains in `notes`
// (persistent_before_trace, and warning.persistent_evidence when the evidence names more than
// the totals leave room for).
void addUnseenPersistent(const MemoryBlocks& blocks, const ModelEvidence& model, TensorInference& out,
                         std::map<std::string, std::string>& notes);

}  // namespace spillway::torch_trace
