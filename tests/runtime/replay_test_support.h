#pragma once
// A tiny hand-made profile and machine for the replay tests: four kernels of 300 us in a
// chain, two 2 MB weights (w read by k0 and k2, w2 by k3), and links slow enough (1 GB/s + 10 us) that a prefetch of the weight
// takes 2.01 ms, longer than any kernel, so waits are plain to see.
#include "core/io/native/profile_hash.h"
#include "core/plan/exported_plan.h"
#include "core/trace/profile.h"

namespace replay_test {

using namespace spillway;

inline constexpr Nanoseconds kKernelNs = 300'000;
inline constexpr Bytes kWeightBytes = 2'000'000;
inline constexpr Nanoseconds kLinkLatency = 10'000;
inline constexpr Nanoseconds kWeightPrefetchNs = kLinkLatency + 2'000'000;  // 2 MB at 1 GB/s

inline Profile chainProfile() {
    Profile p;
    p.metadata.model = "replay-chain";
    p.jobs = {{0, "train"}};
    auto tensor = [](TensorId id, const char* name, Bytes bytes, TensorKind kind, bool persistent) {
        Tensor t;
        t.id = id;
        t.name = name;
        t.bytes = bytes;
        t.kind = kind;
        t.persistent = persistent;
        return t;
    };
    p.tensors = {tensor(10, "w", kWeightBytes, TensorKind::Weight, true),
                 tensor(11, "a1", 4096, TensorKind::Activation, false),
                 tensor(12, "a2", 4096, TensorKind::Activation, false),
                 tensor(13, "a3", 4096, TensorKind::Activation, false),
                 tensor(14, "out", 4096, TensorKind::Activation, false),
                 tensor(15, "w2", kWeightBytes, TensorKind::Weight, true)};
    auto kernel = [](KernelId id, const char* name, std::vector<TensorId> in, std::vector<TensorId> out) {
        Kernel k;
        k.id = id;
        k.name = name;
        k.duration = kKernelNs;
        k.inputs = std::move(in);
        k.outputs = std::move(out);
        return k;
    };
    // k0 reads w; k2 reads w again after two kernels that do not.
    p.kernels = {kernel(100, "k0", {10}, {11}), kernel(101, "k1", {11}, {12}), kernel(102, "k2", {12, 10}, {13}),
                 kernel(103, "k3", {13, 15}, {14})};
    return p;
}

inline HardwareConfig slowLinks() {
    HardwareConfig hw;
    hw.id = "replay-test-links";
    hw.gpuCapacity = 64 * kMiB;
    hw.hostCapacity = 1 * kGiB;
    hw.ssdCapacity = 1 * kGiB;
    hw.hostToGpu = {1'000'000'000, kLinkLatency};
    hw.gpuToHost = {1'000'000'000, kLinkLatency};
    return hw;
}

inline Directive directive(DirectiveKind kind, std::int64_t at, TensorId tensor, Tier target = Tier::Gpu,
                           bool after = false, Nanoseconds delay = 0) {
    Directive d;
    d.kind = kind;
    d.kernelPos = at;
    d.tensor = tensor;
    d.target = target;
    d.afterKernel = after;
    d.delay = delay;
    return d;
}

inline ExportedPlan exported(const Profile& profile, std::vector<Directive> directives, std::vector<std::int64_t> order = {}) {
    Plan plan;
    plan.policy = "hand-made";
    plan.order = std::move(order);
    plan.directives = std::move(directives);
    return makeExportedPlan(profile, slowLinks(), plan);
}

}  // namespace replay_test
