#include "core/io/gpu_activity/gpu_activity_profile.h"

#include "core/io/base/import_error.h"
#include "core/io/gpu_activity/caching_allocator.h"
#include "core/io/gpu_activity/capture_kinds.h"
#include "core/io/gpu_activity/kernel_iterations.h"
#include "core/io/gpu_activity/kernel_phases.h"
#include "core/io/gpu_activity/memory_pairing.h"
#include "core/trace/format_units.h"
#include "core/trace/kind_evidence.h"
#include "core/trace/number_limits.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>
#include <set>

namespace spillway::gpu_activity {

namespace {

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

// The GPU the profile is about: the one with the most kernels (one device per profile).
std::int64_t mainDevice(const std::vector<KernelRecord>& kernels) {
    std::map<std::int64_t, std::int64_t> counts;
    for (const auto& k : kernels) ++counts[k.deviceId];
    std::int64_t best = 0, bestCount = -1;
    for (const auto& [device, count] : counts)
        if (count > bestCount) best = device, bestCount = count;
    return best;
}

// "void at::native::foo<float>(int, float*)" -> "at::native::foo"; anonymous namespaces dropped.
std::string baseName(const std::string& name) {
    std::string s = name;
    constexpr std::string_view anonymous = "(anonymous namespace)::";
    for (auto at = s.find(anonymous); at != std::string::npos; at = s.find(anonymous)) s.erase(at, anonymous.size());
    if (const auto paren = s.find('('); paren != std::string::npos) s.resize(paren);
    if (const auto angle = s.find('<'); angle != std::string::npos) s.resize(angle);
    if (const auto space = s.rfind(' '); space != std::string::npos) s = s.substr(space + 1);
    return s.empty() ? name : s;
}

struct UnifiedMemoryTally {
    std::int64_t faultRecords = 0;
    std::int64_t faultsAttributed = 0;
    std::int64_t outsideAllocations = 0;
    std::int64_t outsideKernels = 0;
    std::set<std::size_t> tensorsTouched;
    std::map<std::string, std::pair<std::int64_t, std::uint64_t>> byKindAndCause;  // records, value
};

// The kernels that write and read one tensor.
struct TensorUses {
    std::int64_t writer = -1;    // kernel position; -1: none
    std::set<std::int64_t> uses;  // other kernel positions (those before the writer are not inputs)
};

// What the notes report besides the pairing's and the tally's counts.
struct TensorCounts {
    std::int64_t persistent = 0;
    std::int64_t workspaces = 0;
    std::int64_t withoutUses = 0;
    std::int64_t withObserved = 0;
    std::int64_t betweenKernels = 0;  // allocated and freed between two kernels
};

// Sizes within the bound of number_limits.h, so that pairing, summing and the profile never hold
// more: a record past it is refused, naming the record.
void checkSizes(const Capture& capture) {
    for (const auto& m : capture.memory)
        if (m.bytes > kMaxBytes)
            throw ImportError(capture.sourcePath, fmt::format("{}: {}", m.where, outOfBytesRange(m.bytes)));
    for (const auto& c : capture.copies)
        if (c.bytes > kMaxBytes)
            throw ImportError(capture.sourcePath, fmt::format("a {} of {}", c.memset ? "memset" : "memcpy",
                                                              outOfBytesRange(c.bytes)));
}

// `t` - `origin` as a time in the profile: at most the 13-day bound, or the record is refused.
Nanoseconds sinceOrigin(Nanoseconds t, Nanoseconds origin, const std::string& file, const std::string& where) {
    Nanoseconds d = 0;
    if (__builtin_sub_overflow(t, origin, &d) || d > kMaxDurationNs)
        throw ImportError(file, fmt::format("{}: at {} ns it is more than the 13-day (2^50 ns) limit of a time in a "
                                            "profile after the capture's first event (at {} ns)",
                                            where, t, origin));
    return d;
}

// The steps of buildProfile, in the order build() takes them, over what they share.
class ProfileBuilder {
public:
    ProfileBuilder(const Capture& capture, const ImportOptions& options) : capture_(capture), options_(options) {}

    Profile build() {
        if (capture_.kernels.empty())
            throw ImportError(capture_.sourcePath, "no kernels in the capture: nothing ran on the GPU while it was "
                                                   "recorded (or the kernel records were not collected)");
        p_.metadata.notes = capture_.notes;
        checkSizes(capture_);
        takeKernelsOfMainDevice();
        pairing_ = pairMemory(capture_.memory, device_);
        checkCachingAllocator();
        phases_ = assignPhases(kernels_, capture_.ranges);
        keepKernelsInMarks();
        keepOneIteration();
        describeCapture();
        addKernels();
        inferLifetimeUses();
        observeFaultedUses();
        addTensors();
        noteKernels();
        noteTensors();
        noteMemoryRecords();
        noteCopies();
        noteUnifiedMemory();
        evidence_.writeNotes(p_.metadata.notes);
        return std::move(p_);
    }

private:
    void takeKernelsOfMainDevice();
    void checkCachingAllocator();
    void keepKernelsInMarks();
    void keepOneIteration();
    void describeCapture();
    void addKernels();
    void inferLifetimeUses();
    void observeFaultedUses();
    void addTensors();
    TensorUses addUses(const Tensor& t, std::size_t b);
    TensorKind kindOf(const Tensor& t, const Block& block, const TensorUses& u, std::size_t b);
    void noteKernels();
    void noteTensors();
    void noteMemoryRecords();
    void noteCopies();
    void noteUnifiedMemory();

    const Capture& capture_;
    const ImportOptions& options_;
    Profile p_;
    std::int64_t device_ = 0;
    std::vector<KernelRecord> kernels_;  // of device_, in start order
    std::int64_t otherDeviceKernels_ = 0;
    KernelPhases phases_;
    std::int64_t outsideMarks_ = 0;
    Nanoseconds origin_ = 0;
    std::int64_t raised_ = 0;  // kernels whose 0 ns became 1 ns
    Pairing pairing_;          // the whole capture's blocks
    CachingAllocatorEvidence allocator_;
    WindowedBlocks window_;    // the imported iteration's blocks: the tensors
    // Per block of window_: the kernel its lifetime says writes it and reads it (-1: none), the
    // kernels seen faulting on it.
    std::vector<std::int64_t> producer_, reader_;
    std::vector<std::set<std::int64_t>> observed_;
    UnifiedMemoryTally um_;
    TensorCounts counts_;
    KindEvidence evidence_;
};

// Kernels of one GPU in start order: the captured program order.
void ProfileBuilder::takeKernelsOfMainDevice() {
    device_ = mainDevice(capture_.kernels);
    for (const auto& k : capture_.kernels) {
        if (k.deviceId == device_) kernels_.push_back(k);
        else ++otherDeviceKernels_;
    }
    std::stable_sort(kernels_.begin(), kernels_.end(), [](const KernelRecord& a, const KernelRecord& b) {
        if (a.start != b.start) return a.start < b.start;
        return a.end < b.end;
    });
}

// On the whole capture: the caching allocator keeps its segments across iterations.
void ProfileBuilder::checkCachingAllocator() {
    std::vector<std::string> names;
    names.reserve(kernels_.size());
    for (const auto& k : kernels_) names.push_back(k.name);
    allocator_ = gpu_activity::checkCachingAllocator(pairing_.blocks, names, kernels_.back().start);
    if (allocator_.pytorch) p_.metadata.notes["memory_allocator"] = cachingAllocatorNote(allocator_);
    if (allocator_.detected)
        p_.metadata.notes[std::string(kWarningNotePrefix) + "caching_allocator"] = cachingAllocatorWarning(allocator_);
}

// With spillway.* ranges, the kernels outside them are not part of the iteration.
void ProfileBuilder::keepKernelsInMarks() {
    if (!phases_.fromMarks) return;
    std::vector<bool> keep;
    std::vector<KernelRecord> kept;
    for (std::size_t i = 0; i < kernels_.size(); ++i) {
        keep.push_back(phases_.phase[i].has_value());
        if (keep.back()) kept.push_back(kernels_[i]);
        else ++outsideMarks_;
    }
    if (kept.empty())
        throw ImportError(capture_.sourcePath,
                          fmt::format("no kernels inside the spillway.* NVTX ranges ({} kernels outside them)",
                                      outsideMarks_));
    kernels_ = std::move(kept);
    phases_.keep(keep);
}

// The iteration ImportOptions::iteration asks for; its kernels and the blocks as it sees them.
void ProfileBuilder::keepOneIteration() {
    std::vector<std::string> names;
    std::vector<Nanoseconds> starts, ends;
    for (const auto& k : kernels_) {
        names.push_back(k.name);
        starts.push_back(k.start);
        ends.push_back(k.end);
    }
    const auto found = findIterations(names, phases_.phase, starts, ends);
    const auto chosen = chooseIteration(found, names, options_.iteration, capture_.sourcePath);
    noteIterations(found, chosen, kernels_.size(), p_.metadata.notes);
    // Memory belongs to the iteration from the end of the previous one's last kernel to the end of
    // its own: the host allocates an iteration's first tensors before its first kernel starts.
    auto lastEnd = [&](std::size_t begin, std::size_t end) {
        return *std::max_element(ends.begin() + static_cast<std::ptrdiff_t>(begin),
                                 ends.begin() + static_cast<std::ptrdiff_t>(end));
    };
    const Nanoseconds from = chosen.begin == 0 ? std::numeric_limits<Nanoseconds>::min() : lastEnd(0, chosen.begin);
    const Nanoseconds to =
        chosen.end == kernels_.size() ? std::numeric_limits<Nanoseconds>::max() : lastEnd(chosen.begin, chosen.end);
    kernels_ = std::vector<KernelRecord>(kernels_.begin() + static_cast<std::ptrdiff_t>(chosen.begin),
                                         kernels_.begin() + static_cast<std::ptrdiff_t>(chosen.end));
    phases_.cut(chosen.begin, chosen.end);
    window_ = windowBlocks(pairing_.blocks, from, to);
    if (window_.freedBefore + window_.allocatedAfter + window_.carriedIn + window_.carriedOut > 0)
        p_.metadata.notes["iterations.memory"] = fmt::format(
            "of the capture's {} GPU allocations, {} were freed before the imported kernels and {} allocated after "
            "them (left out); {} were allocated before them (no alloc_time: there when the iteration began) and {} "
            "freed after them (no free_time)",
            pairing_.blocks.size(), window_.freedBefore, window_.allocatedAfter, window_.carriedIn, window_.carriedOut);
}

// Time zero and the profile's metadata.
void ProfileBuilder::describeCapture() {
    // Time zero: the earliest kernel or GPU memory event, so no time in the profile is negative.
    origin_ = kernels_.front().start;
    for (const auto& b : window_.blocks) origin_ = std::min(origin_, b.allocTime.value_or(b.freeTime.value_or(origin_)));
    // Every time the profile keeps is measured from the origin and must fit the bound; kernel
    // ends too, so no duration below overflows.
    for (const auto& k : kernels_) {
        sinceOrigin(k.start, origin_, capture_.sourcePath, k.where);
        sinceOrigin(k.end, origin_, capture_.sourcePath, k.where);
    }
    for (const auto& m : capture_.memory)
        if (m.deviceId == device_ && onGpu(m.kind) && m.time >= origin_)
            sinceOrigin(m.time, origin_, capture_.sourcePath, m.where);

    p_.metadata.source = capture_.source;
    p_.metadata.sourcePath = capture_.sourcePath;
    p_.metadata.model = capture_.model.empty() ? std::filesystem::path(capture_.sourcePath).filename().string()
                                               : capture_.model;
    const auto name = capture_.deviceNames.find(device_);
    p_.metadata.device = name != capture_.deviceNames.end() ? name->second : fmt::format("CUDA device {}", device_);
    p_.jobs.push_back({0, p_.metadata.model});
}

void ProfileBuilder::addKernels() {
    for (std::size_t i = 0; i < kernels_.size(); ++i) {
        const auto& r = kernels_[i];
        Kernel k;
        k.id = static_cast<KernelId>(i);
        k.name = r.name;
        k.op = baseName(r.name);
        k.duration = r.end - r.start;  // both within 2^50 ns of the origin (describeCapture)
        if (k.duration < 1) {
            k.duration = 1;
            ++raised_;
        }
        k.phase = phases_.phase[i].value_or(KernelPhase::Other);
        k.capturedStart = r.start - origin_;
        p_.kernels.push_back(std::move(k));
    }
}

// Tensors: the GPU allocations, live from allocation to free.
void ProfileBuilder::inferLifetimeUses() {
    const auto& blocks = window_.blocks;
    const KernelTimeline timeline(kernels_);
    const auto last = static_cast<std::int64_t>(kernels_.size()) - 1;
    producer_.assign(blocks.size(), -1);
    reader_.assign(blocks.size(), -1);
    observed_.resize(blocks.size());
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        const auto& block = blocks[b];
        if (block.allocTime) {
            const auto first = timeline.firstStartingFrom(*block.allocTime);
            if (first < kernels_.size()) producer_[b] = static_cast<std::int64_t>(first);
        }
        if (block.freeTime) reader_[b] = timeline.lastStartedBy(*block.freeTime);
        else if (block.allocTime && producer_[b] > 0) reader_[b] = last;  // live to the end
        if (block.allocTime && (producer_[b] < 0 || (block.freeTime && reader_[b] < producer_[b]))) {
            producer_[b] = reader_[b] = -1;
            ++counts_.betweenKernels;
        }
    }
}

// Observed uses from unified-memory faults (and a stored capture's observed uses).
void ProfileBuilder::observeFaultedUses() {
    const KernelTimeline timeline(kernels_);
    const BlockIndex index(window_.blocks);
    for (const auto& r : capture_.unifiedMemory) {
        auto& [records, value] = um_.byKindAndCause[fmt::format("{}{}{}", toString(r.event),
                                                                 r.cause.empty() ? "" : ", ", r.cause)];
        ++records;
        value += r.value;
        const bool access = r.event == UnifiedMemoryEvent::GpuPageFault;
        if (!access || (r.deviceId >= 0 && r.deviceId != device_)) continue;
        ++um_.faultRecords;
        const auto block = index.holding(r.address, r.start);
        if (!block) {
            ++um_.outsideAllocations;
            continue;
        }
        const auto pos = timeline.runningAt(r.start);
        if (pos < 0) {
            ++um_.outsideKernels;
            continue;
        }
        ++um_.faultsAttributed;
        um_.tensorsTouched.insert(*block);
        observed_[*block].insert(pos);
    }
    for (std::size_t pos = 0; pos < kernels_.size(); ++pos)
        for (const auto address : kernels_[pos].touchedAddresses)
            if (const auto block = index.holding(address, kernels_[pos].start))
                observed_[*block].insert(static_cast<std::int64_t>(pos));
}

// One tensor per block, with its uses added to the kernels.
void ProfileBuilder::addTensors() {
    for (std::size_t b = 0; b < window_.blocks.size(); ++b) {
        const auto& block = window_.blocks[b];
        Tensor t;
        t.id = static_cast<TensorId>(b);
        t.bytes = block.bytes;
        t.address = block.address;
        if (block.allocTime) t.allocTime = *block.allocTime - origin_;
        if (block.freeTime) t.freeTime = *block.freeTime - origin_;
        // Allocated before the first kernel (or before the capture) and never freed: a weight.
        t.persistent = !block.freeTime && (!block.allocTime || producer_[b] == 0 ||
                                           block.kind == MemoryKind::DeviceStatic ||
                                           block.kind == MemoryKind::ManagedStatic);
        const TensorUses uses = addUses(t, b);
        t.kind = kindOf(t, block, uses, b);
        t.name = fmt::format("{}@{:#x}#{}", toString(block.kind), block.address, t.id);
        p_.tensors.push_back(std::move(t));
    }
}

// The writer and readers of block b's tensor, from its lifetime and the observed faults; the
// tensor goes into their outputs and inputs.
TensorUses ProfileBuilder::addUses(const Tensor& t, std::size_t b) {
    const auto& block = window_.blocks[b];
    TensorUses u;
    u.uses = observed_[b];
    if (!observed_[b].empty()) ++counts_.withObserved;
    // A weight is there before the iteration: no kernel of it writes it first.
    u.writer = t.persistent ? -1 : producer_[b];
    if (!t.persistent && block.allocTime && !u.uses.empty() && (u.writer < 0 || *u.uses.begin() < u.writer)) {
        if (u.writer >= 0) u.uses.insert(u.writer);
        u.writer = *u.uses.begin();
    }
    if (u.writer >= 0) {
        p_.kernels[static_cast<std::size_t>(u.writer)].outputs.push_back(t.id);
        u.uses.erase(u.writer);
    }
    if (reader_[b] >= 0 && reader_[b] != u.writer) u.uses.insert(reader_[b]);
    for (const auto pos : u.uses) {
        if (u.writer >= 0 && pos < u.writer) continue;  // before it existed: not a use
        p_.kernels[static_cast<std::size_t>(pos)].inputs.push_back(t.id);
    }
    return u;
}

// The kind (capture_kinds.h), tallied by rule for the kind_rule.* notes.
TensorKind ProfileBuilder::kindOf(const Tensor& t, const Block& block, const TensorUses& u, std::size_t b) {
    KindFacts f;
    f.persistent = t.persistent;
    f.used = u.writer >= 0 || !u.uses.empty();
    f.oneKernel = u.writer >= 0 && (u.uses.empty() || (u.uses.size() == 1 && *u.uses.begin() == u.writer));
    auto phaseAt = [&](std::int64_t pos) -> std::optional<KernelPhase> {
        if (pos < 0) return std::nullopt;
        return p_.kernels[static_cast<std::size_t>(pos)].phase;
    };
    f.writerPhase = phaseAt(u.writer);
    f.readerPhase = phaseAt(u.uses.empty() ? reader_[b] : *u.uses.rbegin());
    f.allocatorSegment = allocator_.detected && block.kind == MemoryKind::Device;
    const KindDecision d = decideKind(block, f);
    evidence_.add(d.rule, d.text, d.kind, t.bytes, d.unclassified);
    if (t.persistent) ++counts_.persistent;
    if (d.kind == TensorKind::Workspace) ++counts_.workspaces;
    if (!f.used && !t.persistent) ++counts_.withoutUses;  // a weight is live without uses
    return d.kind;
}

// What was read and how it was mapped, for whoever opens the profile: the kernels.
void ProfileBuilder::noteKernels() {
    auto& notes = p_.metadata.notes;
    notes["time_unit"] = "nanoseconds on the capture's clock, from the earliest kernel or GPU memory event";
    notes["kernels"] = fmt::format("{} kernels of CUDA device {} in GPU start order{}", kernels_.size(), device_,
                                   otherDeviceKernels_ ? fmt::format("; {} kernels of other devices left out "
                                                                     "(one device per profile)",
                                                                     otherDeviceKernels_)
                                                       : std::string());
    if (raised_)
        notes["zero_durations"] = fmt::format("{} kernels lasted 0 ns; their duration is set to 1 ns", raised_);
    notes["phases"] = describePhases(phases_, outsideMarks_);
}

// The tensors and where their uses come from.
void ProfileBuilder::noteTensors() {
    auto& notes = p_.metadata.notes;
    notes["tensors"] = fmt::format(
        "{} GPU allocations (device, managed, static) of CUDA device {}: {} persistent (allocated before "
        "the first kernel, never freed), {} workspaces (one kernel), {} without uses (no kernel started "
        "while live; {} of them allocated and freed between two kernels)",
        window_.blocks.size(), device_, counts_.persistent, counts_.workspaces, counts_.withoutUses,
        counts_.betweenKernels);
    const bool stored = std::any_of(kernels_.begin(), kernels_.end(),
                                    [](const KernelRecord& k) { return !k.touchedAddresses.empty(); });
    notes["tensor_uses"] =
        capture_.unifiedMemory.empty() && !stored
            ? "inferred from time only (the capture has no unified-memory records): the first kernel to "
              "start at or after the allocation writes a tensor, the last to start at or before its free "
              "reads it; kernels have no other inputs, since CUDA does not record which buffers a kernel "
              "reads"
        : stored
            ? fmt::format("lifetime (first kernel after the allocation writes, last kernel before the free reads) plus "
                          "observed: the stored capture's uses ({} tensors have observed uses)",
                          counts_.withObserved)
            : fmt::format("lifetime (first kernel after the allocation writes, last kernel before the free "
                          "reads) plus observed: {} of {} GPU page-fault records fell in a live allocation "
                          "during a kernel and make that kernel a user ({} tensors have observed uses; {} "
                          "faults outside any allocation, {} outside any kernel)",
                          um_.faultsAttributed, um_.faultRecords, counts_.withObserved, um_.outsideAllocations,
                          um_.outsideKernels);
}

// The memory records that did not become tensors, or not as recorded.
void ProfileBuilder::noteMemoryRecords() {
    auto& notes = p_.metadata.notes;
    const Pairing& pairing = pairing_;
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
}

// Copies and memsets, counted: their records carry no addresses.
void ProfileBuilder::noteCopies() {
    std::map<std::string, std::pair<std::int64_t, Bytes>> copies;
    for (const auto& c : capture_.copies) {
        auto& [count, bytes] = copies[c.memset ? std::string("memset") : "memcpy " + std::string(toString(c.direction))];
        ++count;
        bytes = checkedAdd(bytes, c.bytes, "the bytes of the capture's copies");
    }
    if (copies.empty()) return;
    std::string text;
    for (const auto& [what, cb] : copies)
        text += fmt::format("{}{}: {} ({})", text.empty() ? "" : "; ", what, cb.first, readableBytes(cb.second));
    p_.metadata.notes["copies"] = text + " — not tensors or kernels: the records carry no addresses";
}

// The unified-memory records by kind and cause.
void ProfileBuilder::noteUnifiedMemory() {
    for (const auto& [what, rv] : um_.byKindAndCause) {
        const bool bytes = what.starts_with("migration") || what.starts_with("thrashing") ||
                           what.starts_with("remote map");
        p_.metadata.notes["unified_memory." + what] =
            bytes ? fmt::format("{} records, {}", rv.first, readableBytes(static_cast<Bytes>(rv.second)))
                  : fmt::format("{} records, {} faults", rv.first, rv.second);
    }
}

}  // namespace

Profile buildProfile(const Capture& capture, const ImportOptions& options) {
    return ProfileBuilder(capture, options).build();
}

}  // namespace spillway::gpu_activity
