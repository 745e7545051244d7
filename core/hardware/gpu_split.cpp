#include "core/hardware/gpu_split.h"

#include "core/trace/number_limits.h"

#include <algorithm>
#include <vector>

namespace spillway {

Nanoseconds splitComputeTime(Nanoseconds duration, int gpus) {
    if (gpus <= 1 || duration <= 0) return duration;
    return duration / gpus + (duration % gpus != 0 ? 1 : 0);
}

Bytes bytesOffHome(Bytes bytes, int gpus) { return gpus <= 1 || bytes <= 0 ? 0 : bytes - bytes / gpus; }

Bytes shareOfOtherGpu(Bytes total, int gpus, int g) {
    if (gpus <= 1 || g < 1 || g >= gpus || total <= 0) return 0;
    const Bytes others = gpus - 1;
    return total / others + (g - 1 < total % others ? 1 : 0);
}

Nanoseconds nvlinkPhaseTime(const HardwareConfig& hardware, Bytes bytes) {
    if (bytes <= 0) return 0;
    return checkedAdd(hardware.nvlink.latency, transferTime(hardware.nvlink, bytes), "an NVLink transfer's time");
}

KernelSplitBytes kernelSplitBytes(const Profile& profile, const ProfileIndex& index, const Kernel& kernel) {
    KernelSplitBytes bytes;
    auto sum = [&](const std::vector<TensorId>& ids) {
        std::vector<std::int64_t> seen;
        Bytes total = 0;
        for (TensorId id : ids) {
            const std::int64_t p = index.tensorPos(id);
            if (p < 0 || std::find(seen.begin(), seen.end(), p) != seen.end()) continue;
            seen.push_back(p);
            total = checkedAdd(total, profile.tensors[p].bytes, "a kernel's tensor bytes");
        }
        return total;
    };
    bytes.inputs = sum(kernel.inputs);
    bytes.outputs = sum(kernel.outputs);
    return bytes;
}

Profile perGpuProfile(const Profile& profile, const HardwareConfig& hardware) {
    Profile view = profile;
    const int gpus = hardware.gpuCount;
    if (gpus <= 1) return view;
    const ProfileIndex index(profile);
    for (Kernel& kernel : view.kernels) {
        const KernelSplitBytes bytes = kernelSplitBytes(profile, index, kernel);
        const Nanoseconds scatter = nvlinkPhaseTime(hardware, bytesOffHome(bytes.inputs, gpus));
        const Nanoseconds reduce = nvlinkPhaseTime(hardware, bytesOffHome(bytes.outputs, gpus));
        kernel.duration = checkedAdd(checkedAdd(splitComputeTime(kernel.duration, gpus), scatter, "a kernel's time per GPU"),
                                     reduce, "a kernel's time per GPU");
    }
    return view;
}

}  // namespace spillway
