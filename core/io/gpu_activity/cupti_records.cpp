#include "core/io/gpu_activity/cupti_records.h"

#include "core/io/gpu_activity/gpu_activity_profile.h"

#include <cxxabi.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <memory>

namespace spillway::cupti {

using namespace gpu_activity;

namespace {

// CUPTI's clock counts from the epoch (about 2^60 ns now); a time or size past INT64_MAX would
// wrap negative, so it saturates there and the builder refuses it as past the bounds.
Nanoseconds ns(std::uint64_t t) { return t > std::uint64_t(INT64_MAX) ? INT64_MAX : static_cast<Nanoseconds>(t); }
Bytes bytesOf(std::uint64_t b) { return b > std::uint64_t(INT64_MAX) ? INT64_MAX : static_cast<Bytes>(b); }

MemoryKind memoryKind(std::uint32_t code) {
    switch (code) {
    case kMemoryKindDevice: return MemoryKind::Device;
    case kMemoryKindManaged: return MemoryKind::Managed;
    case kMemoryKindDeviceStatic: return MemoryKind::DeviceStatic;
    case kMemoryKindManagedStatic: return MemoryKind::ManagedStatic;
    case kMemoryKindPinned: return MemoryKind::Pinned;
    case kMemoryKindPageable: return MemoryKind::Pageable;
    case kMemoryKindArray: return MemoryKind::Array;
    default: return MemoryKind::Unknown;
    }
}

CopyDirection copyDirection(std::uint32_t code) {
    switch (code) {
    case kMemcpyHtoD: return CopyDirection::HostToDevice;
    case kMemcpyDtoH: return CopyDirection::DeviceToHost;
    case kMemcpyDtoD: return CopyDirection::DeviceToDevice;
    case kMemcpyHtoH: return CopyDirection::HostToHost;
    case kMemcpyPtoP: return CopyDirection::PeerToPeer;
    default: return CopyDirection::Other;
    }
}

std::string migrationCause(std::uint32_t flags) {
    switch (flags) {
    case kUmCauseUser: return "user";
    case kUmCauseCoherence: return "coherence";
    case kUmCausePrefetch: return "prefetch";
    case kUmCauseEviction: return "eviction";
    case kUmCauseAccessCounters: return "access counters";
    default: return "unknown cause";
    }
}

std::string accessType(std::uint32_t flags) {
    switch (flags) {
    case kUmAccessRead: return "read";
    case kUmAccessWrite: return "write";
    case kUmAccessAtomic: return "atomic";
    case kUmAccessPrefetch: return "prefetch";
    default: return "unknown access";
    }
}

std::string remoteMapCause(std::uint32_t flags) {
    switch (flags) {
    case kUmRemoteMapCoherence: return "coherence";
    case kUmRemoteMapThrashing: return "thrashing";
    case kUmRemoteMapPolicy: return "policy";
    case kUmRemoteMapOutOfMemory: return "out of memory";
    case kUmRemoteMapEviction: return "eviction";
    default: return "unknown cause";
    }
}

struct PairedMarkers {
    std::vector<RangeMark> ranges;
    std::size_t unended = 0;
    std::size_t unstarted = 0;
};

// Starts and ends into ranges: an end closes the start with its id; an end whose id no start has
// (push/pop ids are per thread in some CUPTI versions) closes its thread's innermost open start.
PairedMarkers pairMarkers(std::vector<MarkerRecord> markers) {
    std::stable_sort(markers.begin(), markers.end(),
                     [](const MarkerRecord& a, const MarkerRecord& b) { return a.timestamp < b.timestamp; });
    PairedMarkers out;
    std::unordered_map<std::uint32_t, const MarkerRecord*> open;
    std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> openByThread;  // ids, innermost last
    for (const auto& m : markers) {
        if (m.flags & kMarkerStart) {
            open[m.id] = &m;
            openByThread[m.threadId].push_back(m.id);
            continue;
        }
        if (!(m.flags & kMarkerEnd)) continue;  // an instantaneous mark: not a range
        auto& stack = openByThread[m.threadId];
        std::uint32_t id = m.id;
        if (!open.contains(id)) {
            if (stack.empty()) {
                ++out.unstarted;
                continue;
            }
            id = stack.back();
        }
        const MarkerRecord& start = *open.at(id);
        out.ranges.push_back({start.name, ns(start.timestamp), ns(m.timestamp)});
        open.erase(id);
        auto& startStack = openByThread[start.threadId];
        if (const auto it = std::find(startStack.rbegin(), startStack.rend(), id); it != startStack.rend())
            startStack.erase(std::next(it).base());
    }
    out.unended = open.size();
    return out;
}

}  // namespace

std::string demangle(const std::string& name) {
    if (!name.starts_with("_Z")) return name;
    int status = 0;
    std::unique_ptr<char, decltype(&std::free)> out(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status),
                                                    &std::free);
    return status == 0 && out ? std::string(out.get()) : name;
}

void RecordParser::add(const KernelRecord& r) {
    gpu_activity::KernelRecord k;
    k.name = demangle(r.name);
    k.start = ns(r.start);
    k.end = ns(r.end);
    k.deviceId = r.deviceId;
    k.streamId = r.streamId;
    k.correlationId = r.correlationId;
    k.where = fmt::format("kernel record {}", capture_.kernels.size());
    capture_.kernels.push_back(std::move(k));
}

void RecordParser::add(const MemoryRecord& r) {
    if (r.memoryOperationType != kMemoryOperationAllocation && r.memoryOperationType != kMemoryOperationRelease) {
        ++unknownMemoryOperations_;
        return;
    }
    gpu_activity::MemoryRecord m;
    m.allocation = r.memoryOperationType == kMemoryOperationAllocation;
    m.kind = memoryKind(r.memoryKind);
    m.address = r.address;
    m.bytes = bytesOf(r.bytes);
    m.time = ns(r.timestamp);
    m.deviceId = r.deviceId;
    m.where = fmt::format("MEMORY2 record {}", capture_.memory.size());
    capture_.memory.push_back(std::move(m));
}

void RecordParser::add(const MemcpyRecord& r) {
    capture_.copies.push_back({false, copyDirection(r.copyKind), bytesOf(r.bytes), ns(r.start), ns(r.end),
                               r.deviceId});
}

void RecordParser::add(const MemsetRecord& r) {
    capture_.copies.push_back({true, CopyDirection::Other, bytesOf(r.bytes), ns(r.start), ns(r.end),
                               r.deviceId});
}

void RecordParser::add(const UnifiedMemoryRecord& r) {
    gpu_activity::UnifiedMemoryRecord u;
    u.address = r.address;
    u.value = r.value;
    u.start = ns(r.start);
    u.end = r.end ? ns(r.end) : ns(r.start);
    switch (r.counterKind) {
    case kUmGpuPageFault:
        u.event = UnifiedMemoryEvent::GpuPageFault;
        u.deviceId = r.srcId;  // the GPU that faulted
        u.cause = accessType(r.flags);
        break;
    case kUmCpuPageFault:
        u.event = UnifiedMemoryEvent::CpuPageFault;
        u.value = 1;  // CUPTI puts the faulting PC in `value`: one fault per record
        u.end = u.start;
        break;
    case kUmBytesHtoD:
        u.event = UnifiedMemoryEvent::MigrationToDevice;
        u.deviceId = r.dstId;
        u.cause = migrationCause(r.flags);
        break;
    case kUmBytesDtoH:
        u.event = UnifiedMemoryEvent::MigrationToHost;
        u.deviceId = r.srcId;
        u.cause = migrationCause(r.flags);
        break;
    case kUmBytesDtoD:
        u.event = UnifiedMemoryEvent::MigrationDeviceToDevice;
        u.deviceId = r.dstId;
        u.cause = migrationCause(r.flags);
        break;
    case kUmThrashing:
        // srcId is not one device but the OR of the devices fighting over the region.
        u.event = UnifiedMemoryEvent::Thrashing;
        u.end = u.start;  // CUPTI: ignore `end`
        if (r.flags & kUmFlagInCpu) u.cause = "in cpu";
        break;
    case kUmThrottling:
        u.event = UnifiedMemoryEvent::Throttling;
        u.deviceId = r.srcId;
        if (r.flags & kUmFlagInCpu) u.cause = "in cpu";
        break;
    case kUmRemoteMap:
        u.event = UnifiedMemoryEvent::RemoteMap;
        u.deviceId = r.dstId;
        u.end = u.start;  // CUPTI: ignore `end`
        u.cause = remoteMapCause(r.flags);
        break;
    default: u.event = UnifiedMemoryEvent::Other; break;
    }
    capture_.unifiedMemory.push_back(std::move(u));
}

void RecordParser::add(const MarkerRecord& r) { markers_.push_back(r); }

void RecordParser::add(const ApiRecord& r) {
    const auto [it, added] = launches_.emplace(r.correlationId, r.start);
    if (!added) it->second = std::min(it->second, r.start);  // a runtime call and the driver call inside it
}

void RecordParser::addDevice(std::uint32_t deviceId, const std::string& name) {
    capture_.deviceNames.emplace(deviceId, name);
}

void RecordParser::addDropped(std::uint64_t count) { dropped_ += count; }

gpu_activity::Capture RecordParser::assembled() const {
    Capture capture = capture_;
    const auto paired = pairMarkers(markers_);
    capture.ranges = paired.ranges;
    if (!markers_.empty())
        capture.notes["nvtx"] = fmt::format(
            "{} NVTX ranges recorded (push/pop and start/end){}", paired.ranges.size(),
            paired.unended || paired.unstarted
                ? fmt::format("; {} starts without an end and {} ends without a start left out", paired.unended,
                              paired.unstarted)
                : std::string());
    std::size_t joined = 0;
    for (auto& k : capture.kernels)
        if (const auto it = launches_.find(static_cast<std::uint32_t>(k.correlationId)); it != launches_.end()) {
            k.launchTime = ns(it->second);
            ++joined;
        }
    if (!launches_.empty())
        capture.notes["launch_times"] = fmt::format(
            "{} of {} kernels have their launch time (the runtime or driver API call with their correlation id)",
            joined, capture.kernels.size());
    return capture;
}

Profile RecordParser::finish(const std::string& outputPath, const std::string& model) const {
    Capture capture = assembled();
    capture.source = std::string(kCuptiCaptureSource);
    capture.sourcePath = outputPath;
    capture.model = model;
    if (dropped_)
        capture.notes["cupti_dropped_records"] =
            fmt::format("CUPTI dropped {} records (its buffers were full): the profile misses them", dropped_);
    if (unknownMemoryOperations_)
        capture.notes["cupti_unknown_memory_operations"] =
            fmt::format("{} MEMORY2 records with an unknown operation type skipped", unknownMemoryOperations_);
    ImportOptions all;
    all.iteration = ImportOptions::kAllIterations;
    return buildProfile(capture, all);
}

}  // namespace spillway::cupti
