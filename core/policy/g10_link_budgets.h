#pragma once
// G10's per-kernel bandwidth budgets: for each kernel, how many bytes each GPU link direction can
// move while that kernel runs (bandwidth x kernel time), and how many the planned migrations have
// already claimed. G10's planner uses them to find when a pre-eviction is done and how early a
// prefetch must start. SSD transfers also cross the GPU's PCIe link in G10's machine, so claiming
// SSD bandwidth claims PCIe bandwidth too, and PCIe traffic beyond what the SSD leaves free
// spills into the SSD budget (G10's coupling, kept as G10 wrote it; docs/policies.md).
#include "core/policy/g10_prefix_sum_tree.h"
#include "core/hardware/hardware.h"
#include "core/trace/profile.h"

#include <vector>

namespace spillway {

struct KernelLinkBudget {
    Bytes capacity = 0;
    Bytes claimed = 0;
    bool full = false;
    Bytes free() const { return full ? 0 : capacity - claimed; }
};

class G10LinkBudgets {
public:
    G10LinkBudgets(const Profile& profile, const HardwareConfig& hardware);

    // Kernel during which `bytes` finish moving GPU->SSD (resp. GPU->host) when started before
    // kernel `from`, using only the unclaimed budget; the last kernel when they never finish.
    std::int64_t evictToSsdDone(Bytes bytes, std::int64_t from) const;
    std::int64_t evictToHostDone(Bytes bytes, std::int64_t from) const;
    // Like evictToSsdDone but -1 when every kernel in [from, until) has its SSD budget full
    // (G10: "SSD is crowded", which sends the tensor to host memory instead).
    std::int64_t evictToSsdDoneIfFree(Bytes bytes, std::int64_t from, std::int64_t until) const;
    // Latest kernel at which a prefetch of `bytes` from SSD (resp. host) must start so that the
    // unclaimed budget of the kernels before `neededAt` covers it; 0 when it never does.
    std::int64_t fetchFromSsdStart(Bytes bytes, std::int64_t neededAt) const;
    std::int64_t fetchFromHostStart(Bytes bytes, std::int64_t neededAt) const;

    // Claim the bandwidth of a planned transfer, kernel by kernel from `from`.
    void claimEvictToSsd(Bytes bytes, std::int64_t from);
    void claimEvictToHost(Bytes bytes, std::int64_t from);
    void claimFetchFromSsd(Bytes bytes, std::int64_t from);
    void claimFetchFromHost(Bytes bytes, std::int64_t from);

    std::int64_t kernelCount() const { return static_cast<std::int64_t>(gpuToSsd_.kernels.size()); }

    // Every claim logs, per direction, the kernel range [from, to] whose budgets it changed, so a
    // caller that caches a walk can tell whether the walk still holds: a walk only reads the
    // kernels between its start and its result.
    struct Change {
        std::int64_t from = 0;
        std::int64_t to = 0;
    };
    const std::vector<Change>& gpuToSsdChanges() const { return gpuToSsd_.changes; }
    const std::vector<Change>& ssdToGpuChanges() const { return ssdToGpu_.changes; }

    // One direction's budgets and a prefix-sum tree over their free bytes, kept in step, so the
    // walks above take O(log n) instead of one step per kernel.
    struct Line {
        std::vector<KernelLinkBudget> kernels;
        PrefixSumTree freeBytes;
        std::vector<Change> changes;
        void sync(std::int64_t k) { freeBytes.set(k, kernels[static_cast<size_t>(k)].free()); }
        void logChange(std::int64_t from, std::int64_t to) {
            if (from <= to) changes.push_back({from, to});
        }
    };

private:
    Line ssdToGpu_, hostToGpu_, gpuToSsd_, gpuToHost_;
};

}  // namespace spillway
