#include "core/policy/g10_link_budgets.h"

namespace spillway {

namespace {

std::vector<KernelLinkBudget> budgetsFor(const Profile& profile, const LinkSpec& link) {
    std::vector<KernelLinkBudget> out(profile.kernels.size());
    for (size_t k = 0; k < out.size(); ++k) {
        const __int128 bytes =
            static_cast<__int128>(link.bytesPerSecond) * profile.kernels[k].duration / 1'000'000'000;
        out[k].capacity = static_cast<Bytes>(bytes);
    }
    return out;
}

// Walk forward from `from`, subtracting each kernel's unclaimed budget, and return the kernel
// where the bytes are covered (or the last kernel).
std::int64_t walkForward(const std::vector<KernelLinkBudget>& b, Bytes bytes, std::int64_t from) {
    const auto n = static_cast<std::int64_t>(b.size());
    Bytes rest = bytes;
    std::int64_t k = from;
    while (rest > 0 && k < n) {
        rest -= b[k].free();
        if (rest <= 0 || k == n - 1) break;
        ++k;
    }
    return k;
}

// Walk backward from `neededAt - 1` and return the kernel where the bytes are covered (or 0).
std::int64_t walkBackward(const std::vector<KernelLinkBudget>& b, Bytes bytes, std::int64_t neededAt) {
    Bytes rest = bytes;
    std::int64_t k = neededAt - 1;
    while (rest > 0 && k >= 0) {
        rest -= b[k].free();
        if (rest <= 0 || k == 0) break;
        --k;
    }
    return k;
}

// Claim over an SSD link whose traffic also crosses the PCIe link in the same direction.
void claimSsd(std::vector<KernelLinkBudget>& ssd, std::vector<KernelLinkBudget>& pcie, Bytes bytes,
              std::int64_t from) {
    const auto n = static_cast<std::int64_t>(ssd.size());
    Bytes rest = bytes;
    for (std::int64_t k = from; rest > 0 && k < n; ++k) {
        if (ssd[k].full) continue;
        const Bytes take = std::min(rest, ssd[k].capacity - ssd[k].claimed);
        ssd[k].claimed += take;
        pcie[k].claimed += take;
        if (pcie[k].claimed >= pcie[k].capacity) pcie[k].full = true;
        if (ssd[k].claimed >= ssd[k].capacity) ssd[k].full = true;
        rest -= take;
    }
}

// Claim over the PCIe link; what it takes beyond (PCIe - SSD) capacity is taken from the SSD.
void claimPcie(std::vector<KernelLinkBudget>& pcie, std::vector<KernelLinkBudget>& ssd, Bytes bytes,
               std::int64_t from) {
    const auto n = static_cast<std::int64_t>(pcie.size());
    Bytes rest = bytes;
    for (std::int64_t k = from; rest > 0 && k < n; ++k) {
        if (pcie[k].full) continue;
        if (rest + pcie[k].claimed > pcie[k].capacity) {
            rest -= pcie[k].capacity - pcie[k].claimed;
            pcie[k].claimed = pcie[k].capacity;
            pcie[k].full = true;
            ssd[k].claimed = ssd[k].capacity;
            ssd[k].full = true;
        } else {
            pcie[k].claimed += rest;
            rest = 0;
            const Bytes pcieOnly = pcie[k].capacity - ssd[k].capacity;
            if (pcie[k].claimed >= pcieOnly) {
                // G10 adds the whole overflow again on every claim; kept for fidelity.
                ssd[k].claimed += pcie[k].claimed - pcieOnly;
                if (ssd[k].claimed >= ssd[k].capacity) {
                    ssd[k].claimed = ssd[k].capacity;
                    ssd[k].full = true;
                }
            }
        }
    }
}

}  // namespace

G10LinkBudgets::G10LinkBudgets(const Profile& profile, const HardwareConfig& hardware)
    : ssdToGpu_(budgetsFor(profile, hardware.ssdToGpu)),
      hostToGpu_(budgetsFor(profile, hardware.hostToGpu)),
      gpuToSsd_(budgetsFor(profile, hardware.gpuToSsd)),
      gpuToHost_(budgetsFor(profile, hardware.gpuToHost)) {}

std::int64_t G10LinkBudgets::evictToSsdDone(Bytes bytes, std::int64_t from) const {
    return walkForward(gpuToSsd_, bytes, from);
}
std::int64_t G10LinkBudgets::evictToHostDone(Bytes bytes, std::int64_t from) const {
    return walkForward(gpuToHost_, bytes, from);
}
std::int64_t G10LinkBudgets::evictToSsdDoneIfFree(Bytes bytes, std::int64_t from,
                                                  std::int64_t until) const {
    for (std::int64_t k = from; k < until && k < kernelCount(); ++k)
        if (!gpuToSsd_[k].full) return walkForward(gpuToSsd_, bytes, from);
    return -1;
}
std::int64_t G10LinkBudgets::fetchFromSsdStart(Bytes bytes, std::int64_t neededAt) const {
    return walkBackward(ssdToGpu_, bytes, neededAt);
}
std::int64_t G10LinkBudgets::fetchFromHostStart(Bytes bytes, std::int64_t neededAt) const {
    return walkBackward(hostToGpu_, bytes, neededAt);
}
void G10LinkBudgets::claimEvictToSsd(Bytes bytes, std::int64_t from) {
    claimSsd(gpuToSsd_, gpuToHost_, bytes, from);
}
void G10LinkBudgets::claimEvictToHost(Bytes bytes, std::int64_t from) {
    claimPcie(gpuToHost_, gpuToSsd_, bytes, from);
}
void G10LinkBudgets::claimFetchFromSsd(Bytes bytes, std::int64_t from) {
    claimSsd(ssdToGpu_, hostToGpu_, bytes, from);
}
void G10LinkBudgets::claimFetchFromHost(Bytes bytes, std::int64_t from) {
    claimPcie(hostToGpu_, ssdToGpu_, bytes, from);
}

}  // namespace spillway
