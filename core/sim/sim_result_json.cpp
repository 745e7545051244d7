#include "core/sim/sim_result_json.h"

#include "core/io/base/import_error.h"
#include "core/io/base/json_object_reader.h"

#include <array>

namespace spillway {

using nlohmann::json;

namespace {

// A new field in these structs must be written and read here; the sizes catch a forgotten one
// at compile time (libstdc++ on x86-64, the only platform we build for).
static_assert(sizeof(KernelTiming) == 9 * 8, "KernelTiming changed: update sim_result_json.cpp");
static_assert(sizeof(ResidencySample) == 5 * 8, "ResidencySample changed: update sim_result_json.cpp");
static_assert(sizeof(ResidencyInterval) == 3 * 8, "ResidencyInterval changed: update sim_result_json.cpp");
static_assert(sizeof(StallTotals) == 6 * 8, "StallTotals changed: update sim_result_json.cpp");
static_assert(sizeof(TransferRecord) == 4 * 8, "TransferRecord changed: update sim_result_json.cpp");
static_assert(sizeof(GpuSummary) == 6 * 8, "GpuSummary changed: update sim_result_json.cpp");
// SimulationResult::demandFetches (the last 24) is left out on purpose: only the plan verifier
// asks for it, and kept runs are simulated without it.
static_assert(sizeof(SimulationResult) ==
                  3 * 32 + 8 + 24 + 8 + 6 * 8 + 24 + kLinkCount * 8 + 2 * 8 + 3 * 24 + 8 * 8 + 24 + 8 + 24,
              "SimulationResult changed: update sim_result_json.cpp");

constexpr std::array<Residence, 6> kResidences = {Residence::Gpu,      Residence::Host,   Residence::Ssd,
                                                  Residence::InFlight, Residence::Absent, Residence::Discarded};
constexpr std::array<std::string_view, 6> kResidenceNames = {"gpu",    "host",   "ssd",
                                                             "in_flight", "absent", "discarded"};
// Results written before "discarded" existed carry the first five names; their codes mean the same.
constexpr std::size_t kResidenceNamesBeforeDiscarded = 5;

constexpr std::array<LinkId, kLinkCount> kLinks = {LinkId::HostToGpu, LinkId::GpuToHost, LinkId::SsdToGpu,
                                                   LinkId::GpuToSsd,  LinkId::SsdToHost, LinkId::HostToSsd,
                                                   LinkId::NvLink};

template <typename T, typename F>
json column(const std::vector<T>& rows, F field) {
    json a = json::array();
    a.get_ref<json::array_t&>().reserve(rows.size());
    for (const auto& r : rows) a.push_back(field(r));
    return a;
}

// An array of integers; `size` >= 0 demands that length (columns of one table).
std::vector<std::int64_t> readColumn(const JsonObjectReader& r, const std::string& key, std::int64_t size) {
    const auto& v = r.array(key, "an array of integers");
    const std::string pointer = r.at(key);
    if (size >= 0 && static_cast<std::int64_t>(v.size()) != size)
        r.fail(pointer, "expected " + std::to_string(size) + " values (as many as the other columns), got " +
                            std::to_string(v.size()));
    std::vector<std::int64_t> out;
    out.reserve(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) out.push_back(r.integerAt(v[i], pointer + "/" + std::to_string(i)));
    return out;
}

json stallTotalsJson(const StallTotals& t) {
    return {{"compute_ns", t.compute},
            {"fault_stall_ns", t.faultStall},
            {"oversub_stall_ns", t.oversubStall},
            {"late_prefetch_stall_ns", t.latePrefetchStall},
            {"nvlink_stall_ns", t.nvlinkStall},
            {"overlap_ns", t.overlap}};
}

json kernelsJson(const std::vector<KernelTiming>& k) {
    return {{"start_ns", column(k, [](const KernelTiming& t) { return t.start; })},
            {"end_ns", column(k, [](const KernelTiming& t) { return t.end; })},
            {"compute_ns", column(k, [](const KernelTiming& t) { return t.compute; })},
            {"fault_stall_ns", column(k, [](const KernelTiming& t) { return t.faultStall; })},
            {"oversub_stall_ns", column(k, [](const KernelTiming& t) { return t.oversubStall; })},
            {"late_prefetch_stall_ns", column(k, [](const KernelTiming& t) { return t.latePrefetchStall; })},
            {"nvlink_stall_ns", column(k, [](const KernelTiming& t) { return t.nvlinkStall; })},
            {"overlap_ns", column(k, [](const KernelTiming& t) { return t.overlap; })},
            {"faulted_bytes", column(k, [](const KernelTiming& t) { return t.faultedBytes; })}};
}

json residencyJson(const std::vector<ResidencySample>& s) {
    return {{"time_ns", column(s, [](const ResidencySample& r) { return r.time; })},
            {"gpu_bytes", column(s, [](const ResidencySample& r) { return r.gpu; })},
            {"host_bytes", column(s, [](const ResidencySample& r) { return r.host; })},
            {"ssd_bytes", column(s, [](const ResidencySample& r) { return r.ssd; })},
            {"in_flight_bytes", column(s, [](const ResidencySample& r) { return r.inFlight; })}};
}

json transfersJson(const std::vector<TransferRecord>& t) {
    return {{"link", column(t, [](const TransferRecord& x) { return static_cast<int>(x.link); })},
            {"start_ns", column(t, [](const TransferRecord& x) { return x.start; })},
            {"end_ns", column(t, [](const TransferRecord& x) { return x.end; })},
            {"bytes", column(t, [](const TransferRecord& x) { return x.bytes; })}};
}

json gpusJson(const std::vector<GpuSummary>& g) {
    return {{"iteration_time_ns", column(g, [](const GpuSummary& x) { return x.iterationTime; })},
            {"pcie_bytes", column(g, [](const GpuSummary& x) { return x.pcieBytes; })},
            {"ssd_bytes", column(g, [](const GpuSummary& x) { return x.ssdBytes; })},
            {"nvlink_out_bytes", column(g, [](const GpuSummary& x) { return x.nvlinkOutBytes; })},
            {"nvlink_in_bytes", column(g, [](const GpuSummary& x) { return x.nvlinkInBytes; })},
            {"peak_gpu_bytes", column(g, [](const GpuSummary& x) { return x.peakGpuBytes; })}};
}

// All tensors' intervals in one set of columns; interval_counts[i] of them belong to tensor i.
json tensorResidencyJson(const std::vector<std::vector<ResidencyInterval>>& tensors) {
    json counts = json::array(), starts = json::array(), ends = json::array(), where = json::array();
    for (const auto& intervals : tensors) {
        counts.push_back(intervals.size());
        for (const auto& r : intervals) {
            starts.push_back(r.start);
            ends.push_back(r.end);
            where.push_back(static_cast<int>(r.where));
        }
    }
    json names = json::array();
    for (const auto name : kResidenceNames) names.push_back(name);
    return {{"residences", names}, {"interval_counts", counts}, {"start_ns", starts}, {"end_ns", ends},
            {"where", where}};
}

std::vector<std::vector<ResidencyInterval>> readTensorResidency(const JsonObjectReader& r) {
    // The legend travels with the data so a reader can tell what each code means; this build
    // reads its own legend and the older one without "discarded".
    const auto& names = r.get("residences");
    json expected = json::array(), older = json::array();
    for (const auto name : kResidenceNames) expected.push_back(name);
    for (std::size_t i = 0; i < kResidenceNamesBeforeDiscarded; ++i) older.push_back(kResidenceNames[i]);
    if (names != expected && names != older) r.fail(r.pointer() + "/residences", "expected " + expected.dump());
    const std::int64_t codes = names == expected ? std::int64_t(kResidences.size()) : std::int64_t(older.size());
    const auto counts = readColumn(r, "interval_counts", -1);
    const auto starts = readColumn(r, "start_ns", -1);
    const auto total = static_cast<std::int64_t>(starts.size());
    const auto ends = readColumn(r, "end_ns", total);
    const auto where = readColumn(r, "where", total);
    std::vector<std::vector<ResidencyInterval>> out(counts.size());
    std::int64_t next = 0;
    for (std::size_t t = 0; t < counts.size(); ++t) {
        if (counts[t] < 0 || counts[t] > total - next)
            r.fail(r.pointer() + "/interval_counts/" + std::to_string(t),
                   "expected a count that fits the " + std::to_string(total) + " intervals");
        out[t].reserve(static_cast<std::size_t>(counts[t]));
        for (std::int64_t i = 0; i < counts[t]; ++i, ++next) {
            const auto code = where[static_cast<std::size_t>(next)];
            if (code < 0 || code >= codes)
                r.fail(r.pointer() + "/where/" + std::to_string(next),
                       "expected a residence code 0.." + std::to_string(codes - 1));
            out[t].push_back({starts[static_cast<std::size_t>(next)], ends[static_cast<std::size_t>(next)],
                              kResidences[static_cast<std::size_t>(code)]});
        }
    }
    if (next != total)
        r.fail(r.pointer() + "/interval_counts",
               "the counts add up to " + std::to_string(next) + ", expected " + std::to_string(total));
    return out;
}

}  // namespace

json simulationResultToJson(const SimulationResult& r) {
    json traffic = json::object();
    for (const auto link : kLinks) traffic[std::string(toString(link))] = r.traffic[static_cast<int>(link)];
    return {{"format", kResultFormatId},
            {"policy", r.policy},
            {"hardware", r.hardware},
            {"cannot_run", r.cannotRun},
            {"iteration_time_ns", r.iterationTime},
            {"iteration_times_ns", r.iterationTimes},
            {"ideal_time_ns", r.idealTime},
            {"totals", stallTotalsJson(r.totals)},
            {"traffic_bytes", traffic},
            {"discard_saved_bytes", r.discardSavedBytes},
            {"fault_batches", r.faultBatches},
            {"peak_gpu_bytes", r.peakGpuBytes},
            {"gpu_bytes_at_start", r.gpuBytesAtStart},
            {"gpu_bytes_at_end", r.gpuBytesAtEnd},
            {"gpu_bytes_in", r.gpuBytesIn},
            {"gpu_bytes_out", r.gpuBytesOut},
            {"zero_filled_bytes", r.zeroFilledBytes},
            {"recompute_time_ns", r.recomputeTime},
            {"kernels_with_absent_blocks", r.kernelsWithAbsentBlocks},
            {"kernels", kernelsJson(r.kernels)},
            {"residency", residencyJson(r.residency)},
            {"transfers", transfersJson(r.transfers)},
            {"tensor_residency", tensorResidencyJson(r.tensorResidency)},
            {"gpus", gpusJson(r.gpus)},
            {"all_reduced_bytes", r.allReducedBytes}};
}

SimulationResult simulationResultFromJson(const json& doc, const std::string& label) {
    const JsonObjectReader r(doc, label);
    if (r.string("format") != kResultFormatId)
        r.fail("/format", "expected \"" + std::string(kResultFormatId) + "\"");
    SimulationResult out;
    out.policy = r.string("policy");
    out.hardware = r.string("hardware");
    out.cannotRun = r.string("cannot_run");
    out.iterationTime = r.integer("iteration_time_ns");
    // Files written before per-iteration times were kept hold only the reported one.
    out.iterationTimes = r.has("iteration_times_ns") ? readColumn(r, "iteration_times_ns", -1)
                                                            : std::vector<std::int64_t>{out.iterationTime};
    out.idealTime = r.integer("ideal_time_ns");
    const auto totals = r.object("totals");
    out.totals.compute = totals.integer("compute_ns");
    out.totals.faultStall = totals.integer("fault_stall_ns");
    out.totals.oversubStall = totals.integer("oversub_stall_ns");
    out.totals.latePrefetchStall = totals.integer("late_prefetch_stall_ns");
    out.totals.nvlinkStall = totals.integer("nvlink_stall_ns");
    out.totals.overlap = totals.integer("overlap_ns");
    const auto traffic = r.object("traffic_bytes");
    for (const auto link : kLinks) out.traffic[static_cast<int>(link)] = traffic.integer(std::string(toString(link)));
    out.discardSavedBytes = r.integer("discard_saved_bytes");
    out.faultBatches = r.integer("fault_batches");
    out.peakGpuBytes = r.integer("peak_gpu_bytes");
    out.gpuBytesAtStart = r.integer("gpu_bytes_at_start");
    out.gpuBytesAtEnd = r.integer("gpu_bytes_at_end");
    out.gpuBytesIn = r.integer("gpu_bytes_in");
    out.gpuBytesOut = r.integer("gpu_bytes_out");
    out.zeroFilledBytes = r.integer("zero_filled_bytes");
    out.recomputeTime = r.integer("recompute_time_ns");
    out.kernelsWithAbsentBlocks = r.integer("kernels_with_absent_blocks");

    const auto k = r.object("kernels");
    const auto start = readColumn(k, "start_ns", -1);
    const auto n = static_cast<std::int64_t>(start.size());
    const auto end = readColumn(k, "end_ns", n), compute = readColumn(k, "compute_ns", n),
               fault = readColumn(k, "fault_stall_ns", n), oversub = readColumn(k, "oversub_stall_ns", n),
               late = readColumn(k, "late_prefetch_stall_ns", n), nvlink = readColumn(k, "nvlink_stall_ns", n),
               overlap = readColumn(k, "overlap_ns", n), faulted = readColumn(k, "faulted_bytes", n);
    out.kernels.resize(start.size());
    for (std::size_t i = 0; i < start.size(); ++i) {
        KernelTiming& t = out.kernels[i];
        t.start = start[i];
        t.end = end[i];
        t.compute = compute[i];
        t.faultStall = fault[i];
        t.oversubStall = oversub[i];
        t.latePrefetchStall = late[i];
        t.nvlinkStall = nvlink[i];
        t.overlap = overlap[i];
        t.faultedBytes = faulted[i];
    }

    const auto s = r.object("residency");
    const auto time = readColumn(s, "time_ns", -1);
    const auto m = static_cast<std::int64_t>(time.size());
    const auto gpu = readColumn(s, "gpu_bytes", m), host = readColumn(s, "host_bytes", m),
               ssd = readColumn(s, "ssd_bytes", m), inFlight = readColumn(s, "in_flight_bytes", m);
    out.residency.resize(time.size());
    for (std::size_t i = 0; i < time.size(); ++i) out.residency[i] = {time[i], gpu[i], host[i], ssd[i], inFlight[i]};

    const auto x = r.object("transfers");
    const auto link = readColumn(x, "link", -1);
    const auto nx = static_cast<std::int64_t>(link.size());
    const auto xStart = readColumn(x, "start_ns", nx), xEnd = readColumn(x, "end_ns", nx),
               xBytes = readColumn(x, "bytes", nx);
    out.transfers.resize(link.size());
    for (std::size_t i = 0; i < link.size(); ++i) {
        if (link[i] < 0 || link[i] >= kLinkCount)
            x.fail(x.at("link") + "/" + std::to_string(i), "expected a link code 0.." + std::to_string(kLinkCount - 1));
        out.transfers[i] = {static_cast<LinkId>(link[i]), xStart[i], xEnd[i], xBytes[i]};
    }

    out.tensorResidency = readTensorResidency(r.object("tensor_residency"));

    const auto g = r.object("gpus");
    const auto gTime = readColumn(g, "iteration_time_ns", -1);
    const auto ng = static_cast<std::int64_t>(gTime.size());
    const auto pcie = readColumn(g, "pcie_bytes", ng), ssdBytes = readColumn(g, "ssd_bytes", ng),
               nvOut = readColumn(g, "nvlink_out_bytes", ng), nvIn = readColumn(g, "nvlink_in_bytes", ng),
               gPeak = readColumn(g, "peak_gpu_bytes", ng);
    out.gpus.resize(gTime.size());
    for (std::size_t i = 0; i < gTime.size(); ++i)
        out.gpus[i] = {gTime[i], pcie[i], ssdBytes[i], nvOut[i], nvIn[i], gPeak[i]};
    out.allReducedBytes = r.integer("all_reduced_bytes");
    return out;
}

std::vector<std::uint8_t> simulationResultToCbor(const SimulationResult& result) {
    return json::to_cbor(simulationResultToJson(result));
}

SimulationResult simulationResultFromCbor(const std::uint8_t* data, std::size_t size, const std::string& label) {
    json doc;
    try {
        doc = json::from_cbor(data, data + size);
    } catch (const json::exception& e) {
        throw ImportError(label, "not a valid CBOR result: " + std::string(e.what()));
    }
    return simulationResultFromJson(doc, label);
}

}  // namespace spillway
