#include "core/io/torch_trace/torch_trace_import.h"

#include "core/io/base/file_text.h"
#include "core/io/base/import_error.h"
#include "core/io/torch_trace/torch_trace_events.h"
#include "core/io/torch_trace/torch_trace_iterations.h"
#include "core/io/torch_trace/torch_trace_kernels.h"
#include "core/io/torch_trace/torch_trace_memory.h"
#include "core/io/torch_trace/torch_trace_params.h"
#include "core/io/torch_trace/torch_trace_phases.h"
#include "core/io/torch_trace/torch_trace_tensors.h"
#include "core/io/torch_trace/torch_trace_unseen.h"
#include "core/trace/number_limits.h"

#include <fmt/format.h>

namespace spillway {

using namespace torch_trace;

namespace {

ProfileMetadata metadataOf(const TraceEvents& events, const std::string& fileLabel,
                           const MemoryBlocks& blocks) {
    ProfileMetadata md;
    const auto& capture = events.capture;
    md.model = capture.model;
    if (md.model.empty()) {
        md.model = std::filesystem::path(fileLabel).filename().string();
        md.notes["model"] = "not recorded in the trace (no \"spillway\" object): the file name";
    }
    md.batch = capture.batch;
    md.device = !capture.device.empty() ? capture.device
                : !capture.gpuName.empty() ? capture.gpuName
                                           : deviceTypeName(blocks.deviceType);
    md.source = std::string(kTorchTraceSource);
    md.sourcePath = fileLabel;
    for (const auto& [key, value] : capture.extra) md.notes["capture." + key] = value;
    return md;
}

void addNotes(ProfileMetadata& md, const TraceEvents& events, const PhaseMap& phases,
              const KernelSelection& selection, const MemoryBlocks& blocks,
              const TensorInference& inferred) {
    auto& n = md.notes;
    n["time_unit"] = "trace microseconds (ts, dur) rounded to integer nanoseconds; times are from "
                     "the earliest event read";
    n["kernels"] = selection.rule;
    if (selection.outsideIteration)
        n["kernels_outside_iteration"] =
            fmt::format("{} candidate spans outside the iteration (spillway.setup or unmarked) "
                        "are not kernels",
                        selection.outsideIteration);
    if (selection.zeroDurationRaised)
        n["zero_durations"] = fmt::format("{} kernels lasted under 0.5 ns in the trace; their "
                                          "duration is set to 1 ns",
                                          selection.zeroDurationRaised);
    n["phases"] = phases.describe();
    n["memory_device"] =
        blocks.deviceType < 0
            ? std::string("the trace has no [memory] events (captured without "
                          "profile_memory=True): no tensors")
            : fmt::format("{} [memory] events of device {} read; {} events of other devices left "
                          "out (one device per profile: CUDA when present, else CPU)",
                          blocks.eventsRead, deviceTypeName(blocks.deviceType),
                          blocks.otherDeviceEvents);
    if (blocks.zeroByteEvents)
        n["memory_zero_bytes"] = fmt::format("{} zero-byte [memory] events carry no block",
                                             blocks.zeroByteEvents);
    if (blocks.freesBeforeTrace)
        n["memory_before_trace"] = fmt::format(
            "{} blocks were freed without an allocation in the trace: allocated before it "
            "started, they are tensors without alloc_time",
            blocks.freesBeforeTrace);
    n["tensor_uses"] = "inferred: the kernel running at a block's allocation (or the next kernel "
                       "to start) writes it; the kernel running at its free (or the last one "
                       "started before) reads it last; blocks never freed are persistent";
    n["tensor_counts"] = fmt::format(
        "{} persistent (not freed in the iteration), {} workspaces (one kernel or one op), {} without uses (no "
        "kernel ran while they were live; {} of them allocated and freed between two kernels); {} blocks of "
        "other iterations left out",
        inferred.persistent, inferred.workspaces, inferred.withoutUses, inferred.betweenKernels,
        inferred.otherIterations);
    if (!inferred.gradients.bytes.empty()) n["gradient_bytes"] = inferred.gradients.describe();
    for (const auto& [category, count] : events.skippedCategories)
        n["skipped." + category] = fmt::format("{} complete events of category {} not read", count,
                                               category);
}

// Times are from the trace's earliest event: each must be within the bound of a time in a profile
// (13 days), which also keeps every span's end (start + duration) within 64 bits.
void checkTimesFromOrigin(const TraceEvents& events) {
    const auto check = [&](Nanoseconds t, std::size_t eventIndex) {
        if (t <= kMaxDurationNs) return;
        SourceLocation where;
        where.file = events.file;
        where.jsonPointer = fmt::format("/traceEvents/{}/ts", eventIndex);
        throw ImportError(where, fmt::format("this event is {} ns after the trace's first event; a trace may span "
                                             "at most the 13-day (2^50 ns) limit of a time in a profile",
                                             t));
    };
    for (const auto& s : events.spans) check(s.start, s.eventIndex);
    for (const auto& m : events.memory) check(m.time, m.eventIndex);
}

// What the forward ops, AccumulateGrad and the optimizer say the model holds, for the notes.
std::string describeModel(const ModelEvidence& m) {
    return fmt::format("{} parameters with a gradient ({} bytes; AccumulateGrad inputs), {} parameters no gradient "
                       "reaches, {} buffers (forward ops' arguments); optimizer {}: {}",
                       m.parameters.size(), m.parameterBytes(), m.frozenParameters.size(), m.buffers.size(),
                       m.optimizer.empty() ? "none" : m.optimizer, m.stateRule);
}

}  // namespace

Profile parseTorchTrace(std::string_view text, const std::string& fileLabel, const ImportOptions& options) {
    const TraceEvents events = parseTraceEvents(text, fileLabel);
    checkTimesFromOrigin(events);
    const IterationChoice iterations = chooseIteration(events, options.iteration);
    const PhaseMap phases = PhaseMap::build(events, iterations.found);
    const Iteration window = iterations.window();
    const KernelSelection selection = selectKernels(events, phases, window);
    if (selection.kernels.empty())
        throw ImportError(fileLabel,
                          fmt::format("no kernels: the trace has no GPU kernels and no CPU ops "
                                      "inside the iteration ({} spans read){}",
                                      events.spans.size(),
                                      phases.fromMarks() ? "; are the spillway.* marks empty?" : ""));
    const MemoryBlocks blocks = pairMemoryEvents(events);

    Profile p;
    p.metadata = metadataOf(events, fileLabel, blocks);
    p.jobs.push_back({0, p.metadata.model});
    p.kernels.reserve(selection.kernels.size());
    for (size_t i = 0; i < selection.kernels.size(); ++i) {
        const auto& s = selection.kernels[i];
        Kernel k;
        k.id = static_cast<KernelId>(i);
        k.name = s.name;
        k.op = s.op;
        k.duration = s.duration;
        k.phase = s.phase;
        k.capturedStart = s.start;
        p.kernels.push_back(std::move(k));
    }
    const Bytes granule = allocatorGranule(blocks.deviceType);
    const ModelEvidence model = gatherModelEvidence(events, phases, iterations.evidenceWindow(), granule);
    TensorInference inferred =
        inferTensors(events, blocks, selection, phases, window, model.parameters, granule, p.kernels);
    addUnseenPersistent(blocks, model, inferred, p.metadata.notes);
    p.tensors = std::move(inferred.tensors);
    addNotes(p.metadata, events, phases, selection, blocks, inferred);
    p.metadata.notes["model_evidence"] = describeModel(model);
    inferred.kinds.writeNotes(p.metadata.notes);
    writeIterationNotes(iterations, p.metadata.notes);
    return p;
}

Profile importTorchTrace(const std::filesystem::path& path, const ImportOptions& options) {
    const auto text = readFileText(path);
    return parseTorchTrace(text, path.string(), options);
}

}  // namespace spillway
