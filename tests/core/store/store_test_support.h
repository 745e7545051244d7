#pragma once
// Fixtures for the workspace suites: a small training step simulated on a unit machine (every
// field of a real result), a synthetic result of any size made from a seed (so a writer and a
// reader can agree on it without talking), and file helpers.
#include "../../support/profile_builder.h"
#include "core/policy/planner.h"
#include "core/sim/simulator.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace spillway::testing {

inline Profile smallStep() {
    return ProfileBuilder("small-mlp")
        .tensor(0, "w0", 4 * kMiB, TensorKind::Weight, true)
        .tensor(1, "w1", 4 * kMiB, TensorKind::Weight, true)
        .tensor(2, "x", 2 * kMiB, TensorKind::Input, false)
        .tensor(3, "a0", 6 * kMiB, TensorKind::Activation, false)
        .tensor(4, "a1", 6 * kMiB, TensorKind::Activation, false)
        .tensor(5, "g1", 4 * kMiB, TensorKind::Gradient, false)
        .tensor(6, "g0", 4 * kMiB, TensorKind::Gradient, false)
        .kernel(0, "fc0", KernelPhase::Forward, 1'000'000, {0, 2}, {3})
        .kernel(1, "fc1", KernelPhase::Forward, 1'000'000, {1, 3}, {4})
        .kernel(2, "fc1_bwd", KernelPhase::Backward, 2'000'000, {1, 3, 4}, {5})
        .kernel(3, "fc0_bwd", KernelPhase::Backward, 2'000'000, {0, 2, 3}, {6})
        .kernel(4, "sgd", KernelPhase::Optimizer, 500'000, {0, 1, 5, 6}, {0, 1})
        .build();
}

// 1 GB/s PCIe, 24 MiB of GPU memory: the step (30 MiB, 20 MiB at fc1_bwd) oversubscribes it, so faults, evictions
// and traffic all show up in the result.
inline HardwareConfig smallMachine() {
    HardwareConfig hw;
    hw.id = "unit-24mib";
    hw.description = "test machine";
    hw.gpuCapacity = 24 * kMiB;
    hw.hostCapacity = 1 * kGiB;
    hw.ssdCapacity = 1 * kGiB;
    hw.hostToGpu = hw.gpuToHost = {1'000'000'000, 0};
    hw.ssdToGpu = hw.gpuToSsd = {500'000'000, 20'000};
    hw.faultLatency = 1000;
    hw.iterations = 2;
    return hw;
}

// Every field different from its default and from the others, series of `n` rows.
inline SimulationResult syntheticResult(std::int64_t seed, std::size_t n) {
    SimulationResult r;
    r.policy = "policy-" + std::to_string(seed);
    r.hardware = "hw-" + std::to_string(seed);
    r.iterationTime = 1'000'000'007 + seed;
    r.idealTime = 900'000'011 + seed;
    r.totals = {seed + 1, seed + 2, seed + 3, seed + 4, seed + 5};
    for (int i = 0; i < kLinkCount; ++i) r.traffic[i] = (seed + 1) * 1000 + i;
    r.discardSavedBytes = seed + 6;
    r.faultBatches = seed + 7;
    r.peakGpuBytes = (std::int64_t{40} << 30) + seed;
    r.gpuBytesAtStart = seed + 8;
    r.gpuBytesAtEnd = seed + 9;
    r.gpuBytesIn = seed + 10;
    r.gpuBytesOut = seed + 11;
    r.zeroFilledBytes = seed + 12;
    r.recomputeTime = seed + 13;
    r.kernelsWithAbsentBlocks = seed + 14;
    for (std::size_t i = 0; i < n; ++i) {
        const auto k = static_cast<std::int64_t>(i) + seed;
        r.kernels.push_back({k * 10, k * 10 + 9, 5, 1, 1, 2, 3, k * 4096});
        r.residency.push_back({k * 10, k * 2 * kMiB, k, 3 * k, k % 7});
    }
    r.tensorResidency.resize(n / 4 + 1);
    for (std::size_t t = 0; t < r.tensorResidency.size(); ++t)
        for (std::size_t j = 0; j < t % 5; ++j)
            r.tensorResidency[t].push_back({static_cast<std::int64_t>(t * 100 + j * 10 + seed),
                                            static_cast<std::int64_t>(t * 100 + j * 10 + 5 + seed),
                                            static_cast<Residence>((t + j) % 5)});
    return r;
}

inline std::string fileBytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void writeBytes(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace spillway::testing
