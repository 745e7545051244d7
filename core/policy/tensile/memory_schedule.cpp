#include "core/policy/tensile/memory_schedule.h"

#include <algorithm>

namespace spillway::tensile {

const GapDecision* MemorySchedule::at(size_t tensor, std::int32_t afterAccess) const {
    for (const auto& d : gaps_[tensor])
        if (d.afterAccess == afterAccess) return &d;
    return nullptr;
}

void MemorySchedule::add(size_t tensor, const GapDecision& decision) {
    auto& list = gaps_[tensor];
    remove(tensor, decision.afterAccess);
    const auto it = std::lower_bound(list.begin(), list.end(), decision.afterAccess,
                                     [](const GapDecision& d, std::int32_t a) { return d.afterAccess < a; });
    list.insert(it, decision);
}

void MemorySchedule::remove(size_t tensor, std::int32_t afterAccess) {
    auto& list = gaps_[tensor];
    list.erase(std::remove_if(list.begin(), list.end(), [&](const GapDecision& d) { return d.afterAccess == afterAccess; }),
               list.end());
}

bool isWrapGap(const AccessTensor& tensor, std::int32_t afterAccess) {
    return tensor.updatedParameter && afterAccess == static_cast<std::int32_t>(tensor.accesses.size()) - 1;
}

std::vector<Residency> residencyOf(const AccessTensor& tensor, const std::vector<GapDecision>& decisions) {
    std::vector<Residency> out;
    const auto& a = tensor.accesses;
    if (a.empty()) {
        if (tensor.persistent) out.push_back({kBeforeEverything, kAfterEverything});
        return out;
    }
    const auto last = static_cast<std::int32_t>(a.size()) - 1;
    const GapDecision* wrap = nullptr;
    for (const auto& d : decisions)
        if (isWrapGap(tensor, d.afterAccess)) wrap = &d;
    Nanoseconds from = tensor.residentAtStart ? kBeforeEverything : a.front().start;
    // A wrap swap-out before the last access's end runs as the window begins (the update of the
    // previous iteration leaving then): resident from the start until it is done.
    const bool wrapAtStart = wrap && wrap->swapOutStart < a.back().end;
    if (wrapAtStart) {
        if (wrap->swapOutEnd > from) out.push_back({from, wrap->swapOutEnd});
        from = wrap->swapInEnd;
    } else if (wrap) {
        from = wrap->swapInEnd;
    }
    for (const auto& d : decisions) {
        if (d.afterAccess >= last) continue;
        const auto& before = a[static_cast<size_t>(d.afterAccess)];
        const auto& next = a[static_cast<size_t>(d.afterAccess) + 1];
        const Nanoseconds leaves = d.action == GapAction::Swap ? std::max(d.swapOutEnd, before.end) : before.end;
        const Nanoseconds returns = d.action == GapAction::Recompute ? next.start : d.swapInEnd;
        if (leaves > from) out.push_back({from, leaves});
        from = std::max(returns, leaves);
    }
    Nanoseconds to = a.back().end;
    if (tensor.persistent) to = wrap && !wrapAtStart ? std::max(wrap->swapOutEnd, a.back().end) : kAfterEverything;
    if (to > from) out.push_back({from, to});
    return out;
}

}  // namespace spillway::tensile
