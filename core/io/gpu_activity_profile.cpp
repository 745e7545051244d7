#include "core/io/gpu_activity_profile.h"

#include "core/io/import_error.h"
#include "core/io/torch_trace_phases.h"
#include "core/trace/format_units.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <numeric>
#include <set>
#include <unordered_map>

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

namespace {

bool onGpu(MemoryKind kind) {
    return kind == MemoryKind::Device || kind == MemoryKind::Managed || kind == MemoryKind::DeviceStatic ||
           kind == MemoryKind::ManagedStatic || kind == MemoryKind::Array;
}

// One allocation paired with its free.
struct Block {
    MemoryKind kind = MemoryKind::Device;
    std::uint64_t address = 0;
    Bytes bytes = 0;
    std::optional<Nanoseconds> allocTime;  // unset: freed in the capture, allocated before it
    std::optional<Nanoseconds> freeTime;   // unset: never freed in the capture
};

struct Pairing {
    std::vector<Block> blocks;
    std::int64_t hostAllocations = 0;   // pinned / pageable: not GPU memory
    std::int64_t otherDevice = 0;       // records of another GPU
    std::int64_t zeroBytes = 0;
    std::int64_t freesBeforeCapture = 0;
    std::int64_t reusedWithoutFree = 0; // an address allocated again with no free between
    std::int64_t sizeMismatches = 0;    // a free whose size differs from its allocation
};

Pairing pairMemory(const std::vector<MemoryRecord>& records, std::int64_t device) {
    Pairing out;
    std::vector<std::size_t> order(records.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return records[a].time < records[b].time; });
    std::unordered_map<std::uint64_t, std::size_t> open;  // address -> index in out.blocks
    for (const auto i : order) {
        const auto& r = records[i];
        if (!onGpu(r.kind)) {
            out.hostAllocations += r.allocation ? 1 : 0;
            continue;
        }
        if (r.deviceId != device) {
            ++out.otherDevice;
            continue;
        }
        if (r.allocation && r.bytes <= 0) {
            ++out.zeroBytes;
            continue;
        }
        const auto it = open.find(r.address);
        if (r.allocation) {
            if (it != open.end()) {
                // The free was lost (CUPTI drops records when its buffers overflow): the old
                // block ends where the new one begins.
                out.blocks[it->second].freeTime = r.time;
                ++out.reusedWithoutFree;
            }
            out.blocks.push_back({r.kind, r.address, r.bytes, r.time, std::nullopt});
            open[r.address] = out.blocks.size() - 1;
        } else if (it != open.end()) {
            auto& block = out.blocks[it->second];
            block.freeTime = r.time;
            if (r.bytes > 0 && r.bytes != block.bytes) ++out.sizeMismatches;
            open.erase(it);
        } else if (r.bytes > 0) {
            out.blocks.push_back({r.kind, r.address, r.bytes, std::nullopt, r.time});
            ++out.freesBeforeCapture;
        } else {
            ++out.zeroBytes;
        }
    }
    return out;
}

// The kernel positions (sorted by start) running at time t, for the attribution of faults.
class KernelTimeline {
public:
    explicit KernelTimeline(const std::vector<KernelRecord>& kernels) : kernels_(kernels) {}

    // First position whose start >= t; kernels_.size() when none.
    std::size_t firstStartingFrom(Nanoseconds t) const {
        return static_cast<std::size_t>(
            std::lower_bound(kernels_.begin(), kernels_.end(), t,
                             [](const KernelRecord& k, Nanoseconds v) { return k.start < v; }) -
            kernels_.begin());
    }
    // Last position whose start <= t; -1 when none.
    std::int64_t lastStartedBy(Nanoseconds t) const {
        const auto it = std::upper_bound(kernels_.begin(), kernels_.end(), t,
                                         [](Nanoseconds v, const KernelRecord& k) { return v < k.start; });
        return static_cast<std::int64_t>(it - kernels_.begin()) - 1;
    }
    // The kernel running at t (start <= t <= end), the latest started when several overlap.
    std::int64_t runningAt(Nanoseconds t) const {
        // Kernels on other streams may overlap: look back a few starts, not over the whole run.
        const auto latest = lastStartedBy(t);
        for (auto pos = latest; pos >= 0 && latest - pos <= 64; --pos)
            if (kernels_[static_cast<std::size_t>(pos)].end >= t) return pos;
        return -1;
    }

private:
    const std::vector<KernelRecord>& kernels_;
};

// Allocations by address, to find the block holding an address at a time. Allocators reuse
// addresses (hundreds of blocks may start at one address over a run), so blocks are sorted by
// address and then allocation time: per start address one binary search finds the only block
// that can be live at t (blocks at one address never overlap in time, see pairMemory).
class BlockIndex {
public:
    explicit BlockIndex(const std::vector<Block>& blocks) : blocks_(blocks) {
        order_.resize(blocks.size());
        std::iota(order_.begin(), order_.end(), 0);
        std::sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) {
            if (blocks[a].address != blocks[b].address) return blocks[a].address < blocks[b].address;
            return bornAt(blocks[a]) < bornAt(blocks[b]);
        });
        for (const auto& b : blocks) largest_ = std::max<std::uint64_t>(largest_, static_cast<std::uint64_t>(b.bytes));
    }

    std::optional<std::size_t> holding(std::uint64_t address, Nanoseconds t) const {
        auto end = std::upper_bound(order_.begin(), order_.end(), address,
                                    [&](std::uint64_t a, std::size_t b) { return a < blocks_[b].address; });
        while (end != order_.begin()) {
            const std::uint64_t start = blocks_[*std::prev(end)].address;
            if (start + largest_ <= address) break;  // no block starting this low reaches it
            const auto group = std::lower_bound(order_.begin(), end, start,
                                                [&](std::size_t b, std::uint64_t a) { return blocks_[b].address < a; });
            // The last block at this address born at or before t.
            const auto born = std::upper_bound(group, end, t,
                                               [&](Nanoseconds v, std::size_t b) { return v < bornAt(blocks_[b]); });
            if (born != group) {
                const auto& b = blocks_[*std::prev(born)];
                const bool alive = !b.freeTime || t <= *b.freeTime;
                if (alive && address < b.address + static_cast<std::uint64_t>(b.bytes)) return *std::prev(born);
            }
            end = group;
        }
        return std::nullopt;
    }

private:
    static Nanoseconds bornAt(const Block& b) { return b.allocTime.value_or(std::numeric_limits<Nanoseconds>::min()); }

    const std::vector<Block>& blocks_;
    std::vector<std::size_t> order_;
    std::uint64_t largest_ = 0;
};

// The GPU the profile is about: the one with the most kernels (one device per profile).
std::int64_t mainDevice(const std::vector<KernelRecord>& kernels) {
    std::map<std::int64_t, std::int64_t> counts;
    for (const auto& k : kernels) ++counts[k.deviceId];
    std::int64_t best = 0, bestCount = -1;
    for (const auto& [device, count] : counts)
        if (count > bestCount) best = device, bestCount = count;
    return best;
}

// "void at::native::foo<float>(int, float*)" -> "at::native::foo".
std::string baseName(const std::string& name) {
    std::string s = name;
    if (const auto paren = s.find('('); paren != std::string::npos) s.resize(paren);
    if (const auto angle = s.find('<'); angle != std::string::npos) s.resize(angle);
    if (const auto space = s.rfind(' '); space != std::string::npos) s = s.substr(space + 1);
    return s.empty() ? name : s;
}

// Phases from spillway.* ranges: the range holding the kernel's launch (or start) time.
struct PhaseAssignment {
    bool fromRanges = false;
    std::vector<std::optional<KernelPhase>> phases;  // nullopt: outside the iteration
};

PhaseAssignment assignPhases(const std::vector<KernelRecord>& kernels, const std::vector<RangeMark>& ranges) {
    PhaseAssignment out;
    std::vector<const RangeMark*> marks;
    for (const auto& r : ranges)
        if (r.name.starts_with("spillway.")) marks.push_back(&r);
    out.fromRanges = !marks.empty();
    for (const auto& k : kernels) {
        if (!out.fromRanges) {
            out.phases.push_back(KernelPhase::Other);
            continue;
        }
        const Nanoseconds t = k.launchTime.value_or(k.start);
        std::optional<KernelPhase> phase;
        bool found = false;
        for (const auto* m : marks)
            if (m->start <= t && t <= m->end) {
                phase = torch_trace::phaseOfMark(m->name);
                found = true;
                break;
            }
        out.phases.push_back(found ? phase : std::nullopt);
    }
    return out;
}

struct UnifiedMemoryTally {
    std::int64_t faultRecords = 0;
    std::int64_t faultsAttributed = 0;
    std::int64_t outsideAllocations = 0;
    std::int64_t outsideKernels = 0;
    std::set<std::size_t> tensorsTouched;
    std::map<std::string, std::pair<std::int64_t, std::uint64_t>> byKindAndCause;  // records, value
};

}  // namespace

Profile buildProfile(const Capture& capture) {
    if (capture.kernels.empty())
        throw ImportError(capture.sourcePath, "no kernels in the capture: nothing ran on the GPU while it was "
                                              "recorded (or the kernel records were not collected)");
    Profile p;
    auto& notes = p.metadata.notes;
    notes = capture.notes;

    // Kernels of one GPU in start order: the captured program order.
    const std::int64_t device = mainDevice(capture.kernels);
    std::vector<KernelRecord> kernels;
    std::int64_t otherDeviceKernels = 0;
    for (const auto& k : capture.kernels) {
        if (k.deviceId == device) kernels.push_back(k);
        else ++otherDeviceKernels;
    }
    std::stable_sort(kernels.begin(), kernels.end(), [](const KernelRecord& a, const KernelRecord& b) {
        if (a.start != b.start) return a.start < b.start;
        return a.end < b.end;
    });

    PhaseAssignment phases = assignPhases(kernels, capture.ranges);
    std::int64_t outsideIteration = 0;
    if (phases.fromRanges) {
        std::vector<KernelRecord> kept;
        std::vector<std::optional<KernelPhase>> keptPhases;
        for (std::size_t i = 0; i < kernels.size(); ++i) {
            if (!phases.phases[i]) {
                ++outsideIteration;
                continue;
            }
            kept.push_back(kernels[i]);
            keptPhases.push_back(phases.phases[i]);
        }
        if (kept.empty())
            throw ImportError(capture.sourcePath,
                              fmt::format("no kernels inside the spillway.* NVTX ranges ({} kernels outside them)",
                                          outsideIteration));
        kernels = std::move(kept);
        phases.phases = std::move(keptPhases);
    }

    // Time zero: the earliest kernel or GPU memory event, so no time in the profile is negative.
    Nanoseconds origin = kernels.front().start;
    for (const auto& m : capture.memory)
        if (m.deviceId == device && onGpu(m.kind)) origin = std::min(origin, m.time);

    p.metadata.source = capture.source;
    p.metadata.sourcePath = capture.sourcePath;
    p.metadata.model = capture.model.empty() ? std::filesystem::path(capture.sourcePath).filename().string()
                                             : capture.model;
    const auto name = capture.deviceNames.find(device);
    p.metadata.device = name != capture.deviceNames.end() ? name->second : fmt::format("CUDA device {}", device);
    p.jobs.push_back({0, p.metadata.model});

    std::int64_t raised = 0;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        const auto& r = kernels[i];
        Kernel k;
        k.id = static_cast<KernelId>(i);
        k.name = r.name;
        k.op = baseName(r.name);
        k.duration = r.end - r.start;
        if (k.duration < 1) {
            k.duration = 1;
            ++raised;
        }
        k.phase = *phases.phases[i];
        k.capturedStart = r.start - origin;
        p.kernels.push_back(std::move(k));
    }

    // Tensors: the GPU allocations, live from allocation to free.
    const Pairing pairing = pairMemory(capture.memory, device);
    const KernelTimeline timeline(kernels);
    const auto last = static_cast<std::int64_t>(kernels.size()) - 1;
    std::vector<std::int64_t> producer(pairing.blocks.size(), -1), reader(pairing.blocks.size(), -1);
    std::vector<std::set<std::int64_t>> observed(pairing.blocks.size());
    std::int64_t betweenKernels = 0;
    for (std::size_t b = 0; b < pairing.blocks.size(); ++b) {
        const auto& block = pairing.blocks[b];
        if (block.allocTime) {
            const auto first = timeline.firstStartingFrom(*block.allocTime);
            if (first < kernels.size()) producer[b] = static_cast<std::int64_t>(first);
        }
        if (block.freeTime) reader[b] = timeline.lastStartedBy(*block.freeTime);
        else if (block.allocTime && producer[b] > 0) reader[b] = last;  // live to the end
        if (block.allocTime && (producer[b] < 0 || (block.freeTime && reader[b] < producer[b]))) {
            producer[b] = reader[b] = -1;
            ++betweenKernels;
        }
    }

    // Observed uses from unified-memory faults.
    const BlockIndex index(pairing.blocks);
    UnifiedMemoryTally um;
    for (const auto& r : capture.unifiedMemory) {
        auto& [records, value] = um.byKindAndCause[fmt::format("{}{}{}", toString(r.event),
                                                                r.cause.empty() ? "" : ", ", r.cause)];
        ++records;
        value += r.value;
        const bool access = r.event == UnifiedMemoryEvent::GpuPageFault;
        if (!access || (r.deviceId >= 0 && r.deviceId != device)) continue;
        ++um.faultRecords;
        const auto block = index.holding(r.address, r.start);
        if (!block) {
            ++um.outsideAllocations;
            continue;
        }
        const auto pos = timeline.runningAt(r.start);
        if (pos < 0) {
            ++um.outsideKernels;
            continue;
        }
        ++um.faultsAttributed;
        um.tensorsTouched.insert(*block);
        observed[*block].insert(pos);
    }

    std::int64_t persistent = 0, workspaces = 0, withoutUses = 0, withObserved = 0;
    for (std::size_t b = 0; b < pairing.blocks.size(); ++b) {
        const auto& block = pairing.blocks[b];
        Tensor t;
        t.id = static_cast<TensorId>(b);
        t.bytes = block.bytes;
        t.address = block.address;
        if (block.allocTime) t.allocTime = *block.allocTime - origin;
        if (block.freeTime) t.freeTime = *block.freeTime - origin;
        // Allocated before the first kernel (or before the capture) and never freed: a weight.
        t.persistent = !block.freeTime && (!block.allocTime || producer[b] == 0 ||
                                           block.kind == MemoryKind::DeviceStatic ||
                                           block.kind == MemoryKind::ManagedStatic);
        std::set<std::int64_t> uses = observed[b];
        if (!observed[b].empty()) ++withObserved;
        // A weight is there before the iteration: no kernel of it writes it first.
        std::int64_t writer = t.persistent ? -1 : producer[b];
        if (!t.persistent && block.allocTime && !uses.empty() && (writer < 0 || *uses.begin() < writer)) {
            if (writer >= 0) uses.insert(writer);
            writer = *uses.begin();
        }
        if (writer >= 0) {
            p.kernels[static_cast<std::size_t>(writer)].outputs.push_back(t.id);
            uses.erase(writer);
        }
        if (reader[b] >= 0 && reader[b] != writer) uses.insert(reader[b]);
        for (const auto pos : uses) {
            if (writer >= 0 && pos < writer) continue;  // before it existed: not a use
            p.kernels[static_cast<std::size_t>(pos)].inputs.push_back(t.id);
        }
        const bool used = writer >= 0 || !uses.empty();
        if (t.persistent) {
            t.kind = TensorKind::Weight;
            ++persistent;
        } else if (!used) {
            t.kind = TensorKind::Temporary;
        } else if (writer >= 0 && (uses.empty() || (uses.size() == 1 && *uses.begin() == writer))) {
            t.kind = TensorKind::Workspace;
            ++workspaces;
        } else {
            t.kind = block.allocTime ? TensorKind::Activation : TensorKind::Input;
        }
        if (!used && !t.persistent) ++withoutUses;  // a weight is live without uses
        t.name = fmt::format("{}@{:#x}#{}", toString(block.kind), block.address, t.id);
        p.tensors.push_back(std::move(t));
    }

    // What was read and how it was mapped, for whoever opens the profile.
    notes["time_unit"] = "nanoseconds on the capture's clock, from the earliest kernel or GPU memory event";
    notes["kernels"] = fmt::format("{} kernels of CUDA device {} in GPU start order{}", kernels.size(), device,
                                   otherDeviceKernels ? fmt::format("; {} kernels of other devices left out "
                                                                    "(one device per profile)",
                                                                    otherDeviceKernels)
                                                      : std::string());
    if (raised) notes["zero_durations"] = fmt::format("{} kernels lasted 0 ns; their duration is set to 1 ns", raised);
    notes["phases"] = phases.fromRanges
                          ? fmt::format("from spillway.* NVTX ranges at each kernel's {} time; {} kernels outside "
                                        "them (or in spillway.setup) left out",
                                        kernels.front().launchTime ? "launch" : "start", outsideIteration)
                          : "no spillway.* NVTX ranges: every kernel's phase is \"other\"";
    notes["tensors"] = fmt::format(
        "{} GPU allocations (device, managed, static) of CUDA device {}: {} persistent (allocated before "
        "the first kernel, never freed), {} workspaces (one kernel), {} without uses (no kernel started "
        "while live; {} of them allocated and freed between two kernels)",
        pairing.blocks.size(), device, persistent, workspaces, withoutUses, betweenKernels);
    notes["tensor_uses"] =
        capture.unifiedMemory.empty()
            ? "inferred from time only (the capture has no unified-memory records): the first kernel to "
              "start at or after the allocation writes a tensor, the last to start at or before its free "
              "reads it; kernels have no other inputs, since CUDA does not record which buffers a kernel "
              "reads"
            : fmt::format("lifetime (first kernel after the allocation writes, last kernel before the free "
                          "reads) plus observed: {} of {} GPU page-fault records fell in a live allocation "
                          "during a kernel and make that kernel a user ({} tensors have observed uses; {} "
                          "faults outside any allocation, {} outside any kernel)",
                          um.faultsAttributed, um.faultRecords, withObserved, um.outsideAllocations,
                          um.outsideKernels);
    if (pairing.hostAllocations)
        notes["memory_host"] = fmt::format("{} pinned or pageable host allocations are not tensors",
                                           pairing.hostAllocations);
    if (pairing.otherDevice)
        notes["memory_other_devices"] = fmt::format("{} memory records of other devices left out", pairing.otherDevice);
    if (pairing.zeroBytes) notes["memory_zero_bytes"] = fmt::format("{} zero-byte memory records skipped", pairing.zeroBytes);
    if (pairing.freesBeforeCapture)
        notes["memory_before_capture"] = fmt::format(
            "{} frees without an allocation in the capture: allocated before it, tensors without alloc_time "
            "(inputs)",
            pairing.freesBeforeCapture);
    if (pairing.reusedWithoutFree)
        notes["memory_lost_frees"] = fmt::format(
            "{} addresses were allocated again with no free recorded between: the earlier block is taken "
            "as freed at the new allocation",
            pairing.reusedWithoutFree);
    if (pairing.sizeMismatches)
        notes["memory_size_mismatch"] = fmt::format("{} frees named a size different from their allocation; the "
                                                    "allocation's size is kept",
                                                    pairing.sizeMismatches);

    std::map<std::string, std::pair<std::int64_t, Bytes>> copies;
    for (const auto& c : capture.copies) {
        auto& [count, bytes] = copies[c.memset ? std::string("memset") : "memcpy " + std::string(toString(c.direction))];
        ++count;
        bytes += c.bytes;
    }
    if (!copies.empty()) {
        std::string text;
        for (const auto& [what, cb] : copies)
            text += fmt::format("{}{}: {} ({})", text.empty() ? "" : "; ", what, cb.first, readableBytes(cb.second));
        notes["copies"] = text + " — not tensors or kernels: the records carry no addresses";
    }
    for (const auto& [what, rv] : um.byKindAndCause) {
        const bool bytes = what.starts_with("migration") || what.starts_with("thrashing") ||
                           what.starts_with("remote map");
        notes["unified_memory." + what] =
            bytes ? fmt::format("{} records, {}", rv.first, readableBytes(static_cast<Bytes>(rv.second)))
                  : fmt::format("{} records, {} faults", rv.first, rv.second);
    }
    return p;
}

}  // namespace spillway::gpu_activity
