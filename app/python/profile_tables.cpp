#include "app/python/profile_tables.h"

#include "core/analysis/profile_summary.h"

namespace spillway::python {

namespace {

// Positions 0..n-1, the key every other table (results, plans) refers to kernels and tensors by.
template <typename Items>
std::pair<std::string, Column> positions(const Items& items) {
    std::vector<std::int64_t> values(items.size());
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<std::int64_t>(i);
    return {"position", Column(std::move(values))};
}

std::string kernelName(const Profile& profile, std::int64_t position) {
    return position >= 0 ? profile.kernels[static_cast<std::size_t>(position)].name : std::string();
}

}  // namespace

Table kernelTable(const Profile& p) {
    const auto& k = p.kernels;
    using I = std::int64_t;
    using Ids = std::vector<I>;
    return {positions(k),
            column<I>("id", k, [](const Kernel& x) { return x.id; }),
            column<std::string>("name", k, [](const Kernel& x) { return x.name; }),
            column<std::string>("op", k, [](const Kernel& x) { return x.op; }),
            column<std::string>("phase", k, [](const Kernel& x) { return std::string(toString(x.phase)); }),
            column<I>("job", k, [](const Kernel& x) { return x.job; }),
            column<I>("duration_ns", k, [](const Kernel& x) { return x.duration; }),
            column<I>("workspace_bytes", k, [](const Kernel& x) { return x.workspaceBytes; }),
            column<Ids>("inputs", k, [](const Kernel& x) { return Ids(x.inputs.begin(), x.inputs.end()); }),
            column<Ids>("outputs", k, [](const Kernel& x) { return Ids(x.outputs.begin(), x.outputs.end()); })};
}

Table tensorTable(const Profile& p) {
    const auto& t = p.tensors;
    using I = std::int64_t;
    return {positions(t),
            column<I>("id", t, [](const Tensor& x) { return x.id; }),
            column<std::string>("name", t, [](const Tensor& x) { return x.name; }),
            column<I>("size_bytes", t, [](const Tensor& x) { return x.bytes; }),
            column<std::string>("kind", t, [](const Tensor& x) { return std::string(toString(x.kind)); }),
            column<I>("job", t, [](const Tensor& x) { return x.job; }),
            column<bool>("persistent", t, [](const Tensor& x) { return x.persistent; })};
}

namespace {

Record summaryRecord(const Profile& p, const ProfileSummary& s) {
    return {{"model", p.metadata.model},
            {"batch", p.metadata.batch},
            {"device", p.metadata.device},
            {"source", p.metadata.source},
            {"source_path", p.metadata.sourcePath},
            {"kernels", s.kernelCount},
            {"tensors", s.tensorCount},
            {"jobs", s.jobCount},
            {"footprint_bytes", s.footprintBytes},
            {"footprint_meaning", footprintMeaning(p.metadata.notes, s.tensorCount)},
            {"persistent_bytes", s.persistentBytes},
            {"max_workspace_bytes", s.maxWorkspaceBytes},
            {"total_time_ns", s.totalTime},
            {"total_time_s", seconds(s.totalTime)},
            {"peak_bytes", s.peakBytes},
            {"peak_kernel_position", s.peakKernelPos},
            {"peak_kernel_name", kernelName(p, s.peakKernelPos)},
            {"largest_working_set_bytes", s.largestWorkingSetBytes},
            {"largest_working_set_kernel_position", s.largestWorkingSetKernelPos}};
}

Table phaseTable(const ProfileSummary& s) {
    std::vector<std::string> names;
    std::vector<std::int64_t> kernels, times;
    for (const auto& [phase, totals] : s.phases) {
        names.emplace_back(toString(phase));
        kernels.push_back(totals.kernels);
        times.push_back(totals.time);
    }
    return {{"phase", names}, {"kernels", kernels}, {"time_ns", times}};
}

Table kindTable(const ProfileSummary& s) {
    std::vector<std::string> names;
    std::vector<std::int64_t> tensors, bytes;
    for (const auto& [kind, totals] : s.kinds) {
        names.emplace_back(toString(kind));
        tensors.push_back(totals.tensors);
        bytes.push_back(totals.bytes);
    }
    return {{"kind", names}, {"tensors", tensors}, {"size_bytes", bytes}};
}

}  // namespace

ProfileOverview profileOverview(const Profile& p) {
    const ProfileSummary s = summarizeProfile(p, 0);
    return {summaryRecord(p, s), phaseTable(s), kindTable(s)};
}

Record profileNotes(const Profile& p) {
    Record notes;
    for (const auto& [key, value] : p.metadata.notes) notes.emplace_back(key, value);
    return notes;
}

}  // namespace spillway::python
