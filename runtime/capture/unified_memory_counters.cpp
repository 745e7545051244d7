#include "runtime/capture/unified_memory_counters.h"

#include <fmt/format.h>

#include <iterator>
#include <vector>

namespace spillway::capture {

namespace {

std::string resultName(const UnifiedMemoryCupti& cupti, CUptiResult rc) {
    const char* text = nullptr;
    if (cupti.resultString) cupti.resultString(rc, &text);
    return text ? std::string(text) : fmt::format("CUPTI result {}", static_cast<int>(rc));
}

// Scope and device id are deprecated since CUDA 7.0 (counters are per process, every device),
// but must still hold valid values.
CUpti_ActivityUnifiedMemoryCounterConfig configOf(CUpti_ActivityUnifiedMemoryCounterKind kind) {
    CUpti_ActivityUnifiedMemoryCounterConfig c{};
    c.scope = CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_SCOPE_PROCESS_ALL_DEVICES;
    c.kind = kind;
    c.deviceId = 0;
    c.enable = 1;
    return c;
}

std::string joined(const std::vector<std::string>& parts) {
    std::string text;
    for (const auto& p : parts) text += (text.empty() ? "" : ", ") + p;
    return text;
}

constexpr std::string_view kWithout = "the profile has no page faults or migrations";

}  // namespace

std::string_view counterKindName(CUpti_ActivityUnifiedMemoryCounterKind kind) {
    switch (kind) {
    case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD: return "bytes host->device";
    case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH: return "bytes device->host";
    case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOD: return "bytes device->device";
    case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_GPU_PAGE_FAULT: return "gpu page faults";
    case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_CPU_PAGE_FAULT_COUNT: return "cpu page faults";
    case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THRASHING: return "thrashing";
    case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THROTTLING: return "throttling";
    case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_REMOTE_MAP: return "remote map";
    default: return "unknown counter";
    }
}

UnifiedMemoryOutcome enableUnifiedMemoryCounters(const UnifiedMemoryCupti& cupti, std::string_view when) {
    constexpr std::size_t kinds = std::size(kUnifiedMemoryCounterKinds);
    std::vector<CUpti_ActivityUnifiedMemoryCounterConfig> all;
    for (const auto kind : kUnifiedMemoryCounterKinds) all.push_back(configOf(kind));
    std::vector<std::string> configured, refused;
    const CUptiResult together = cupti.configure(all.data(), static_cast<uint32_t>(all.size()));
    if (together == CUPTI_SUCCESS) {
        for (const auto kind : kUnifiedMemoryCounterKinds) configured.emplace_back(counterKindName(kind));
    } else {
        // One refused kind fails the whole list: ask kind by kind to keep the others.
        for (auto config : all) {
            const CUptiResult rc = cupti.configure(&config, 1);
            if (rc == CUPTI_SUCCESS) configured.emplace_back(counterKindName(config.kind));
            else refused.push_back(fmt::format("{} ({})", counterKindName(config.kind), resultName(cupti, rc)));
        }
    }

    UnifiedMemoryOutcome out;
    if (configured.empty()) {
        const auto result = resultName(cupti, together);
        out.note = fmt::format("unavailable: cuptiActivityConfigureUnifiedMemoryCounter refused every counter kind "
                               "({}), called {}; {}", result, when, kWithout);
        out.warning = fmt::format("unified-memory counters unavailable: configuring them failed: {}; capturing "
                                  "without page faults or migrations", result);
        return out;
    }
    if (const CUptiResult rc = cupti.enable(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER); rc != CUPTI_SUCCESS) {
        const auto result = resultName(cupti, rc);
        out.note = fmt::format("unavailable: cuptiActivityEnable(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER) failed: "
                               "{}, called {}; {}", result, when, kWithout);
        out.warning = fmt::format("unified-memory counters unavailable: enabling them failed: {}; capturing without "
                                  "page faults or migrations", result);
        return out;
    }
    out.enabled = true;
    out.note = fmt::format("enabled {}: {} of {} counter kinds ({})", when, configured.size(), kinds, joined(configured));
    if (!refused.empty()) {
        out.note += fmt::format("; refused: {}", joined(refused));
        out.warning = fmt::format("unified-memory counters: {} of {} kinds refused: {}", refused.size(), kinds,
                                  joined(refused));
    }
    return out;
}

UnifiedMemoryOutcome unifiedMemoryNeverTried(std::string_view why) {
    UnifiedMemoryOutcome out;
    out.note = fmt::format("unavailable: never enabled ({}); {}", why, kWithout);
    out.warning = fmt::format("unified-memory counters unavailable: {}; captured without page faults or migrations", why);
    return out;
}

}  // namespace spillway::capture
