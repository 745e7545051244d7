#pragma once
// The CUPTI activity records spillway-capture reads, as plain structs, and the parser that turns
// them into a Profile. No CUPTI call and no CUPTI header here: the injection library
// (runtime/capture) copies each record's fields into these mirrors, and checks at compile time
// that the codes below equal the installed cupti_activity.h's enums, so the parser is tested on
// hand-built records on machines without a GPU or CUDA.
#include "core/io/gpu_activity/gpu_activity.h"
#include "core/trace/profile.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace spillway::cupti {

// CUpti_ActivityMemoryOperationType
inline constexpr std::uint32_t kMemoryOperationAllocation = 1;
inline constexpr std::uint32_t kMemoryOperationRelease = 2;
// CUpti_ActivityMemoryKind
inline constexpr std::uint32_t kMemoryKindUnknown = 0;
inline constexpr std::uint32_t kMemoryKindPageable = 1;
inline constexpr std::uint32_t kMemoryKindPinned = 2;
inline constexpr std::uint32_t kMemoryKindDevice = 3;
inline constexpr std::uint32_t kMemoryKindArray = 4;
inline constexpr std::uint32_t kMemoryKindManaged = 5;
inline constexpr std::uint32_t kMemoryKindDeviceStatic = 6;
inline constexpr std::uint32_t kMemoryKindManagedStatic = 7;
// CUpti_ActivityMemcpyKind
inline constexpr std::uint32_t kMemcpyHtoD = 1;
inline constexpr std::uint32_t kMemcpyDtoH = 2;
inline constexpr std::uint32_t kMemcpyDtoD = 8;
inline constexpr std::uint32_t kMemcpyHtoH = 9;
inline constexpr std::uint32_t kMemcpyPtoP = 10;
// CUpti_ActivityUnifiedMemoryCounterKind
inline constexpr std::uint32_t kUmBytesHtoD = 1;
inline constexpr std::uint32_t kUmBytesDtoH = 2;
inline constexpr std::uint32_t kUmCpuPageFault = 3;
inline constexpr std::uint32_t kUmGpuPageFault = 4;
inline constexpr std::uint32_t kUmThrashing = 5;
inline constexpr std::uint32_t kUmThrottling = 6;
inline constexpr std::uint32_t kUmRemoteMap = 7;
inline constexpr std::uint32_t kUmBytesDtoD = 8;
// CUpti_ActivityUnifiedMemoryMigrationCause (flags of a migration record)
inline constexpr std::uint32_t kUmCauseUnknown = 0;
inline constexpr std::uint32_t kUmCauseUser = 1;
inline constexpr std::uint32_t kUmCauseCoherence = 2;
inline constexpr std::uint32_t kUmCausePrefetch = 3;
inline constexpr std::uint32_t kUmCauseEviction = 4;
inline constexpr std::uint32_t kUmCauseAccessCounters = 5;
// CUpti_ActivityUnifiedMemoryAccessType (flags of a GPU page-fault record)
inline constexpr std::uint32_t kUmAccessRead = 1;
inline constexpr std::uint32_t kUmAccessWrite = 2;
inline constexpr std::uint32_t kUmAccessAtomic = 3;
inline constexpr std::uint32_t kUmAccessPrefetch = 4;
// CUpti_ActivityUnifiedMemoryRemoteMapCause (flags of a remote-map record)
inline constexpr std::uint32_t kUmRemoteMapCoherence = 1;
inline constexpr std::uint32_t kUmRemoteMapThrashing = 2;
inline constexpr std::uint32_t kUmRemoteMapPolicy = 3;
inline constexpr std::uint32_t kUmRemoteMapOutOfMemory = 4;
inline constexpr std::uint32_t kUmRemoteMapEviction = 5;
// CUpti_ActivityFlag of thrashing and throttling records: CUPTI_ACTIVITY_FLAG_THRASHING_IN_CPU,
// CUPTI_ACTIVITY_FLAG_THROTTLING_IN_CPU.
inline constexpr std::uint32_t kUmFlagInCpu = 1;

// CUpti_ActivityFlag bits of a marker record: CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS, _START, _END.
inline constexpr std::uint32_t kMarkerInstantaneous = 1u << 0;
inline constexpr std::uint32_t kMarkerStart = 1u << 1;
inline constexpr std::uint32_t kMarkerEnd = 1u << 2;

// CUpti_ActivityKernel10 (CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), the fields read.
struct KernelRecord {
    std::string name;  // as CUPTI gives it: mangled
    std::uint64_t start = 0;
    std::uint64_t end = 0;
    std::uint32_t deviceId = 0;
    std::uint32_t streamId = 0;
    std::uint32_t correlationId = 0;
};

// CUpti_ActivityMemory4 (CUPTI_ACTIVITY_KIND_MEMORY2).
struct MemoryRecord {
    std::uint32_t memoryOperationType = 0;
    std::uint32_t memoryKind = 0;
    std::uint64_t address = 0;
    std::uint64_t bytes = 0;
    std::uint64_t timestamp = 0;
    std::uint32_t deviceId = 0;
};

// CUpti_ActivityMemcpy6 (CUPTI_ACTIVITY_KIND_MEMCPY) and CUpti_ActivityMemset4 (MEMSET).
struct MemcpyRecord {
    std::uint32_t copyKind = 0;
    std::uint64_t bytes = 0;
    std::uint64_t start = 0;
    std::uint64_t end = 0;
    std::uint32_t deviceId = 0;
};
struct MemsetRecord {
    std::uint64_t bytes = 0;
    std::uint64_t start = 0;
    std::uint64_t end = 0;
    std::uint32_t deviceId = 0;
};

// CUpti_ActivityUnifiedMemoryCounter3 (CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER), the fields
// read. Not read: streamId (CUPTI: "invalid"), processId (one process per capture), and
// processors[] (the devices fighting over a thrashing region; the profile has one device).
struct UnifiedMemoryRecord {
    std::uint32_t counterKind = 0;
    std::uint64_t value = 0;
    std::uint64_t start = 0;
    std::uint64_t end = 0;
    std::uint64_t address = 0;
    std::uint32_t srcId = 0;
    std::uint32_t dstId = 0;
    std::uint32_t flags = 0;
};

// CUpti_ActivityMarker2 (CUPTI_ACTIVITY_KIND_MARKER): one end of an NVTX range, push/pop or
// start/end alike (CUPTI records them when NVTX_INJECTION64_PATH names libcupti). The start
// carries the name; the end the same id.
struct MarkerRecord {
    std::uint32_t flags = 0;
    std::uint64_t timestamp = 0;
    std::uint32_t id = 0;
    std::uint32_t threadId = 0;  // objectId.pt.threadId when objectKind is a thread, else 0
    std::string name;            // a start's; empty on an end
};

// CUpti_ActivityAPI (CUPTI_ACTIVITY_KIND_RUNTIME and _DRIVER): a host API call; a kernel with
// the same correlation id was launched by it, at `start`.
struct ApiRecord {
    std::uint64_t start = 0;
    std::uint32_t correlationId = 0;
};

// Collects records as CUPTI hands them over (any order, any mix of kinds), then builds the
// profile. Not thread-safe: the injection library serialises calls.
class RecordParser {
public:
    void add(const KernelRecord& r);
    void add(const MemoryRecord& r);
    void add(const MemcpyRecord& r);
    void add(const MemsetRecord& r);
    void add(const UnifiedMemoryRecord& r);
    void add(const MarkerRecord& r);
    void add(const ApiRecord& r);
    // CUPTI_ACTIVITY_KIND_DEVICE's name of the device id (the first one seen names a device).
    void addDevice(std::uint32_t deviceId, const std::string& name);
    // Records CUPTI reported as dropped (buffers full), kept for the notes.
    void addDropped(std::uint64_t count);

    std::size_t kernelCount() const { return capture_.kernels.size(); }

    // outputPath names the profile in errors; model the profile's model name (may be empty).
    // The profile holds every iteration (ImportOptions::kAllIterations): the file is the record of
    // the run, and whoever reads it picks an iteration (stored_capture.h). Throws ImportError when
    // the capture holds no kernels.
    Profile finish(const std::string& outputPath, const std::string& model) const;
    // The records as handed over, for tests.
    const gpu_activity::Capture& capture() const { return capture_; }
    // The neutral capture finish() builds from: NVTX ranges paired, launch times joined to the
    // kernels, the notes on both.
    gpu_activity::Capture assembled() const;

private:
    gpu_activity::Capture capture_;
    std::vector<MarkerRecord> markers_;
    std::unordered_map<std::uint32_t, std::uint64_t> launches_;  // correlation id -> earliest call start
    std::uint64_t dropped_ = 0;
    std::int64_t unknownMemoryOperations_ = 0;
};

// Itanium ABI demangling (what nvcc emits); the name unchanged when it is not mangled.
std::string demangle(const std::string& name);

inline constexpr std::string_view kCuptiCaptureSource = "cupti-capture";

}  // namespace spillway::cupti
