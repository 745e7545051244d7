#pragma once
// How far the simulator was from what a replay measured, kernel by kernel: the simulated run of
// a plan (SimulationResult of the same plan, profile and hardware) against one iteration of its
// measured timeline (core/io/measured/measured_timeline.h).
//
// Both sides are taken relative to their iteration's start. A simulated kernel's window
// [start, end) holds its stalls (faults, late prefetches), so the measured window is taken from
// when the kernel was ready (the previous one ended) to its end: it holds the wait for
// prefetches too. Errors are measured minus simulated (positive: the real run was slower).
#include "core/io/measured/measured_timeline.h"
#include "core/sim/sim_result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace spillway {

struct KernelError {
    std::int64_t runIndex = 0;
    std::int64_t position = 0;
    std::string name;
    Nanoseconds simulatedStart = 0;     // from the simulated iteration's first kernel
    Nanoseconds simulatedDuration = 0;  // end - start, stalls included
    Nanoseconds measuredStart = 0;      // ready, from the measured iteration's start
    Nanoseconds measuredDuration = 0;   // end - ready
    Nanoseconds startError = 0;         // measuredStart - simulatedStart
    Nanoseconds durationError = 0;      // measuredDuration - simulatedDuration
    bool operator==(const KernelError&) const = default;
};

struct MeasuredComparison {
    std::int64_t iteration = 0;         // which measured iteration
    Nanoseconds simulatedTotal = 0;     // SimulationResult::iterationTime
    Nanoseconds measuredTotal = 0;      // last end - first ready of the measured iteration
    Nanoseconds totalError = 0;         // measuredTotal - simulatedTotal
    double totalRelativeError = 0;      // totalError / simulatedTotal (0 when that is 0)
    Nanoseconds meanAbsDurationError = 0;  // mean of |durationError|, rounded down
    std::vector<KernelError> kernels;   // run order
    std::vector<std::int64_t> worst;    // indices into `kernels`, largest |durationError| first
    bool operator==(const MeasuredComparison&) const = default;
};

// `iteration` < 0: the last measured iteration (the simulator reports its last one too).
// `worstCount` caps `worst`. Throws std::invalid_argument when the two do not describe the same
// run: no such iteration, a different number of kernels, or a simulation that could not run.
MeasuredComparison compareMeasured(const MeasuredTimeline& measured, const SimulationResult& simulated,
                                   std::int64_t iteration = -1, std::size_t worstCount = 10);

// The same against the replay model's timeline of the same program (runtime/replay/
// model_backend.h): the model's kernel windows [ready, end) of the same iteration.
MeasuredComparison compareWithModel(const MeasuredTimeline& measured, const MeasuredTimeline& model,
                                    std::int64_t iteration = -1, std::size_t worstCount = 10);

}  // namespace spillway
