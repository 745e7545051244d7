#pragma once
// A random data-flow profile for the order suites (tst_layout_ilp, tst_multi_stream).
#include "core/trace/profile.h"

#include <algorithm>
#include <random>
#include <string>

namespace spillway::testing {

// A random data-flow graph: each kernel reads up to three earlier tensors and writes one or two.
inline Profile randomProfile(unsigned seed, int kernels) {
    std::mt19937 rng(seed);
    Profile p;
    for (int k = 0; k < kernels; ++k) {
        Kernel kernel;
        kernel.id = KernelId(k);
        kernel.name = "k" + std::to_string(k);
        kernel.duration = 1000;
        kernel.phase = KernelPhase::Forward;
        const int reads = p.tensors.empty() ? 0 : int(rng() % 4);
        for (int r = 0; r < reads; ++r) {
            const TensorId t = TensorId(rng() % p.tensors.size());
            if (std::find(kernel.inputs.begin(), kernel.inputs.end(), t) == kernel.inputs.end()) kernel.inputs.push_back(t);
        }
        const int writes = 1 + int(rng() % 2);
        for (int w = 0; w < writes; ++w) {
            Tensor t;
            t.id = TensorId(p.tensors.size());
            t.name = "t" + std::to_string(t.id);
            t.bytes = Bytes(1 + rng() % 16) * kMiB;
            p.tensors.push_back(t);
            kernel.outputs.push_back(t.id);
        }
        p.kernels.push_back(kernel);
    }
    return p;
}

}  // namespace spillway::testing
