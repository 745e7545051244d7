#pragma once
// TENSILE's recomputation (section 4.4): once no more swaps succeed and the peak still exceeds
// the GPU memory, drop a tensor at the peak after the access before the peak and re-run its
// producer before the next access, choosing the largest MSPS first (Capuchin's memory saving
// per second of recomputation: bytes / producer time). Only accesses never released: the tensor
// has no swap, release or recompute yet, was produced in this iteration by a kernel that does not
// read it, is not written again before the access, and every input of its producer is on the
// GPU when it re-runs; those inputs are then kept (never recomputed later), so the re-run never
// needs a swap-in or another re-run.
#include "core/policy/tensile/memory_schedule.h"
#include "core/policy/tensile/peak_analysis.h"
#include "core/policy/tensile/tensor_access_sequence.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace spillway::tensile {

struct RecomputeCandidate {
    std::int32_t tensor = 0;
    std::int32_t afterAccess = 0;
    Nanoseconds recomputeTime = 0;  // the producer's estimated duration
    double msps = 0;                // bytes per second of recomputation
};

class RecomputeScheduler {
public:
    RecomputeScheduler(const TensorAccessSequence& tas, MemorySchedule& schedule);

    // Every recomputation that would lower this peak, largest MSPS first (ties: larger tensor,
    // then lower index). `onlyJobs` (non-empty): tensors of these jobs alone.
    std::vector<RecomputeCandidate> candidates(const PeakAnalysis& peak, const std::vector<char>& onlyJobs = {}) const;
    // Schedules the first candidate; false when there is none.
    bool scheduleBest(const PeakAnalysis& peak);
    void apply(const RecomputeCandidate& candidate);
    // An input of a scheduled recomputation: it must stay on the GPU when its consumer re-runs.
    bool pinned(size_t tensor) const { return pinned_[tensor] != 0; }

private:
    std::optional<RecomputeCandidate> evaluate(std::int32_t tensor, Nanoseconds peakTime) const;
    std::vector<std::int64_t> producerInputs(const AccessTensor& tensor) const;

    const TensorAccessSequence& tas_;
    MemorySchedule& schedule_;
    std::vector<ProfileIndex> indexes_;  // per job
    std::vector<char> pinned_;           // an input of a scheduled recomputation
};

}  // namespace spillway::tensile
