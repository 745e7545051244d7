#pragma once
// A large but valid profile for load-progress tests: a chain of kernels, each reading the
// previous activation and a weight, writing the next activation; every tensor carries a few
// long stack frames so the file is big (megabytes) without millions of objects.
#include "core/trace/profile.h"

#include <string>

namespace spillway::test {

inline Profile largeChainProfile(int kernels, int framesPerTensor) {
    Profile p;
    p.metadata.model = "large-chain";
    p.metadata.source = "test";
    p.jobs = {{0, "train"}};
    const std::string frame(120, 'f');
    auto addTensor = [&](TensorId id, TensorKind kind, bool persistent) {
        Tensor t;
        t.id = id;
        t.name = (kind == TensorKind::Weight ? "layer" + std::to_string(id / 2) + ".weight" : "act" + std::to_string(id / 2));
        t.bytes = 4096 + 64 * (id % 17);
        t.kind = kind;
        t.persistent = persistent;
        for (int f = 0; f < framesPerTensor; ++f) t.frames.push_back(frame + std::to_string(f));
        p.tensors.push_back(std::move(t));
    };
    addTensor(1, TensorKind::Input, false);
    for (int k = 0; k < kernels; ++k) {
        addTensor(2 * k + 2, TensorKind::Weight, true);
        addTensor(2 * k + 3, TensorKind::Activation, false);
        Kernel kernel;
        kernel.id = k;
        kernel.name = "kernel" + std::to_string(k);
        kernel.op = "aten::linear";
        kernel.duration = 1000 + k % 7;
        kernel.inputs = {2 * k + 1, 2 * k + 2};
        kernel.outputs = {2 * k + 3};
        p.kernels.push_back(std::move(kernel));
    }
    return p;
}

}  // namespace spillway::test
