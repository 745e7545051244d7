#pragma once
// What the ops' recorded shapes say the model and its optimizer hold, whether or not the trace
// saw them allocated: the parameters (one AccumulateGrad call per parameter that receives a
// gradient), parameters no gradient reaches and module buffers (the forward ops' arguments), and
// how many optimizer state tensors each parameter has (from the optimizer's class and ops).
#include "core/io/torch_trace/torch_trace_events.h"
#include "core/io/torch_trace/torch_trace_iterations.h"
#include "core/io/torch_trace/torch_trace_phases.h"

#include <string>
#include <vector>

namespace spillway::torch_trace {

struct ShapedTensor {
    std::string shape;   // "[64,3,7,7]"
    std::string type;    // "float"
    Bytes bytes = 0;     // requested: elements x element size (what the tensor made of it has)
    Bytes heldBytes = 0; // the least the allocator holds for it: bytes rounded up to its granule
};

struct ModelEvidence {
    std::vector<ShapedTensor> parameters;           // that receive a gradient
    std::vector<ShapedTensor> frozenParameters;     // forward parameter arguments of a shape no gradient has
    std::vector<ShapedTensor> buffers;              // batch_norm/instance_norm running statistics
    std::string optimizer;                          // "SGD", "AdamW"; empty when no Optimizer.step span
    int statePerParameter = 0;                      // optimizer state tensors per parameter with a gradient
    std::string stateRule;                          // why that many, for the notes

    Bytes parameterBytes() const;  // requested bytes, as ShapedTensor::bytes
    Bytes modelBytes() const;      // parameters, frozen parameters and buffers
};

// Reads the evidence inside `window` (one iteration: each parameter's AccumulateGrad runs once
// per step). `granule`: the allocator's rounding (512 bytes for CUDA's caching allocator, 1 on
// the CPU), for heldBytes, so evidence and the running totals compare in the same bytes.
ModelEvidence gatherModelEvidence(const TraceEvents& events, const PhaseMap& phases, const Iteration& window,
                                  Bytes granule);

}  // namespace spillway::torch_trace
