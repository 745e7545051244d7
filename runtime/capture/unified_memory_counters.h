#pragma once
// Turning on CUPTI's unified-memory counters (page faults, migrations, thrashing), and the note
// that says in the profile whether that worked and, if not, which CUPTI result refused it.
// CUPTI's rule (cupti_activity.h, cuptiActivityConfigureUnifiedMemoryCounter: "should be called
// after CUDA driver initialization"; the CUPTI guide gives CUPTI_CBID_RESOURCE_CU_INIT_FINISHED
// as the place for such calls): configure every counter kind after cuInit has finished and
// before the first context exists, then enable CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER.
// InitializeInjection runs inside cuInit, too early: CUDA 13 answers CUPTI_ERROR_NOT_READY
// there. The CUPTI calls come in as function pointers, so the decisions here are tested
// without libcupti or a GPU (tests/runtime/capture).
#include <cupti_activity.h>

#include <string>
#include <string_view>

namespace spillway::capture {

// The CUPTI functions used (cuptiActivityConfigureUnifiedMemoryCounter, cuptiActivityEnable,
// cuptiGetResultString).
struct UnifiedMemoryCupti {
    CUptiResult (*configure)(CUpti_ActivityUnifiedMemoryCounterConfig* config, uint32_t count) = nullptr;
    CUptiResult (*enable)(CUpti_ActivityKind kind) = nullptr;
    CUptiResult (*resultString)(CUptiResult result, const char** text) = nullptr;
};

// Every counter kind the record parser reads (core/io/gpu_activity/cupti_records.cpp).
inline constexpr CUpti_ActivityUnifiedMemoryCounterKind kUnifiedMemoryCounterKinds[] = {
    CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD,
    CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH,
    CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOD,
    CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_GPU_PAGE_FAULT,
    CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_CPU_PAGE_FAULT_COUNT,
    CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THRASHING,
    CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THROTTLING,
    CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_REMOTE_MAP,
};

// When the counters were switched on, for the note.
inline constexpr std::string_view kAtDriverInitialised =
    "when the CUDA driver had finished initialising, before any context (CUPTI_CBID_RESOURCE_CU_INIT_FINISHED)";
inline constexpr std::string_view kAtFirstContext =
    "only when the first context was created (the driver-initialised callback never came)";

struct UnifiedMemoryOutcome {
    bool enabled = false;
    std::string note;     // the profile's cupti_unified_memory note, always set
    std::string warning;  // one line for stderr naming the CUPTI result; empty when all kinds are on
};

// Configures every kind of kUnifiedMemoryCounterKinds in one call; when CUPTI refuses that,
// kind by kind, so a kind this platform lacks does not cost the others. Then enables the
// activity kind. `when` says at which point of CUDA's start this runs.
UnifiedMemoryOutcome enableUnifiedMemoryCounters(const UnifiedMemoryCupti& cupti, std::string_view when);

// The note when the counters were never tried: no driver-initialised or context callback came.
UnifiedMemoryOutcome unifiedMemoryNeverTried(std::string_view why);

// "gpu page faults", "bytes host->device", ...
std::string_view counterKindName(CUpti_ActivityUnifiedMemoryCounterKind kind);

}  // namespace spillway::capture
