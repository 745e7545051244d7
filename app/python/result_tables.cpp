#include "app/python/result_tables.h"

#include <algorithm>
#include <array>
#include <numeric>

namespace spillway::python {

namespace {

constexpr std::array<LinkId, kLinkCount> kLinks{LinkId::HostToGpu, LinkId::GpuToHost, LinkId::SsdToGpu, LinkId::GpuToSsd,
                             LinkId::SsdToHost, LinkId::HostToSsd, LinkId::NvLink};

// "fault_stall" -> fault_stall_ns and fault_stall_s.
void addTime(Record& r, const std::string& name, Nanoseconds ns) {
    r.emplace_back(name + "_ns", ns);
    r.emplace_back(name + "_s", seconds(ns));
}

std::int64_t positionInProfile(const Plan& plan, std::size_t runIndex) {
    return runIndex < plan.order.size() ? plan.order[runIndex] : static_cast<std::int64_t>(runIndex);
}

}  // namespace

Record resultSummary(const SimulationResult& r) {
    Record s{{"policy", r.policy}, {"hardware", r.hardware}};
    s.emplace_back("cannot_run", r.cannotRun.empty() ? Value() : Value(r.cannotRun));
    addTime(s, "iteration_time", r.iterationTime);
    addTime(s, "ideal_time", r.idealTime);
    s.emplace_back("slowdown", r.idealTime > 0 ? double(r.iterationTime) / double(r.idealTime) : 0.0);
    addTime(s, "compute", r.totals.compute);
    addTime(s, "fault_stall", r.totals.faultStall);
    addTime(s, "oversub_stall", r.totals.oversubStall);
    addTime(s, "late_prefetch_stall", r.totals.latePrefetchStall);
    addTime(s, "nvlink_stall", r.totals.nvlinkStall);
    addTime(s, "overlap", r.totals.overlap);
    for (auto link : kLinks)
        s.emplace_back("traffic_" + std::string(toString(link)) + "_bytes", r.traffic[static_cast<int>(link)]);
    s.emplace_back("discard_saved_bytes", r.discardSavedBytes);
    s.emplace_back("fault_batches", r.faultBatches);
    s.emplace_back("peak_gpu_bytes", r.peakGpuBytes);
    s.emplace_back("recompute_time_ns", r.recomputeTime);
    s.emplace_back("zero_filled_bytes", r.zeroFilledBytes);
    s.emplace_back("gpu_count", static_cast<std::int64_t>(std::max<std::size_t>(1, r.gpus.size())));
    s.emplace_back("iterations", static_cast<std::int64_t>(r.iterationTimes.size()));
    return s;
}

Table resultKernelTable(const Profile& profile, const Plan& plan, const SimulationResult& r) {
    const auto& k = r.kernels;
    std::vector<std::size_t> runIndex(k.size());
    std::iota(runIndex.begin(), runIndex.end(), std::size_t{0});
    auto kernelAt = [&](std::size_t i) -> const Kernel* {
        const auto pos = positionInProfile(plan, i);
        return pos >= 0 && pos < std::int64_t(profile.kernels.size()) ? &profile.kernels[std::size_t(pos)] : nullptr;
    };
    using I = std::int64_t;
    return {column<I>("run_index", runIndex, [](std::size_t i) { return i; }),
            column<I>("position", runIndex, [&](std::size_t i) { return positionInProfile(plan, i); }),
            column<I>("id", runIndex, [&](std::size_t i) { return kernelAt(i) ? kernelAt(i)->id : -1; }),
            column<std::string>("name", runIndex,
                                [&](std::size_t i) { return kernelAt(i) ? kernelAt(i)->name : std::string(); }),
            column<I>("start_ns", k, [](const KernelTiming& t) { return t.start; }),
            column<I>("end_ns", k, [](const KernelTiming& t) { return t.end; }),
            column<I>("compute_ns", k, [](const KernelTiming& t) { return t.compute; }),
            column<I>("fault_stall_ns", k, [](const KernelTiming& t) { return t.faultStall; }),
            column<I>("oversub_stall_ns", k, [](const KernelTiming& t) { return t.oversubStall; }),
            column<I>("late_prefetch_stall_ns", k, [](const KernelTiming& t) { return t.latePrefetchStall; }),
            column<I>("nvlink_stall_ns", k, [](const KernelTiming& t) { return t.nvlinkStall; }),
            column<I>("overlap_ns", k, [](const KernelTiming& t) { return t.overlap; }),
            column<I>("faulted_bytes", k, [](const KernelTiming& t) { return t.faultedBytes; })};
}

Table residencyTable(const SimulationResult& r) {
    const auto& s = r.residency;
    using I = std::int64_t;
    return {column<I>("time_ns", s, [](const ResidencySample& x) { return x.time; }),
            column<I>("gpu_bytes", s, [](const ResidencySample& x) { return x.gpu; }),
            column<I>("host_bytes", s, [](const ResidencySample& x) { return x.host; }),
            column<I>("ssd_bytes", s, [](const ResidencySample& x) { return x.ssd; }),
            column<I>("in_flight_bytes", s, [](const ResidencySample& x) { return x.inFlight; })};
}

Table trafficTable(const SimulationResult& r) {
    using I = std::int64_t;
    return {column<std::string>("link", kLinks, [](LinkId l) { return std::string(toString(l)); }),
            column<I>("bytes", kLinks, [&](LinkId l) { return r.traffic[static_cast<int>(l)]; })};
}

Table gpuTable(const SimulationResult& r) {
    const auto& g = r.gpus;
    std::vector<std::size_t> index(g.size());
    std::iota(index.begin(), index.end(), std::size_t{0});
    using I = std::int64_t;
    return {column<I>("gpu", index, [](std::size_t i) { return i; }),
            column<I>("iteration_time_ns", g, [](const GpuSummary& x) { return x.iterationTime; }),
            column<I>("pcie_bytes", g, [](const GpuSummary& x) { return x.pcieBytes; }),
            column<I>("ssd_bytes", g, [](const GpuSummary& x) { return x.ssdBytes; }),
            column<I>("nvlink_out_bytes", g, [](const GpuSummary& x) { return x.nvlinkOutBytes; }),
            column<I>("nvlink_in_bytes", g, [](const GpuSummary& x) { return x.nvlinkInBytes; }),
            column<I>("peak_gpu_bytes", g, [](const GpuSummary& x) { return x.peakGpuBytes; })};
}

Table directiveTable(const Profile& profile, const Plan& plan) {
    const auto& d = plan.directives;
    using I = std::int64_t;
    const ProfileIndex index(profile);
    auto tensorName = [&](const Directive& x) {
        const auto pos = index.tensorPos(x.tensor);
        return pos >= 0 ? profile.tensors[std::size_t(pos)].name : std::string();
    };
    return {column<I>("kernel_position", d, [](const Directive& x) { return x.kernelPos; }),
            column<std::string>("kind", d, [](const Directive& x) { return std::string(toString(x.kind)); }),
            column<I>("tensor", d, [](const Directive& x) { return x.tensor; }),
            column<std::string>("tensor_name", d, tensorName),
            column<std::string>("target", d, [](const Directive& x) { return std::string(toString(x.target)); }),
            column<I>("keep_until", d, [](const Directive& x) { return x.keepUntil; }),
            column<bool>("after_kernel", d, [](const Directive& x) { return x.afterKernel; }),
            column<I>("delay_ns", d, [](const Directive& x) { return x.delay; }),
            column<std::string>("advice", d, [](const Directive& x) { return std::string(toString(x.advice)); })};
}

Record planSummary(const Plan& plan) {
    return {{"policy", plan.policy},
            {"directives", static_cast<std::int64_t>(plan.directives.size())},
            {"memory_model", std::string(toString(plan.memoryModel))},
            {"allow_faults", plan.allowFaults},
            {"drop_dead_on_eviction", plan.dropDeadOnEviction},
            {"cannot_run", plan.cannotRun.empty() ? Value() : Value(plan.cannotRun)},
            {"placement", plan.placement},
            {"arena_bytes", plan.arenaBytes}};
}

}  // namespace spillway::python
