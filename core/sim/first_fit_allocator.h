#pragma once
// A contiguous device-memory allocator over fixed-size pages, as a framework that manages GPU
// memory itself uses (FlashNeuron; G10's FlashNeuron_memory_manager). Each allocation is one
// run of whole pages. "From the left" takes the lowest-addressed free run that is long enough
// and uses its start (first fit); "from the right" takes the highest-addressed one and uses its
// end, so tensors that come and go on a different schedule (offloaded activations) gather at
// the other end. Free runs are kept merged, so the cost is per free run, not per page.
#include "core/trace/units.h"

#include <map>
#include <optional>

namespace spillway::sim {

class FirstFitAllocator {
public:
    FirstFitAllocator(std::int64_t pages);

    // First page of the run, or nothing when no free run holds `pages`. 0 pages: always page 0.
    std::optional<std::int64_t> allocateFromLeft(std::int64_t pages);
    std::optional<std::int64_t> allocateFromRight(std::int64_t pages);
    void release(std::int64_t firstPage, std::int64_t pages);

    std::int64_t largestFreeRun() const;
    std::int64_t freePages() const { return freePages_; }
    std::int64_t totalPages() const { return totalPages_; }

private:
    std::int64_t totalPages_ = 0;
    std::int64_t freePages_ = 0;
    std::map<std::int64_t, std::int64_t> free_;  // first page -> length, disjoint, not touching
};

}  // namespace spillway::sim
