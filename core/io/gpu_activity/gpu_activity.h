#pragma once
// What a GPU activity capture says about one process, whatever recorded it: CUPTI records read
// by spillway-capture (core/io/gpu_activity/cupti_records.h) or an Nsight Systems SQLite export
// (core/io/gpu_activity/nsys_sqlite_import.h). Both fill this neutral model; one builder turns it into a
// Profile (core/io/gpu_activity/gpu_activity_profile.h), so the two paths map allocations to tensors and
// kernels to uses the same way (docs/capture.md).
#include "core/trace/kernel.h"
#include "core/trace/units.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace spillway::gpu_activity {

// Times are nanoseconds on the capture's clock (CUPTI's timestamps, nsys's session clock).
struct KernelRecord {
    std::string name;  // demangled when the source had a mangled name
    Nanoseconds start = 0;
    Nanoseconds end = 0;
    std::int64_t deviceId = 0;
    std::int64_t streamId = 0;
    std::int64_t correlationId = 0;
    // When the host launched it (nsys: the runtime call with the same correlation id); phases
    // from NVTX ranges, which are host time, are looked up at this time when it is known.
    std::optional<Nanoseconds> launchTime;
    // A stored capture's phase (core/io/gpu_activity/stored_capture.h): decided from NVTX ranges
    // when it was captured; the stored profile no longer holds the ranges.
    std::optional<KernelPhase> recordedPhase;
    // A stored capture's observed uses: addresses the kernel was seen touching (page faults).
    std::vector<std::uint64_t> touchedAddresses;
    std::string where;  // the record in the source, for errors: "CUPTI_ACTIVITY_KIND_KERNEL row 7"
};

enum class MemoryKind { Device, Managed, DeviceStatic, ManagedStatic, Pinned, Pageable, Array, Unknown };

// One allocation or free of the CUDA driver or runtime (cudaMalloc, cudaMallocManaged,
// cudaMallocAsync, ...), as CUPTI's MEMORY2 records and nsys's memory usage events give them.
struct MemoryRecord {
    bool allocation = true;  // false: a free
    MemoryKind kind = MemoryKind::Device;
    std::uint64_t address = 0;
    Bytes bytes = 0;
    Nanoseconds time = 0;
    std::int64_t deviceId = 0;
    std::string where;  // the record in the source, for errors: "CUDA_GPU_MEMORY_USAGE_EVENTS row 12"
};

enum class CopyDirection { HostToDevice, DeviceToHost, DeviceToDevice, HostToHost, PeerToPeer, Other };

// An explicit cudaMemcpy* or cudaMemset* on the GPU timeline. Neither CUPTI nor nsys records the
// addresses, so these cannot be tied to tensors; they are counted in the profile notes.
struct CopyRecord {
    bool memset = false;
    CopyDirection direction = CopyDirection::Other;  // Other for a memset
    Bytes bytes = 0;
    Nanoseconds start = 0;
    Nanoseconds end = 0;
    std::int64_t deviceId = 0;
};

enum class UnifiedMemoryEvent { GpuPageFault, CpuPageFault, MigrationToDevice, MigrationToHost, MigrationDeviceToDevice, Thrashing, Throttling, RemoteMap, Other };

// A unified-memory counter record: a page fault (count in `value`) or a migration of `value`
// bytes starting at `address`. `cause` is the migration cause or fault access type, as the
// source names it ("eviction", "Read"), empty when it has none.
struct UnifiedMemoryRecord {
    UnifiedMemoryEvent event = UnifiedMemoryEvent::Other;
    std::uint64_t address = 0;
    std::uint64_t value = 0;
    Nanoseconds start = 0;
    Nanoseconds end = 0;  // == start when the source gives only one time (CPU faults)
    std::int64_t deviceId = -1;  // the GPU involved; -1 when the record does not say
    std::string cause;
};

// An NVTX range (push/pop or start/end): "spillway.forward", emit_nvtx's "aten::addmm, seq = 12",
// "Optimizer.step#SGD.step" ... set the kernels' phases (kernel_phases.h).
struct RangeMark {
    std::string name;
    Nanoseconds start = 0;
    Nanoseconds end = 0;
};

struct Capture {
    std::string source;      // importer id: "cupti-capture", "nsys-sqlite"
    std::string sourcePath;  // what the capture was read from
    std::string model;       // empty: the builder names it after the file
    std::map<std::int64_t, std::string> deviceNames;  // GPU names by device id, when known
    std::vector<KernelRecord> kernels;
    std::vector<MemoryRecord> memory;
    std::vector<CopyRecord> copies;
    std::vector<UnifiedMemoryRecord> unifiedMemory;
    std::vector<RangeMark> ranges;
    // Facts the reader wants in the profile notes (tables missing, records skipped ...).
    std::map<std::string, std::string> notes;
};

std::string_view toString(UnifiedMemoryEvent event);
std::string_view toString(CopyDirection direction);
std::string_view toString(MemoryKind kind);

}  // namespace spillway::gpu_activity
