#include "core/sim/machine_fit.h"

#include "core/trace/format_units.h"
#include "core/trace/number_limits.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <stdexcept>
#include <vector>

namespace spillway::sim {

namespace {

// GPU + host + SSD, saturated; nullopt when the SSD has no limit.
std::optional<Bytes> machineBytes(const HardwareConfig& hw) {
    if (hw.ssdCapacity <= 0) return std::nullopt;
    Bytes total = 0;
    if (__builtin_add_overflow(hw.gpuCapacity, hw.hostCapacity, &total) ||
        __builtin_add_overflow(total, hw.ssdCapacity, &total))
        return std::numeric_limits<Bytes>::max();
    return total;
}

void checkTensorsFit(const Profile& profile, const HardwareConfig& hw) {
    const auto machine = machineBytes(hw);
    if (!machine) return;
    for (const Tensor& t : profile.tensors)
        if (t.bytes > *machine)
            throw std::runtime_error(fmt::format(
                "tensor {} '{}' does not fit: it needs {} bytes ({}), more than the GPU, host and SSD of '{}' hold "
                "together ({} bytes, {})",
                t.id, t.name, t.bytes, readableBytes(t.bytes), hw.id, *machine, readableBytes(*machine)));
}

// A kernel's tensors (each once) and workspace are on the GPU together while it runs. One that
// needs more than the GPU still runs under the analytic fault model: it streams the excess of its
// own blocks through host/SSD while it runs (sim_engine_stream.cpp), so it must fit the whole
// machine, and its workspace, which it uses throughout, the GPU. G10's batcher replay
// (g10-calibrated) does not model a kernel evicting its own pages: refused there.
void checkKernelFits(const Kernel& kernel, Bytes need, const HardwareConfig& hw) {
    if (need <= hw.gpuCapacity) return;
    const auto refuse = [&](const std::string& why) {
        throw std::runtime_error(fmt::format("kernel '{}' does not fit: it needs {} bytes at once ({}), more than the "
                                             "GPU capacity of {} ({}){}",
                                             kernel.name, need, readableBytes(need), hw.gpuCapacity,
                                             readableBytes(hw.gpuCapacity), why));
    };
    if (hw.faultModel == FaultModel::G10Calibrated)
        refuse("; under the g10-calibrated fault model a kernel larger than the GPU is refused (G10's batcher replay "
               "does not evict a running kernel's own pages); the analytic fault model runs it, streaming the excess");
    if (kernel.workspaceBytes > hw.gpuCapacity)
        refuse(fmt::format(", and its workspace alone ({} bytes) is more than the GPU holds", kernel.workspaceBytes));
    if (const auto machine = machineBytes(hw); machine && need > *machine)
        refuse(fmt::format(", and more than the GPU, host and SSD of '{}' hold together ({} bytes, {})", hw.id,
                           *machine, readableBytes(*machine)));
}

void checkKernelsFit(const Profile& profile, const HardwareConfig& hw) {
    const ProfileIndex index(profile);
    std::vector<std::int64_t> lastSeen(profile.tensors.size(), -1);
    for (std::size_t k = 0; k < profile.kernels.size(); ++k) {
        const Kernel& kernel = profile.kernels[k];
        Bytes need = kernel.workspaceBytes;  // a sum of the profile's sizes: within its checked total
        for (const auto* ids : {&kernel.inputs, &kernel.outputs})
            for (TensorId id : *ids) {
                const std::int64_t p = index.tensorPos(id);
                if (p < 0 || lastSeen[p] == static_cast<std::int64_t>(k)) continue;
                lastSeen[p] = static_cast<std::int64_t>(k);
                need += profile.tensors[p].bytes;
            }
        checkKernelFits(kernel, need, hw);
    }
}

void checkBlockCount(const Profile& profile, const HardwareConfig& hw) {
    std::int64_t blocks = 0;
    for (const Tensor& t : profile.tensors) blocks += (t.bytes + hw.blockSize - 1) / hw.blockSize;  // <= total bytes
    if (blocks > kMaxSimulatedBlocks)
        throw std::invalid_argument(fmt::format(
            "the profile's tensors are {} blocks of {} bytes; the simulator tracks at most {} blocks: simulate with a "
            "larger block_size_bytes (--set block_size_bytes=...)",
            blocks, hw.blockSize, kMaxSimulatedBlocks));
}

}  // namespace

ProfileTotals checkProfileFitsMachine(const Profile& profile, const HardwareConfig& hw) {
    const ProfileTotals totals = checkedProfileTotals(profile);
    checkTensorsFit(profile, hw);
    checkKernelsFit(profile, hw);
    checkBlockCount(profile, hw);
    return totals;
}

}  // namespace spillway::sim
