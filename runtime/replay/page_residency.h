#pragma once
// Where each 4 KiB page of a managed arena is over time, for the replay model
// (model_backend.h). Changes arrive in issue order, not time order: a pre-evict queued behind
// others on its stream is issued before a kernel but lands after it starts. So every page keeps
// its changes by time, and a question is asked at a time. The model asks no earlier than the
// end of the last kernel it has finished with (`forgetBefore`), which keeps the histories short.
#include "core/trace/units.h"

#include <cstdint>
#include <vector>

namespace spillway::replay {

enum class PageState : std::uint8_t {
    Untouched,  // never populated: the next touch populates zero-filled pages
    Gpu,
    Host,
    Discarded,  // cudaMemDiscardBatchAsync dropped them: the next touch faults them back zero-filled,
                // far slower than a first touch on the H200 (the discarded_fault curve)
};

// Bytes of a range by where their pages were at a time.
struct RangeResidency {
    Bytes gpu = 0;
    Bytes host = 0;
    Bytes untouched = 0;
    Bytes discarded = 0;
};

class PageResidency {
public:
    static constexpr Bytes kPage = 4096;
    explicit PageResidency(Bytes arenaBytes);

    // The pages overlapping [offset, offset + bytes) are in `state` from time `at` on.
    void set(Bytes offset, Bytes bytes, PageState state, Nanoseconds at);
    RangeResidency at(Bytes offset, Bytes bytes, Nanoseconds time) const;
    // No question will be asked before `time`: older changes collapse into one.
    void forgetBefore(Nanoseconds time);

private:
    struct Change {
        Nanoseconds at;
        PageState state;
    };
    PageState stateAt(std::size_t page, Nanoseconds time) const;
    std::vector<std::vector<Change>> pages_;  // per page, by time
};

}  // namespace spillway::replay
