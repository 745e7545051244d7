#include "core/io/gpu_activity/gpu_activity.h"

namespace spillway::gpu_activity {

std::string_view toString(UnifiedMemoryEvent event) {
    switch (event) {
    case UnifiedMemoryEvent::GpuPageFault: return "gpu page fault";
    case UnifiedMemoryEvent::CpuPageFault: return "cpu page fault";
    case UnifiedMemoryEvent::MigrationToDevice: return "migration host->device";
    case UnifiedMemoryEvent::MigrationToHost: return "migration device->host";
    case UnifiedMemoryEvent::MigrationDeviceToDevice: return "migration device->device";
    case UnifiedMemoryEvent::Thrashing: return "thrashing";
    case UnifiedMemoryEvent::Throttling: return "throttling";
    case UnifiedMemoryEvent::RemoteMap: return "remote map";
    case UnifiedMemoryEvent::Other: return "other";
    }
    return "other";
}

std::string_view toString(CopyDirection direction) {
    switch (direction) {
    case CopyDirection::HostToDevice: return "HtoD";
    case CopyDirection::DeviceToHost: return "DtoH";
    case CopyDirection::DeviceToDevice: return "DtoD";
    case CopyDirection::HostToHost: return "HtoH";
    case CopyDirection::PeerToPeer: return "PtoP";
    case CopyDirection::Other: return "other";
    }
    return "other";
}

std::string_view toString(MemoryKind kind) {
    switch (kind) {
    case MemoryKind::Device: return "device";
    case MemoryKind::Managed: return "managed";
    case MemoryKind::DeviceStatic: return "device-static";
    case MemoryKind::ManagedStatic: return "managed-static";
    case MemoryKind::Pinned: return "pinned";
    case MemoryKind::Pageable: return "pageable";
    case MemoryKind::Array: return "array";
    case MemoryKind::Unknown: return "unknown";
    }
    return "unknown";
}


}  // namespace spillway::gpu_activity
