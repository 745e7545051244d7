#include "runtime/capture/cupti_record_copy.h"

namespace spillway::capture {

// The mirrors' codes are CUPTI's: checked here, against the header this library is built with.
static_assert(cupti::kMemoryOperationAllocation == CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION);
static_assert(cupti::kMemoryOperationRelease == CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE);
static_assert(cupti::kMemoryKindUnknown == CUPTI_ACTIVITY_MEMORY_KIND_UNKNOWN);
static_assert(cupti::kMemoryKindPageable == CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE);
static_assert(cupti::kMemoryKindPinned == CUPTI_ACTIVITY_MEMORY_KIND_PINNED);
static_assert(cupti::kMemoryKindDevice == CUPTI_ACTIVITY_MEMORY_KIND_DEVICE);
static_assert(cupti::kMemoryKindArray == CUPTI_ACTIVITY_MEMORY_KIND_ARRAY);
static_assert(cupti::kMemoryKindManaged == CUPTI_ACTIVITY_MEMORY_KIND_MANAGED);
static_assert(cupti::kMemoryKindDeviceStatic == CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC);
static_assert(cupti::kMemoryKindManagedStatic == CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC);
static_assert(cupti::kMemcpyHtoD == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD);
static_assert(cupti::kMemcpyDtoH == CUPTI_ACTIVITY_MEMCPY_KIND_DTOH);
static_assert(cupti::kMemcpyDtoD == CUPTI_ACTIVITY_MEMCPY_KIND_DTOD);
static_assert(cupti::kMemcpyHtoH == CUPTI_ACTIVITY_MEMCPY_KIND_HTOH);
static_assert(cupti::kMemcpyPtoP == CUPTI_ACTIVITY_MEMCPY_KIND_PTOP);
static_assert(cupti::kUmBytesHtoD == CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD);
static_assert(cupti::kUmBytesDtoH == CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH);
static_assert(cupti::kUmCpuPageFault == CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_CPU_PAGE_FAULT_COUNT);
static_assert(cupti::kUmGpuPageFault == CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_GPU_PAGE_FAULT);
static_assert(cupti::kUmThrashing == CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THRASHING);
static_assert(cupti::kUmThrottling == CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THROTTLING);
static_assert(cupti::kUmRemoteMap == CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_REMOTE_MAP);
static_assert(cupti::kUmBytesDtoD == CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOD);
static_assert(cupti::kUmCauseUnknown == CUPTI_ACTIVITY_UNIFIED_MEMORY_MIGRATION_CAUSE_UNKNOWN);
static_assert(cupti::kUmCauseUser == CUPTI_ACTIVITY_UNIFIED_MEMORY_MIGRATION_CAUSE_USER);
static_assert(cupti::kUmCauseCoherence == CUPTI_ACTIVITY_UNIFIED_MEMORY_MIGRATION_CAUSE_COHERENCE);
static_assert(cupti::kUmCausePrefetch == CUPTI_ACTIVITY_UNIFIED_MEMORY_MIGRATION_CAUSE_PREFETCH);
static_assert(cupti::kUmCauseEviction == CUPTI_ACTIVITY_UNIFIED_MEMORY_MIGRATION_CAUSE_EVICTION);
static_assert(cupti::kUmCauseAccessCounters == CUPTI_ACTIVITY_UNIFIED_MEMORY_MIGRATION_CAUSE_ACCESS_COUNTERS);
static_assert(cupti::kUmAccessRead == CUPTI_ACTIVITY_UNIFIED_MEMORY_ACCESS_TYPE_READ);
static_assert(cupti::kUmAccessWrite == CUPTI_ACTIVITY_UNIFIED_MEMORY_ACCESS_TYPE_WRITE);
static_assert(cupti::kUmAccessAtomic == CUPTI_ACTIVITY_UNIFIED_MEMORY_ACCESS_TYPE_ATOMIC);
static_assert(cupti::kUmAccessPrefetch == CUPTI_ACTIVITY_UNIFIED_MEMORY_ACCESS_TYPE_PREFETCH);
static_assert(cupti::kUmRemoteMapCoherence == CUPTI_ACTIVITY_UNIFIED_MEMORY_REMOTE_MAP_CAUSE_COHERENCE);
static_assert(cupti::kUmRemoteMapThrashing == CUPTI_ACTIVITY_UNIFIED_MEMORY_REMOTE_MAP_CAUSE_THRASHING);
static_assert(cupti::kUmRemoteMapPolicy == CUPTI_ACTIVITY_UNIFIED_MEMORY_REMOTE_MAP_CAUSE_POLICY);
static_assert(cupti::kUmRemoteMapOutOfMemory == CUPTI_ACTIVITY_UNIFIED_MEMORY_REMOTE_MAP_CAUSE_OUT_OF_MEMORY);
static_assert(cupti::kUmRemoteMapEviction == CUPTI_ACTIVITY_UNIFIED_MEMORY_REMOTE_MAP_CAUSE_EVICTION);
static_assert(cupti::kUmFlagInCpu == CUPTI_ACTIVITY_FLAG_THRASHING_IN_CPU);
static_assert(cupti::kUmFlagInCpu == CUPTI_ACTIVITY_FLAG_THROTTLING_IN_CPU);
static_assert(cupti::kMarkerInstantaneous == CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS);
static_assert(cupti::kMarkerStart == CUPTI_ACTIVITY_FLAG_MARKER_START);
static_assert(cupti::kMarkerEnd == CUPTI_ACTIVITY_FLAG_MARKER_END);

cupti::KernelRecord copyRecord(const CuptiKernel& r) {
    cupti::KernelRecord k;
    k.name = r.name ? r.name : "";
    k.start = r.start;
    k.end = r.end;
    k.deviceId = r.deviceId;
    k.streamId = r.streamId;
    k.correlationId = r.correlationId;
    return k;
}

cupti::MemoryRecord copyRecord(const CuptiMemory& r) {
    cupti::MemoryRecord m;
    m.memoryOperationType = static_cast<std::uint32_t>(r.memoryOperationType);
    m.memoryKind = static_cast<std::uint32_t>(r.memoryKind);
    m.address = r.address;
    m.bytes = r.bytes;
    m.timestamp = r.timestamp;
    m.deviceId = r.deviceId;
    return m;
}

cupti::MemcpyRecord copyRecord(const CuptiMemcpy& r) {
    cupti::MemcpyRecord c;
    c.copyKind = r.copyKind;
    c.bytes = r.bytes;
    c.start = r.start;
    c.end = r.end;
    c.deviceId = r.deviceId;
    return c;
}

cupti::MemsetRecord copyRecord(const CuptiMemset& r) {
    cupti::MemsetRecord s;
    s.bytes = r.bytes;
    s.start = r.start;
    s.end = r.end;
    s.deviceId = r.deviceId;
    return s;
}

cupti::UnifiedMemoryRecord copyRecord(const CuptiUnifiedMemory& r) {
    cupti::UnifiedMemoryRecord u;
    u.counterKind = static_cast<std::uint32_t>(r.counterKind);
    u.value = r.value;
    u.start = r.start;
    u.end = r.end;
    u.address = r.address;
    u.srcId = r.srcId;
    u.dstId = r.dstId;
    u.flags = r.flags;
    return u;
}

cupti::MarkerRecord copyRecord(const CuptiMarker& r) {
    cupti::MarkerRecord m;
    m.flags = static_cast<std::uint32_t>(r.flags);
    m.timestamp = r.timestamp;
    m.id = r.id;
    if (r.objectKind == CUPTI_ACTIVITY_OBJECT_THREAD || r.objectKind == CUPTI_ACTIVITY_OBJECT_PROCESS)
        m.threadId = r.objectId.pt.threadId;
    m.name = r.name ? r.name : "";
    return m;
}

cupti::ApiRecord copyRecord(const CuptiApi& r) { return {r.start, r.correlationId}; }

bool addRecord(cupti::RecordParser& parser, const CUpti_Activity* record) {
    switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
        parser.add(copyRecord(*reinterpret_cast<const CuptiKernel*>(record)));
        return true;
    case CUPTI_ACTIVITY_KIND_MEMORY2:
        parser.add(copyRecord(*reinterpret_cast<const CuptiMemory*>(record)));
        return true;
    case CUPTI_ACTIVITY_KIND_MEMCPY:
        parser.add(copyRecord(*reinterpret_cast<const CuptiMemcpy*>(record)));
        return true;
    case CUPTI_ACTIVITY_KIND_MEMSET:
        parser.add(copyRecord(*reinterpret_cast<const CuptiMemset*>(record)));
        return true;
    case CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER:
        parser.add(copyRecord(*reinterpret_cast<const CuptiUnifiedMemory*>(record)));
        return true;
    case CUPTI_ACTIVITY_KIND_MARKER:
        parser.add(copyRecord(*reinterpret_cast<const CuptiMarker*>(record)));
        return true;
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER:
        parser.add(copyRecord(*reinterpret_cast<const CuptiApi*>(record)));
        return true;
    case CUPTI_ACTIVITY_KIND_DEVICE: {
        const auto& d = *reinterpret_cast<const CuptiDevice*>(record);
        parser.addDevice(d.id, d.name ? d.name : "");
        return true;
    }
    default: return false;
    }
}

}  // namespace spillway::capture
