#include "core/trace/roofline_graph_builder.h"

#include "core/trace/append_tensor.h"

#include <algorithm>

namespace spillway {

TensorId RooflineGraphBuilder::tensor(std::string name, Bytes bytes, TensorKind kind, bool persistent) {
    return appendTensor(p_, std::move(name), bytes, kind, persistent);
}

void RooflineGraphBuilder::kernel(std::string name, std::string op, KernelPhase phase, std::vector<TensorId> inputs,
                                  std::vector<TensorId> outputs, KernelWork work) {
    double bytes = work.bytes;
    if (bytes < 0) {
        bytes = 0;
        std::vector<TensorId> seen;
        for (const auto* list : {&inputs, &outputs})
            for (TensorId id : *list)
                if (std::find(seen.begin(), seen.end(), id) == seen.end()) {
                    seen.push_back(id);
                    bytes += double(bytesOf(id));
                }
    }
    Kernel k;
    k.id = static_cast<KernelId>(p_.kernels.size());
    k.name = std::move(name);
    k.op = std::move(op);
    k.phase = phase;
    k.duration = rooflineKernelTime(gpu_, work.flops, bytes, work.matmul);
    k.inputs = std::move(inputs);
    k.outputs = std::move(outputs);
    p_.kernels.push_back(std::move(k));
}

}  // namespace spillway
