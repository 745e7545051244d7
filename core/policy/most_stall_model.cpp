#include "core/policy/most_stall_model.h"

#include <algorithm>

namespace spillway {

MostStallModel::MostStallModel(const Profile& profile, const HardwareConfig& hardware,
                               std::vector<Bytes> resident)
    : hw_(hardware), n_(static_cast<std::int64_t>(profile.kernels.size())), resident_(std::move(resident)) {
    start_.assign(static_cast<size_t>(2 * n_) + 1, 0);
    for (std::int64_t k = 0; k < 2 * n_; ++k) start_[k + 1] = start_[k] + profile.kernels[k % n_].duration;
    // MOST migrates between GPU and SSD only (GPUDirect Storage); a machine without a direct SSD
    // link falls back to host memory over PCIe.
    const bool ssd = hardware.gpuToSsd.bytesPerSecond > 0 && hardware.ssdToGpu.bytesPerSecond > 0;
    out_ = ssd ? &hardware.gpuToSsd : &hardware.gpuToHost;
    in_ = ssd ? &hardware.ssdToGpu : &hardware.hostToGpu;
    target_ = ssd ? Tier::Ssd : Tier::Host;
    const bool hostTakesEvictions = hardware.hostCapacity > 0 && hardware.gpuToHost.bytesPerSecond > 0;
    uvmOut_ = hostTakesEvictions ? &hardware.gpuToHost : (ssd ? &hardware.gpuToSsd : &hardware.gpuToHost);
}

std::int64_t MostStallModel::kernelAt(Nanoseconds t, std::int64_t limit) const {
    const auto it = std::upper_bound(start_.begin(), start_.begin() + limit + 1, t);
    return std::max<std::int64_t>(0, static_cast<std::int64_t>(it - start_.begin()) - 1);
}

Bytes MostStallModel::worstExcess(std::int64_t from, std::int64_t to) const {
    Bytes worst = 0;
    for (std::int64_t k = from; k < to; ++k) worst = std::max(worst, resident_[k % n_] - hw_.gpuCapacity);
    return worst;
}

bool MostStallModel::anyOversubscription() const {
    return std::any_of(resident_.begin(), resident_.end(), [&](Bytes b) { return b > hw_.gpuCapacity; });
}

}  // namespace spillway
