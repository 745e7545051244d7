#pragma once
// A parameter swept over a range for several policies (MOST's Figure 8: speedup against SSD
// bandwidth): every (value, policy) cell is planned and simulated, in parallel on all cores,
// with progress and cancellation. Cells are independent; the grid comes back in a fixed order
// whatever order they finished in, so the result is deterministic. The swept value is either a
// hardware key (runSweep: one profile, one machine per value) or the batch size (runBatchSweep:
// one profile per batch, core/sweep/batch_profiles.h, all on the same machine).
#include "core/hardware/hardware.h"
#include "core/sweep/cell_simulation.h"
#include "core/sweep/batch_profiles.h"
#include "core/trace/profile.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace spillway {

// The parameter of a sweep over batch profiles (not a hardware key: none is called that).
inline constexpr const char* kBatchSweepParameter = "batch";

struct SweepSpec {
    HardwareConfig baseHardware;
    std::string parameter;            // a hardware key (`spillway-cli presets`), e.g. "ssd.bandwidth",
                                      // or kBatchSweepParameter
    std::vector<std::string> values;  // as --set takes them: "3.2GB/s", "24GiB"; batch sweeps: "8", "16"
    std::vector<std::string> policies;
    std::vector<std::string> profileSources;  // batch sweeps: where each value's profile came from
    bool sweepsBatch() const { return parameter == kBatchSweepParameter; }
};

struct SweepResult {
    SweepSpec spec;
    std::vector<SweepCell> cells;  // value-major: cells[v * policies + p]
    const SweepCell& at(size_t valueIndex, size_t policyIndex) const {
        return cells[valueIndex * spec.policies.size() + policyIndex];
    }
    // Time of policy 0 over time of `policyIndex` at one value; 0 when either did not run.
    double speedup(size_t valueIndex, size_t policyIndex) const;
};

struct SweepOptions {
    // Called after each cell (from worker threads, serialised): cells done, cells in all.
    std::function<void(size_t done, size_t total)> progress;
    const std::atomic<bool>* cancel = nullptr;  // stops starting cells; running ones stop too
    unsigned threads = 0;                       // 0 = all cores
};

struct SweepCancelled : std::exception {
    const char* what() const noexcept override { return "sweep cancelled"; }
};

// Throws std::invalid_argument for an unknown parameter or a value it cannot take (checked
// before anything runs), SweepCancelled when cancelled. A policy that fails at one value gives
// a cell with its error; the others still run.
SweepResult runSweep(const Profile& profile, const SweepSpec& spec, const SweepOptions& options = {});

// One profile per batch size, each on spec.baseHardware, for spec.policies (parameter, values
// and profileSources are filled in from the profiles). The values are the batches in increasing
// order; speedups are over policy 0 at the same batch. Throws what orderByBatch throws (before
// anything runs), std::invalid_argument without policies, SweepCancelled when cancelled.
SweepResult runBatchSweep(std::vector<BatchProfile> profiles, SweepSpec spec, const SweepOptions& options = {});

}  // namespace spillway
