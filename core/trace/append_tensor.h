#pragma once
// Appends a tensor to a profile under the next id: the one way the generated graphs
// (roofline_graph_builder, transformer_training_graph) add tensors.
#include "core/trace/profile.h"

#include <string>

namespace spillway {

inline TensorId appendTensor(Profile& p, std::string name, Bytes bytes, TensorKind kind, bool persistent = false) {
    Tensor t;
    t.id = static_cast<TensorId>(p.tensors.size());
    t.name = std::move(name);
    t.bytes = bytes;
    t.kind = kind;
    t.persistent = persistent;
    p.tensors.push_back(std::move(t));
    return p.tensors.back().id;
}

}  // namespace spillway
