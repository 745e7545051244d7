// G10's BatcherEvent (demand paging), replayed on page counts; see g10_batcher.h.
#include "core/sim/g10_batcher.h"

#include <algorithm>
#include <limits>

namespace spillway::sim {

void G10VictimPlan::append(const std::vector<std::pair<bool, std::int64_t>>& tickRuns, std::int64_t repeats) {
    if (tickRuns.empty() || repeats <= 0) return;
    Segment s;
    s.first = total_;
    s.repeats = repeats;
    s.ssdBefore = ssdTotal_;
    s.runs = tickRuns;
    for (const auto& [toSsd, pages] : tickRuns) {
        s.period += pages;
        if (toSsd) s.ssdPerPeriod += pages;
    }
    total_ += s.period * repeats;
    ssdTotal_ += s.ssdPerPeriod * repeats;
    segments_.push_back(std::move(s));
}

std::int64_t G10VictimPlan::ssdPagesBefore(std::int64_t victims) const {
    if (victims <= 0) return 0;
    if (victims >= total_) return ssdTotal_ + (tailToSsd_ ? victims - total_ : 0);
    // The last segment starting at or before `victims`.
    auto it = std::upper_bound(segments_.begin(), segments_.end(), victims,
                               [](std::int64_t v, const Segment& s) { return v < s.first; });
    const Segment& s = *(it - 1);
    const std::int64_t into = victims - s.first;
    std::int64_t ssd = s.ssdBefore + (into / s.period) * s.ssdPerPeriod;
    std::int64_t rest = into % s.period;
    for (const auto& [toSsd, pages] : s.runs) {
        if (rest <= 0) break;
        const std::int64_t n = std::min(rest, pages);
        if (toSsd) ssd += n;
        rest -= n;
    }
    return ssd;
}

namespace {

enum class Forced { None, Host, Ssd };

struct BatchState {
    std::int64_t hostFree = 0;
    std::int64_t gpuFree = 0;
    std::int64_t ssdQ = 0;
    std::int64_t hostQ = 0;
    std::int64_t allocQ = 0;
};

// One BatcherEvent::execute restricted to the page-fault queues, in G10's order: SSD faults
// (processPFFetch(pf_SSD_queue)), host faults (processPFFetch(pf_CPU_queue)), zero-fill
// (processAlloc(true)). Victim destinations go to `runs` (to SSD?, pages), merged.
void runTick(BatchState& s, const G10BatcherLimits& lim, std::vector<std::pair<bool, std::int64_t>>& runs) {
    runs.clear();
    std::int64_t in = 0, inSsd = 0, inHost = 0, out = 0, outSsd = 0, outHost = 0, alloc = 0;
    Forced forcedEvc = s.hostFree == 0 ? Forced::Ssd : Forced::None;  // host at its line
    Forced forcedFetch = Forced::None;
    auto emit = [&](bool toSsd) {
        if (!runs.empty() && runs.back().first == toSsd) ++runs.back().second;
        else runs.push_back({toSsd, 1});
    };
    // The loop guard G10 repeats in every queue: a free GPU page, or room to evict one more.
    auto canTake = [&] {
        return s.gpuFree > 0 || (s.hostFree > 0 ? out < lim.batch : out < lim.batch && outSsd < lim.ssdPerTick);
    };
    // processAlloc: a free slot, or evict the LRU page to host unless an override says SSD;
    // then a page fetched from host leaves it (CPU_PT.erasePTE) and clears an SSD override.
    auto takePage = [&](bool fromHost) {
        if (s.gpuFree > 0) {
            --s.gpuFree;
        } else if (forcedEvc == Forced::Ssd) {
            ++outSsd;
            ++out;
            emit(true);
            if (outSsd == lim.ssdPerTick) forcedEvc = Forced::Host;
        } else {
            --s.hostFree;
            ++outHost;
            ++out;
            emit(false);
            if (outHost == lim.hostPerTick || s.hostFree <= 0) forcedEvc = Forced::Ssd;
        }
        if (fromHost) {
            ++s.hostFree;
            if (forcedEvc == Forced::Ssd) forcedEvc = Forced::None;
        }
    };
    while (in < lim.batch && alloc < lim.allocPerTick && canTake() && s.ssdQ > 0) {
        --s.ssdQ;
        takePage(false);
        ++in, ++alloc;
        if (++inSsd == lim.ssdPerTick) forcedFetch = Forced::Host;
        if (forcedFetch != Forced::None && forcedFetch != Forced::Ssd) break;
    }
    while (in < lim.batch && alloc < lim.allocPerTick && canTake() && s.hostQ > 0) {
        --s.hostQ;
        takePage(true);
        ++in, ++alloc;
        if (++inHost == lim.hostPerTick) forcedFetch = Forced::Ssd;
        if (forcedFetch != Forced::None && forcedFetch != Forced::Host) break;
    }
    while (canTake() && alloc < lim.allocPerTick && s.allocQ > 0) {
        --s.allocQ;
        takePage(false);
        ++alloc;
    }
}

// How many ticks in a row (counting the one just run) behave exactly like it: the state that
// steers a tick (host at its line or not, GPU full or not, which queues are empty) is the same
// at each of their starts. `before` is the state before the tick just run, `after` after it.
std::int64_t identicalTicks(const BatchState& before, const BatchState& after, const G10BatcherLimits& lim) {
    constexpr std::int64_t kMany = std::numeric_limits<std::int64_t>::max();
    std::int64_t m = kMany;
    // A free GPU page count or host room that cannot reach 0 within one tick steers nothing,
    // as long as it stays that far; otherwise it must come back to the same value.
    auto limitBy = [&](std::int64_t start, std::int64_t end, std::int64_t margin) {
        if (start == end) return;
        if (start <= margin || end <= margin) { m = 1; return; }
        const std::int64_t drop = start - end;
        if (drop > 0) m = std::min(m, (start - margin - 1) / drop + 1);
    };
    const std::int64_t perTick = std::max(lim.batch, lim.allocPerTick);
    limitBy(before.gpuFree, after.gpuFree, perTick);
    limitBy(before.hostFree, after.hostFree, perTick);
    auto queue = [&](std::int64_t start, std::int64_t end) {
        const std::int64_t used = start - end;
        if (used > 0) m = std::min(m, start / used);
    };
    queue(before.ssdQ, after.ssdQ);
    queue(before.hostQ, after.hostQ);
    queue(before.allocQ, after.allocQ);
    return m == kMany ? 1 : std::max<std::int64_t>(1, m);
}

}  // namespace

G10VictimPlan g10BatchFaults(const G10BatcherLimits& limitsIn, std::int64_t hostFreePages, std::int64_t gpuFreePages,
                             std::int64_t ssdPages, std::int64_t hostPages, std::int64_t allocPages) {
    G10BatcherLimits lim = limitsIn;
    // G10 converts the quotas to unsigned; a quota of 0 would stall its batcher forever.
    lim.batch = std::max<std::int64_t>(1, lim.batch);
    lim.ssdPerTick = std::max<std::int64_t>(1, lim.ssdPerTick);
    lim.hostPerTick = std::max<std::int64_t>(1, lim.hostPerTick);
    lim.allocPerTick = std::max<std::int64_t>(1, lim.allocPerTick);
    BatchState s{std::max<std::int64_t>(0, hostFreePages), std::max<std::int64_t>(0, gpuFreePages),
                 std::max<std::int64_t>(0, ssdPages), std::max<std::int64_t>(0, hostPages),
                 std::max<std::int64_t>(0, allocPages)};
    G10VictimPlan plan;
    std::vector<std::pair<bool, std::int64_t>> runs;
    while (s.ssdQ + s.hostQ + s.allocQ > 0) {
        const BatchState before = s;
        runTick(s, lim, runs);
        if (s.ssdQ == before.ssdQ && s.hostQ == before.hostQ && s.allocQ == before.allocQ) break;  // cannot happen
        const std::int64_t m = identicalTicks(before, s, lim);
        if (m > 1) {
            const std::int64_t k = m - 1;
            s.ssdQ -= k * (before.ssdQ - s.ssdQ);
            s.hostQ -= k * (before.hostQ - s.hostQ);
            s.allocQ -= k * (before.allocQ - s.allocQ);
            s.gpuFree -= k * (before.gpuFree - s.gpuFree);
            s.hostFree -= k * (before.hostFree - s.hostFree);
        }
        plan.append(runs, m);
        plan.addTicks(m);
    }
    // Victims beyond the replay (our evictions are whole 2 MiB blocks): where one more
    // eviction would go now.
    plan.setTailToSsd(s.hostFree <= 0);
    return plan;
}

}  // namespace spillway::sim
