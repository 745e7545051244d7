#pragma once
// What a replay of a plan really did ("spillway.measured/1"): written by the replay runtime
// (runtime/replay, a CUDA or a host backend), read by the app and compared with the simulated
// run (core/deploy/measured_comparison.h). Times are integer nanoseconds from the start of the
// replay (the first iteration's start), sizes integer bytes. The schema is
// resources/schemas/spillway.measured-1.schema.json; docs/runtime.md describes every field.
#include "core/trace/units.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace spillway {

inline constexpr std::string_view kMeasuredFormatId = "spillway.measured/1";

// One kernel of one iteration. It was ready when the compute stream reached it (the previous
// kernel ended); it waited for the prefetches it needs (if any) until `start`; it computed (and,
// for a recompute directive, re-ran the producers first) until `end`.
struct MeasuredKernel {
    std::int64_t runIndex = 0;     // place in the plan's run order
    std::int64_t position = 0;     // the kernel's position in the profile
    std::int64_t id = 0;           // the kernel's id in the profile
    std::string name;
    Nanoseconds profiledNs = 0;    // the profile's duration
    Nanoseconds recomputeNs = 0;   // profiled time of producers re-run before it (recompute)
    Nanoseconds readyNs = 0;
    Nanoseconds startNs = 0;
    Nanoseconds endNs = 0;
    bool operator==(const MeasuredKernel&) const = default;
};

// One directive of one iteration, issued on the side stream. `issue` is when it became due (its
// anchor, before or after its kernel, plus its delay); `start` when the side stream began it
// (later when earlier directives were still running); `end` when it completed.
struct MeasuredTransfer {
    std::int64_t directive = 0;    // index in the plan's directives
    std::string kind;              // the plan's directive kind: "prefetch", "pre-evict", ...
    std::int64_t tensor = 0;       // tensor id
    std::string tensorName;
    Bytes bytes = 0;
    std::string target;            // "gpu", "host" or "ssd" (the plan's target tier)
    std::int64_t anchorRunIndex = 0;
    bool afterKernel = false;
    Nanoseconds delayNs = 0;
    std::string call;              // what the backend did: "cudaMemPrefetchAsync", "host link model", ...
    Nanoseconds issueNs = 0;
    Nanoseconds startNs = 0;
    Nanoseconds endNs = 0;
    bool operator==(const MeasuredTransfer&) const = default;
};

struct MeasuredIteration {
    std::int64_t index = 0;
    Nanoseconds startNs = 0;       // the first kernel's ready time
    Nanoseconds endNs = 0;         // the last kernel's end
    std::vector<MeasuredKernel> kernels;      // run order
    std::vector<MeasuredTransfer> transfers;  // side-stream order
    bool operator==(const MeasuredIteration&) const = default;
};

// Something the backend did differently from the plan (a fallback) or could not do (a failure).
struct MeasuredNote {
    std::int64_t iteration = -1;   // -1: the whole replay
    std::int64_t directive = -1;   // index in the plan's directives; -1: none
    std::string message;
    bool operator==(const MeasuredNote&) const = default;
};

struct MeasuredTimeline {
    std::string backend;           // "cuda", "host" or "model" (spillway-replay --backend model)
    std::string device;            // "NVIDIA H100 80GB HBM3", "host CPU (links of g10-a100)"
    std::string planPolicy;
    std::string planHardware;      // the plan's hardware id
    std::string profileName;
    std::string profileHash;       // "sha256:..." as in the plan
    std::string arenaKind;         // "managed" or "device"
    Bytes arenaBytes = 0;
    bool plannedOffsets = false;   // the tensors sit at the plan's arena offsets
    bool slotsOrdered = false;     // the runtime ordered slot reuse (runtime/replay/replay_slot_order.h)
    bool prefetchesAfterDrops = false;  // ... and issued prefetches after the drops sharing their bytes
    std::vector<MeasuredIteration> iterations;
    std::vector<MeasuredNote> fallbacks;
    std::vector<MeasuredNote> failures;
    bool operator==(const MeasuredTimeline&) const = default;
};

nlohmann::ordered_json measuredTimelineToJson(const MeasuredTimeline& timeline);
// Throws ImportError naming `label` and the JSON pointer of the first bad field (wrong type,
// missing, unknown, or an end before its start).
MeasuredTimeline measuredTimelineFromJson(const nlohmann::json& doc, const std::string& label);

// read throws ImportError (unreadable file, bad JSON with its line, bad field); write throws
// std::runtime_error naming the path and never leaves a half-written file.
MeasuredTimeline readMeasuredTimeline(const std::string& path);
void writeMeasuredTimeline(const MeasuredTimeline& timeline, const std::string& path);

}  // namespace spillway
