#include "core/policy/g10_link_budgets.h"

#include "core/trace/number_limits.h"

#include <algorithm>
#include <limits>

namespace spillway {

namespace {

using Line = G10LinkBudgets::Line;

Line budgetsFor(const Profile& profile, const LinkSpec& link) {
    Line line;
    line.kernels.resize(profile.kernels.size());
    line.freeBytes = PrefixSumTree(static_cast<std::int64_t>(profile.kernels.size()));
    // A kernel's budget is saturated so that the budgets of all kernels, plus one more claim of
    // a tensor (at most kMaxBytes), still fit in 64 bits: the prefix sums and walks add them.
    // Real budgets are many orders below (32 GB/s for a second is 2^35 bytes).
    const Bytes most = (std::numeric_limits<Bytes>::max() - kMaxBytes) /
                       std::max<std::int64_t>(1, static_cast<std::int64_t>(profile.kernels.size()));
    for (size_t k = 0; k < line.kernels.size(); ++k) {
        const __int128 bytes =
            static_cast<__int128>(link.bytesPerSecond) * profile.kernels[k].duration / 1'000'000'000;
        line.kernels[k].capacity = bytes > most ? most : static_cast<Bytes>(bytes);
        line.sync(static_cast<std::int64_t>(k));
    }
    return line;
}

// Walking forward from `from`, the kernel where the unclaimed budget since `from` covers the
// bytes (or the last kernel; `from` itself when there is nothing to move or no kernel left).
std::int64_t walkForward(const Line& b, Bytes bytes, std::int64_t from) {
    const auto n = b.freeBytes.size();
    if (bytes <= 0 || from >= n) return from;
    const auto reached = b.freeBytes.firstReaching(b.freeBytes.prefix(from) + bytes);
    return reached > n ? n - 1 : reached - 1;
}

// Walking backward from `neededAt - 1`, the kernel where the unclaimed budget up to the use
// covers the bytes (or 0; `neededAt - 1` when there is nothing to move or no kernel before).
std::int64_t walkBackward(const Line& b, Bytes bytes, std::int64_t neededAt) {
    if (bytes <= 0 || neededAt - 1 < 0) return neededAt - 1;
    // The largest k with free(k .. neededAt-1) >= bytes, i.e. prefix(k) <= prefix(neededAt) - bytes.
    const auto k = b.freeBytes.firstExceeding(b.freeBytes.prefix(neededAt) - bytes) - 1;
    return k < 0 ? 0 : k;
}

// Claim over an SSD link whose traffic also crosses the PCIe link in the same direction.
void claimSsd(Line& ssdLine, Line& pcieLine, Bytes bytes, std::int64_t from) {
    auto& ssd = ssdLine.kernels;
    auto& pcie = pcieLine.kernels;
    const auto n = static_cast<std::int64_t>(ssd.size());
    Bytes rest = bytes;
    std::int64_t last = from - 1;  // the last kernel whose budgets this claim changed
    for (std::int64_t k = from; rest > 0 && k < n; ++k) {
        if (ssd[k].full) continue;
        const Bytes take = std::min(rest, ssd[k].capacity - ssd[k].claimed);
        ssd[k].claimed += take;
        pcie[k].claimed += take;
        if (pcie[k].claimed >= pcie[k].capacity) pcie[k].full = true;
        if (ssd[k].claimed >= ssd[k].capacity) ssd[k].full = true;
        rest -= take;
        ssdLine.sync(k);
        pcieLine.sync(k);
        last = k;
    }
    ssdLine.logChange(from, last);
    pcieLine.logChange(from, last);
}

// Claim over the PCIe link; what it takes beyond (PCIe - SSD) capacity is taken from the SSD.
void claimPcie(Line& pcieLine, Line& ssdLine, Bytes bytes, std::int64_t from) {
    auto& pcie = pcieLine.kernels;
    auto& ssd = ssdLine.kernels;
    const auto n = static_cast<std::int64_t>(pcie.size());
    Bytes rest = bytes;
    std::int64_t last = from - 1;  // the last kernel whose budgets this claim changed
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
        pcieLine.sync(k);
        ssdLine.sync(k);
        last = k;
    }
    pcieLine.logChange(from, last);
    ssdLine.logChange(from, last);
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
        if (!gpuToSsd_.kernels[static_cast<size_t>(k)].full) return walkForward(gpuToSsd_, bytes, from);
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
