#pragma once
// TENSILE's metrics (section 5.1), a run against the vanilla run ("none") of the same workload:
//   Memory Saving Ratio   MSR = 1 - peak / peak_vanilla
//   Extra Overhead Ratio  EOR = time / time_vanilla - 1
//   Cost-Benefit Ratio    CBR = MSR / EOR, defined only when EOR > 0 (no extra time: the
//                         saving is free and the ratio has no finite value; reported as absent)
// per job (its own peak GPU bytes, its time from start to end) and for the system (peak of all
// jobs together, first start to last end).
#include "core/sim/workload_result.h"

#include <optional>
#include <vector>

namespace spillway {

struct SavingMetrics {
    Bytes peak = 0;
    Bytes vanillaPeak = 0;
    Nanoseconds time = 0;
    Nanoseconds vanillaTime = 0;
    double msr = 0.0;
    double eor = 0.0;
    std::optional<double> cbr;
};

struct WorkloadMetrics {
    std::vector<SavingMetrics> jobs;  // workload order
    SavingMetrics system;
};

SavingMetrics savingMetrics(Bytes peak, Bytes vanillaPeak, Nanoseconds time, Nanoseconds vanillaTime);
// Throws std::invalid_argument when the two runs do not have the same jobs.
WorkloadMetrics compareWithVanilla(const WorkloadResult& run, const WorkloadResult& vanilla);

}  // namespace spillway
