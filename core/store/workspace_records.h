#pragma once
// What the workspace hands out: summaries for fast listing (columns only, no documents parsed)
// and the full stored objects.
#include "core/plan/plan.h"
#include "core/hardware/hardware.h"
#include "core/sim/sim_result.h"
#include "core/trace/units.h"

#include <cstdint>
#include <string>

namespace spillway::store {

using RowId = std::int64_t;
// Milliseconds since the Unix epoch, UTC.
using TimestampMs = std::int64_t;

struct ProfileSummary {
    RowId id = 0;
    std::string name;
    std::string sourcePath;
    std::string hash;  // profileHash(): "sha256:..."
    TimestampMs addedAt = 0;
    // Schema 2:
    std::string model;
    std::int64_t tensorCount = 0;
    std::int64_t kernelCount = 0;
    Bytes totalTensorBytes = 0;
    Nanoseconds idealTime = 0;
    bool operator==(const ProfileSummary&) const = default;
};

struct RunSummary {
    RowId id = 0;
    RowId profileId = 0;
    std::string name;
    std::string policy;
    std::string hardwareId;
    TimestampMs createdAt = 0;
    Nanoseconds iterationTime = 0;
    Nanoseconds idealTime = 0;
    StallTotals totals;
    Bytes trafficBytes = 0;  // all links and directions
    Bytes peakGpuBytes = 0;
    bool operator==(const RunSummary&) const = default;
};

struct StoredRun {
    RunSummary summary;
    HardwareConfig hardware;
    Plan plan;
    SimulationResult result;
};

struct PlanSummary {
    RowId id = 0;
    RowId profileId = 0;
    std::string name;
    std::string policy;
    std::string hardwareId;
    TimestampMs createdAt = 0;
    bool operator==(const PlanSummary&) const = default;
};

struct StoredPlan {
    PlanSummary summary;
    HardwareConfig hardware;  // the machine it was planned for
    Plan plan;
};

}  // namespace spillway::store
