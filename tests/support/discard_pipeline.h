#pragma once
// The UVM Discard paper's kind of workload, small: a pipeline whose intermediate buffers die
// right after the next kernel reads them. Kernel k (k = 0..15, 1 ms each) reads weight W and
// buffer B(k), writes B(k + 1); every buffer is 64 MiB. B(k) is dead once kernel k has read it;
// the next iteration overwrites it first (B(0), the input, is rewritten by the host).
// Footprint: 18 x 64 MiB = 1152 MiB. Used by tst_discard_simulation and tst_uvm_opt.
#include "core/hardware/hardware.h"
#include "core/trace/profile.h"

#include <string>
#include <utility>

namespace spillway::test {

inline Profile discardPipeline() {
    Profile p;
    p.jobs = {{0, "job"}};
    auto tensor = [&](TensorId id, std::string name, TensorKind kind, bool persistent) {
        Tensor t;
        t.id = id;
        t.name = std::move(name);
        t.bytes = 64 * kMiB;
        t.kind = kind;
        t.persistent = persistent;
        p.tensors.push_back(t);
    };
    tensor(1, "W", TensorKind::Weight, true);
    for (int b = 0; b <= 16; ++b)
        tensor(100 + b, "B" + std::to_string(b), b == 0 ? TensorKind::Input : TensorKind::Activation, false);
    for (int k = 0; k < 16; ++k) {
        Kernel kernel;
        kernel.id = k;
        kernel.name = "layer" + std::to_string(k);
        kernel.duration = 1'000'000;
        kernel.inputs = {1, 100 + k};
        kernel.outputs = {100 + k + 1};
        p.kernels.push_back(kernel);
    }
    return p;
}

// 16 GB/s PCIe both ways, 64 GiB of host memory, the analytic fault model.
inline HardwareConfig discardPipelineMachine(Bytes gpu) {
    HardwareConfig hw;
    hw.id = "test";
    hw.gpuCapacity = gpu;
    hw.hostCapacity = 64 * kGiB;
    hw.hostToGpu = hw.gpuToHost = {16 * kGiB, 1'000};
    hw.faultModel = FaultModel::Analytic;
    return hw;
}

}  // namespace spillway::test
