// DeepUM's correlation prefetching (Jung et al., ASPLOS'23) turned into a plan. When kernel i
// launches, DeepUM's prefetcher looks up the execution ID of i, prefetches what that launch
// faulted on last iteration, follows the execution-ID table to the predicted next launch, and
// keeps going down the chain; its pre-eviction spares what the chain predicted and makes room
// ahead of need (deepum_pre_eviction.h).
//
// Here the chain from kernel i is the prefetch window: launches i, i+1, ... (as predicted) while
// the faulted tensors of the window fit the planner's share of GPU memory
// (HardwareConfig::plannerSafetyPermille), the launching kernel's own always, at most kMaxWindow
// launches and never a whole iteration (a plan position names one kernel per iteration). Each
// recorded fault (launch u, tensor t) becomes one prefetch of t, issued before the first kernel
// whose window reaches u, with keepUntil = u so eviction spares it until then.
#include "core/policy/deepum_correlation.h"
#include "core/policy/deepum_pre_eviction.h"
#include "core/policy/planners.h"

#include <algorithm>
#include <string>
#include <unordered_set>

namespace spillway {
namespace {

constexpr std::int64_t kMaxWindow = 64;

// How far the window of each launch reaches: reach[i] = last unwrapped position it covers.
class WindowReach {
public:
    WindowReach(const Profile& profile, const HardwareConfig& hardware, const DeepUmTables& tables)
        : n_(static_cast<std::int64_t>(profile.kernels.size())) {
        const Bytes budget = hardware.gpuCapacity / 1000 * hardware.plannerSafetyPermille +
                             hardware.gpuCapacity % 1000 * hardware.plannerSafetyPermille / 1000;
        const Bytes block = hardware.blockSize;
        auto footprint = [&](std::int64_t t) {
            const Bytes b = profile.tensors[static_cast<size_t>(t)].bytes;
            return block > 0 ? (b + block - 1) / block * block : b;
        };
        const std::int64_t maxLaunches = std::min(kMaxWindow, n_);
        reach_.resize(static_cast<size_t>(n_));
        for (std::int64_t i = 0; i < n_; ++i) {
            std::unordered_set<std::int64_t> inWindow;
            Bytes bytes = 0;
            std::int64_t exec = tables.executionIdOfKernel[static_cast<size_t>(i)];
            std::int64_t j = 0;
            for (; j < maxLaunches && exec >= 0; ++j) {
                const auto& faulted = tables.faulted[static_cast<size_t>(exec)];
                Bytes added = 0;
                for (auto t : faulted)
                    if (!inWindow.count(t)) added += footprint(t);
                if (j > 0 && bytes + added > budget) break;
                bytes += added;
                inWindow.insert(faulted.begin(), faulted.end());
                exec = tables.successor[static_cast<size_t>(exec)];
            }
            reach_[static_cast<size_t>(i)] = i + std::max<std::int64_t>(j, 1) - 1;
        }
    }

    // Any unwrapped position: the iteration repeats.
    std::int64_t at(std::int64_t i) const {
        const auto wrapped = ((i % n_) + n_) % n_;
        return reach_[static_cast<size_t>(wrapped)] + (i - wrapped);
    }

    // The first launch whose window reaches u (u itself at the latest).
    std::int64_t firstReaching(std::int64_t u) const {
        for (std::int64_t i = u - n_ + 1; i < u; ++i)
            if (at(i) >= u) return i;
        return u;
    }

private:
    std::int64_t n_;
    std::vector<std::int64_t> reach_;
};

}  // namespace

Plan planDeepUm(const Profile& profile, const HardwareConfig& hardware) {
    Plan plan;
    plan.policy = "deepum";
    const auto n = static_cast<std::int64_t>(profile.kernels.size());
    if (n == 0) return plan;
    const auto tables = recordDeepUmTables(profile, hardware);
    const WindowReach reach(profile, hardware, tables);

    std::int64_t faults = 0;
    for (std::int64_t u = 0; u < n; ++u) {
        const auto exec = tables.executionIdOfKernel[static_cast<size_t>(u)];
        const auto issuedAt = ((reach.firstReaching(u) % n) + n) % n;
        for (auto t : tables.faulted[static_cast<size_t>(exec)]) {
            Directive d{issuedAt, DirectiveKind::Prefetch, profile.tensors[static_cast<size_t>(t)].id, Tier::Gpu};
            d.keepUntil = u;
            plan.directives.push_back(d);
            ++faults;
        }
    }
    // Sorted by issue position; within one, by the launch served, then fault order.
    std::stable_sort(plan.directives.begin(), plan.directives.end(),
                     [](const Directive& a, const Directive& b) { return a.kernelPos < b.kernelPos; });

    // DeepUM makes the room ahead of need (deepum_pre_eviction.h).
    const auto evicted = addDeepUmPreEvictions(profile, hardware, plan);

    std::int64_t reachSum = 0;
    for (std::int64_t i = 0; i < n; ++i) reachSum += reach.at(i) - i + 1;
    plan.notes["execution_ids"] = std::to_string(tables.successor.size());
    plan.notes["recorded_faults"] = std::to_string(faults);
    plan.notes["max_window_launches"] = std::to_string(std::min(kMaxWindow, n));
    plan.notes["mean_window_reach_x100"] = std::to_string(reachSum * 100 / n);
    plan.notes["pre_evictions"] = std::to_string(evicted.count);
    plan.notes["pre_evicted_bytes"] = std::to_string(evicted.bytes);
    return plan;
}

}  // namespace spillway
