#include "core/io/gpu_activity/stored_capture.h"

#include "core/io/base/import_error.h"
#include "core/io/gpu_activity/cupti_records.h"
#include "core/io/gpu_activity/gpu_activity_profile.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <unordered_map>

namespace spillway::gpu_activity {

namespace {

// The notes the builder writes again; the others (about records the stored profile no longer
// holds) are carried.
bool rebuiltNote(const std::string& key) {
    static constexpr std::array<std::string_view, 9> rebuilt{"kernels", "phases", "tensors", "tensor_uses",
                                                             "time_unit", "memory_allocator", "iterations.",
                                                             "kind_rule.", "warning."};
    return std::any_of(rebuilt.begin(), rebuilt.end(), [&](std::string_view r) {
        return r.back() == '.' ? key.starts_with(r) : key == r;
    });
}

// "managed@0x7f32de000000#0" -> Managed.
MemoryKind kindOfName(const std::string& name, const std::string& path, std::size_t index) {
    const std::string kind = name.substr(0, name.find('@'));
    for (const auto k : {MemoryKind::Device, MemoryKind::Managed, MemoryKind::DeviceStatic, MemoryKind::ManagedStatic,
                         MemoryKind::Array})
        if (kind == toString(k)) return k;
    throw ImportError(path, fmt::format("/tensors/{}/name: \"{}\" is not a captured allocation's name (KIND@ADDRESS#ID "
                                        "with KIND device, managed, device-static, managed-static or array)",
                                        index, name));
}

// The stored profile's phases were decided from NVTX ranges (which it no longer holds).
bool phasesFromRanges(const Profile& stored) {
    const auto it = stored.metadata.notes.find("phases");
    return it != stored.metadata.notes.end() && it->second.starts_with("from ") &&
           it->second.find("NVTX ranges") != std::string::npos;
}

// The stored uses were observed (page faults), not only inferred from lifetimes.
bool usesObserved(const Profile& stored) {
    const auto it = stored.metadata.notes.find("tensor_uses");
    return it != stored.metadata.notes.end() && it->second.find("plus observed") != std::string::npos;
}

void addKernels(const Profile& stored, const std::string& path, Capture& capture) {
    const bool recorded = phasesFromRanges(stored);
    const bool observed = usesObserved(stored);
    std::unordered_map<TensorId, std::uint64_t> addressOf;
    for (const auto& t : stored.tensors)
        if (t.address) addressOf[t.id] = *t.address;
    for (std::size_t i = 0; i < stored.kernels.size(); ++i) {
        const auto& k = stored.kernels[i];
        if (!k.capturedStart)
            throw ImportError(path, fmt::format("/kernels/{}/captured_start_ns: missing; a capture's kernels carry "
                                                "their start time",
                                                i));
        KernelRecord r;
        r.name = k.name;
        r.start = *k.capturedStart;
        r.end = *k.capturedStart + k.duration;  // both within 2^50 ns: the native reader checked them
        r.where = fmt::format("/kernels/{}", i);
        if (recorded) r.recordedPhase = k.phase;
        if (observed)
            for (const auto& ids : {k.inputs, k.outputs})
                for (const auto id : ids)
                    if (const auto it = addressOf.find(id); it != addressOf.end()) r.touchedAddresses.push_back(it->second);
        capture.kernels.push_back(std::move(r));
    }
}

void addMemory(const Profile& stored, const std::string& path, Capture& capture) {
    for (std::size_t i = 0; i < stored.tensors.size(); ++i) {
        const auto& t = stored.tensors[i];
        if (!t.address)
            throw ImportError(path, fmt::format("/tensors/{}/address: missing; a capture's tensors carry their "
                                                "address",
                                                i));
        MemoryRecord m;
        m.kind = kindOfName(t.name, path, i);
        m.address = *t.address;
        m.bytes = t.bytes;
        m.where = fmt::format("/tensors/{}", i);
        // Neither time: it was there before the capture and never freed; allocated at time zero.
        if (t.allocTime || !t.freeTime) {
            m.time = t.allocTime.value_or(0);
            capture.memory.push_back(m);
        }
        if (t.freeTime) {
            m.allocation = false;
            m.time = *t.freeTime;
            capture.memory.push_back(m);
        }
    }
}

}  // namespace

bool isWholeCapture(const Profile& stored) {
    if (stored.metadata.source != cupti::kCuptiCaptureSource) return false;
    const auto it = stored.metadata.notes.find("iterations.imported");
    return it == stored.metadata.notes.end() || it->second == "all";
}

Profile rebuildStoredCapture(const Profile& stored, const std::string& path, const ImportOptions& options) {
    if (!isWholeCapture(stored)) {
        const bool one = options.iteration == ImportOptions::kSteadyIteration || options.iteration == 1 ||
                         options.iteration == ImportOptions::kAllIterations;
        if (!one && stored.metadata.source == cupti::kCuptiCaptureSource)
            throw ImportError(path, fmt::format("iteration {} was asked for, but the profile holds one iteration (of "
                                                "the capture it was imported from: {})",
                                                options.iteration, stored.metadata.notes.at("iterations.imported")));
        return stored;
    }
    Capture capture;
    capture.source = stored.metadata.source;
    capture.sourcePath = path;
    capture.model = stored.metadata.model;
    capture.deviceNames[0] = stored.metadata.device;
    for (const auto& [key, value] : stored.metadata.notes)
        if (!rebuiltNote(key)) capture.notes[key] = value;
    addKernels(stored, path, capture);
    addMemory(stored, path, capture);
    Profile p = buildProfile(capture, options);
    p.metadata.batch = stored.metadata.batch;
    p.metadata.notes["capture.read_back"] =
        "rebuilt from the stored kernels and allocations with the current rules (phases, iterations, kinds, the "
        "caching-allocator check)";
    return p;
}

}  // namespace spillway::gpu_activity
