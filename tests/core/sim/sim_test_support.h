#pragma once
// Machines and tiny profiles for the simulator suites, built by hand so each expected value can
// be worked out in a comment.
#include "core/hardware/hardware.h"
#include "core/trace/profile.h"

namespace spillway::testing {

// 1 byte per ns both ways over PCIe, no link latency, 1 us per fault batch of 256 pages
// (1 MiB), free allocation: a 4 MiB fault costs 4 batches x 1000 ns + 4194304 ns.
inline HardwareConfig unitMachine(Bytes gpuCapacity) {
    HardwareConfig hw;
    hw.id = "unit";
    hw.gpuCapacity = gpuCapacity;
    hw.hostCapacity = 1 * kGiB;
    hw.hostToGpu = hw.gpuToHost = {1'000'000'000, 0};
    hw.ssdToGpu = hw.gpuToSsd = {500'000'000, 0};
    hw.faultBatchPages = 256;
    hw.faultLatency = 1000;
    hw.allocFemtosecondsPerByte = 0;
    hw.discardUnmapPerBlock = 500;
    hw.weightsStartOn = Tier::Host;
    hw.iterations = 1;
    hw.faultModel = FaultModel::Analytic;
    return hw;
}

// G10's A100 configuration from ../shared/data/g10/README.md (built by hand until the presets land).
inline HardwareConfig g10A100() {
    HardwareConfig hw;
    hw.id = "g10-a100";
    hw.gpuCapacity = 40 * kGiB;
    hw.hostCapacity = 128'000'000'000;
    hw.ssdCapacity = 0;
    hw.hostToGpu = hw.gpuToHost = {15'754'000'000, 0};
    hw.ssdToGpu = hw.gpuToSsd = {3'200'000'000, 20'000};
    hw.faultBatchPages = 50;
    hw.faultLatency = 45'000;
    hw.allocFemtosecondsPerByte = 814;
    hw.weightsStartOn = Tier::Ssd;
    hw.iterations = 2;
    hw.faultModel = FaultModel::G10Calibrated;
    return hw;
}

struct TinyProfile {
    Profile profile;
    TensorId tensor(const char* name, Bytes bytes, bool persistent) {
        Tensor t;
        t.id = static_cast<TensorId>(profile.tensors.size());
        t.name = name;
        t.bytes = bytes;
        t.persistent = persistent;
        t.kind = persistent ? TensorKind::Weight : TensorKind::Activation;
        profile.tensors.push_back(t);
        return t.id;
    }
    void kernel(const char* name, Nanoseconds duration, std::vector<TensorId> in, std::vector<TensorId> out) {
        Kernel k;
        k.id = static_cast<KernelId>(profile.kernels.size());
        k.name = name;
        k.duration = duration;
        k.inputs = std::move(in);
        k.outputs = std::move(out);
        profile.kernels.push_back(k);
    }
};

}  // namespace spillway::testing
