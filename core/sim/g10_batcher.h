#pragma once
// Where G10's page-level batcher sends the pages a kernel's faults evict, and how many batcher
// ticks the faults take (BatcherEvent in G10's simulationEvents.cc, demand-paging part only).
//
// G10 moves pages in ticks of `batch` pages (50, one PCIe batch time each). Per tick, in this
// order: faulted SSD pages (at most ssdPerTick = batch x SSD / PCIe bandwidth), faulted host
// pages (at most hostPerTick), then zero-fill allocations; every page taken when the GPU is
// full evicts the least recently allocated page. The eviction's destination is host unless a
// per-tick override says otherwise: SSD when the tick starts with host memory at its line, or
// once host reaches it; host again once ssdPerTick pages went to SSD in the tick; a page fetched
// from host leaves host (one page free again) and clears an SSD override. While the host is
// full, a tick may not evict more than ssdPerTick pages to SSD, which also stops its fetches.
// The outcome is an interleaving that depends on the page-level state (e.g. with host one page
// below its line, a tick of SSD faults sends 1 victim page to host and the rest to SSD, and its
// leftover slots fetch host pages that swap with host-bound victims). G10Batcher replays that
// state machine exactly, on page counts, skipping runs of identical ticks, so its cost is a few
// ticks per kernel, not one step per page.
#include <cstdint>
#include <vector>

namespace spillway::sim {

struct G10BatcherLimits {
    std::int64_t batch = 50;        // GPU_PCIe_batch_num: pages in and out per tick
    std::int64_t ssdPerTick = 50;   // SSD_PCIe_batch_num
    std::int64_t hostPerTick = 50;  // CPU_PCIe_batch_num
    std::int64_t allocPerTick = 1;  // alloc_batch_num: allocations (fetches included) per tick
};

// The destinations of a kernel's victim pages, in eviction (LRU) order, as periodic segments.
class G10VictimPlan {
public:
    // Pages among the first `victims` evicted that G10 sends to SSD (the rest go to host).
    // Beyond the replayed victims, pages go where the last state would send them.
    std::int64_t ssdPagesBefore(std::int64_t victims) const;
    std::int64_t victimPages() const { return total_; }
    std::int64_t ticks() const { return ticks_; }

    // building (G10Batcher)
    void append(const std::vector<std::pair<bool, std::int64_t>>& tickRuns, std::int64_t repeats);
    void addTicks(std::int64_t n) { ticks_ += n; }
    void setTailToSsd(bool toSsd) { tailToSsd_ = toSsd; }

private:
    struct Segment {
        std::int64_t first = 0;       // victim index of its first page
        std::int64_t period = 0;      // victim pages per repeat
        std::int64_t repeats = 0;
        std::int64_t ssdBefore = 0;   // SSD pages before the segment
        std::int64_t ssdPerPeriod = 0;
        std::vector<std::pair<bool, std::int64_t>> runs;  // (to SSD, pages) of one repeat
    };
    std::vector<Segment> segments_;
    std::int64_t total_ = 0;
    std::int64_t ssdTotal_ = 0;
    std::int64_t ticks_ = 0;
    bool tailToSsd_ = false;
};

// One kernel's faults through G10's ticks. hostFreePages: pages host memory can take before its
// line (0 = full); gpuFreePages: free GPU pages (taken before anything is evicted).
G10VictimPlan g10BatchFaults(const G10BatcherLimits& limits, std::int64_t hostFreePages, std::int64_t gpuFreePages,
                             std::int64_t ssdPages, std::int64_t hostPages, std::int64_t allocPages);

}  // namespace spillway::sim
