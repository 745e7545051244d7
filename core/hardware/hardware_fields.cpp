#include "core/hardware/hardware_fields.h"

#include "core/hardware/hardware_units.h"

#include <stdexcept>

namespace spillway {

namespace {

using K = HardwareValueKind;

template <typename T>
HardwareField field(std::string name, std::string alias, std::string description, K kind,
                    std::int64_t min, std::int64_t max, T HardwareConfig::*member) {
    return {std::move(name), std::move(alias), std::move(description), kind, min, max,
            [member](const HardwareConfig& h) { return static_cast<std::int64_t>(h.*member); },
            [member](HardwareConfig& h, std::int64_t v) { h.*member = static_cast<T>(v); }};
}

// Two rows per link direction: bandwidth and latency.
void addLink(std::vector<HardwareField>& rows, const std::string& link, const std::string& what,
             LinkSpec HardwareConfig::*member) {
    rows.push_back({link + ".bytes_per_s", link + ".bandwidth",
                    what + " bandwidth (0 = no such link)", K::Bandwidth, 0, INT64_MAX,
                    [member](const HardwareConfig& h) { return (h.*member).bytesPerSecond; },
                    [member](HardwareConfig& h, std::int64_t v) { (h.*member).bytesPerSecond = v; }});
    rows.push_back({link + ".latency_ns", link + ".latency",
                    what + " latency, paid once per transfer", K::Duration, 0, INT64_MAX,
                    [member](const HardwareConfig& h) { return (h.*member).latency; },
                    [member](HardwareConfig& h, std::int64_t v) { (h.*member).latency = v; }});
}

std::vector<HardwareField> makeFields() {
    std::vector<HardwareField> rows;
    rows.push_back(field("gpu_capacity_bytes", "gpu_capacity", "GPU memory available to the profile",
                         K::Bytes, 1, INT64_MAX, &HardwareConfig::gpuCapacity));
    rows.push_back(field("host_capacity_bytes", "host_capacity",
                         "host memory available for evicted data (0 = evict to SSD only)", K::Bytes, 0,
                         INT64_MAX, &HardwareConfig::hostCapacity));
    rows.push_back(field("ssd_capacity_bytes", "ssd_capacity", "SSD space for evicted data (0 = no SSD)",
                         K::Bytes, 0, INT64_MAX, &HardwareConfig::ssdCapacity));
    addLink(rows, "host_to_gpu", "host-to-GPU (PCIe)", &HardwareConfig::hostToGpu);
    addLink(rows, "gpu_to_host", "GPU-to-host (PCIe)", &HardwareConfig::gpuToHost);
    addLink(rows, "ssd_to_gpu", "SSD-to-GPU (direct, GPUDirect Storage style)", &HardwareConfig::ssdToGpu);
    addLink(rows, "gpu_to_ssd", "GPU-to-SSD (direct)", &HardwareConfig::gpuToSsd);
    addLink(rows, "ssd_to_host", "SSD-to-host", &HardwareConfig::ssdToHost);
    addLink(rows, "host_to_ssd", "host-to-SSD", &HardwareConfig::hostToSsd);
    addLink(rows, "nvlink", "NVLink (between GPUs, per direction)", &HardwareConfig::nvlink);
    rows.push_back(field("gpu_count", "", "GPUs sharing the iteration over NVLink", K::Count, 1, 1024,
                         &HardwareConfig::gpuCount));
    rows.push_back(field("page_size_bytes", "page_size", "UVM page size", K::Bytes, 1, INT64_MAX,
                         &HardwareConfig::pageSize));
    rows.push_back(field("block_size_bytes", "block_size", "residency granule (UVM VABlock)", K::Bytes, 1,
                         INT64_MAX, &HardwareConfig::blockSize));
    rows.push_back(field("fault_batch_pages", "fault_batch", "pages the UVM driver handles per fault batch",
                         K::Count, 1, INT64_MAX, &HardwareConfig::faultBatchPages));
    rows.push_back(field("fault_latency_ns", "fault_latency", "fault handling latency per batch",
                         K::Duration, 0, INT64_MAX, &HardwareConfig::faultLatency));
    rows.push_back(field("alloc_fs_per_byte", "", "GPU allocation cost of first-touch pages, femtoseconds "
                         "per byte (G10: 0.000000814 us/B = 814)", K::FemtosecondsPerByte, 0, INT64_MAX,
                         &HardwareConfig::allocFemtosecondsPerByte));
    rows.push_back(field("fault_model", "", "how faults are charged: analytic (latency per batch + bytes "
                         "over the link) or g10-calibrated (G10's per-kernel model from PF/InputPF times)",
                         K::FaultModel, 0, 1, &HardwareConfig::faultModel));
    // A flat price per block replaces the discard_cost curve while it is above 0; 0 means free
    // discards, as it always did, so setting 0 clears the curve too.
    rows.push_back({"discard_unmap_ns", "discard_unmap", "UVM Discard (eager): a flat cost per unmapped "
                    "GPU-resident 2 MiB block instead of the discard_cost curve (0 = free)", K::Duration, 0,
                    INT64_MAX, [](const HardwareConfig& h) { return h.discardUnmapPerBlock; },
                    [](HardwareConfig& h, std::int64_t v) {
                        h.discardUnmapPerBlock = v;
                        if (v == 0) h.discardCost.clear();
                    }});
    rows.push_back(field("kernel_launch_ns", "kernel_launch", "what every kernel costs besides its profiled "
                         "time (launch; in a replay also the events around it)", K::Duration, 0, INT64_MAX,
                         &HardwareConfig::kernelLaunch));
    rows.push_back(field("directive_overhead_ns", "directive_overhead", "what every directive of a replay "
                         "costs on its stream besides its call (the events and waits around it; the replay "
                         "model only)", K::Duration, 0, INT64_MAX, &HardwareConfig::directiveOverhead));
    rows.push_back(field("weights_start_on", "", "where persistent tensors are when the first iteration "
                         "starts", K::Tier, 0, 2, &HardwareConfig::weightsStartOn));
    rows.push_back(field("iterations", "", "iterations simulated; the last one is reported", K::Count, 1,
                         1000, &HardwareConfig::iterations));
    rows.push_back(field("planner_safety_permille", "planner_safety", "share of a link's bandwidth a "
                         "planner may budget, in permille (G10's delta 0.5 = 500)", K::Permille, 1, 1000,
                         &HardwareConfig::plannerSafetyPermille));
    return rows;
}

}  // namespace

const std::vector<HardwareField>& hardwareFields() {
    static const std::vector<HardwareField> rows = makeFields();
    return rows;
}

const std::vector<HardwareGroupKey>& hardwareGroupKeys() {
    static const std::vector<HardwareGroupKey> groups{
        {"pcie.bytes_per_s", "pcie.bandwidth", "host<->GPU bandwidth, both directions",
         {"host_to_gpu.bytes_per_s", "gpu_to_host.bytes_per_s"}},
        {"pcie.latency_ns", "pcie.latency", "host<->GPU latency, both directions",
         {"host_to_gpu.latency_ns", "gpu_to_host.latency_ns"}},
        {"ssd.bytes_per_s", "ssd.bandwidth", "SSD bandwidth on all four SSD links (to and from GPU and host)",
         {"ssd_to_gpu.bytes_per_s", "gpu_to_ssd.bytes_per_s", "ssd_to_host.bytes_per_s",
          "host_to_ssd.bytes_per_s"}},
        {"ssd.latency_ns", "ssd.latency", "SSD latency on all four SSD links",
         {"ssd_to_gpu.latency_ns", "gpu_to_ssd.latency_ns", "ssd_to_host.latency_ns",
          "host_to_ssd.latency_ns"}},
    };
    return groups;
}

std::int64_t parseHardwareValue(HardwareValueKind kind, std::string_view text) {
    switch (kind) {
        case K::Bytes: return parseByteSize(text);
        case K::Bandwidth: return parseBandwidth(text);
        case K::Duration: return parseDuration(text);
        case K::Count:
        case K::Permille:
        case K::FemtosecondsPerByte: return parseCount(text);
        case K::FaultModel:
            for (auto m : {FaultModel::Analytic, FaultModel::G10Calibrated})
                if (text == toString(m)) return static_cast<std::int64_t>(m);
            throw std::invalid_argument("\"" + std::string(text) +
                                        "\" is not a fault model; expected analytic or g10-calibrated");
        case K::Tier:
            for (auto t : {Tier::Gpu, Tier::Host, Tier::Ssd})
                if (text == toString(t)) return static_cast<std::int64_t>(t);
            throw std::invalid_argument("\"" + std::string(text) + "\" is not a tier; expected gpu, host or ssd");
    }
    throw std::invalid_argument("unknown value kind");
}

std::string formatHardwareValue(HardwareValueKind kind, std::int64_t value) {
    switch (kind) {
        case K::Bytes: return formatByteSize(value);
        case K::Bandwidth: return formatBandwidth(value);
        case K::Duration: return formatDuration(value);
        case K::Count:
        case K::Permille:
        case K::FemtosecondsPerByte: return std::to_string(value);
        case K::FaultModel: return std::string(toString(static_cast<FaultModel>(value)));
        case K::Tier: return std::string(toString(static_cast<Tier>(value)));
    }
    return std::to_string(value);
}

std::string_view valueTypeName(HardwareValueKind kind) {
    switch (kind) {
        case K::Bytes: return "bytes";
        case K::Bandwidth: return "bytes/s";
        case K::Duration: return "duration";
        case K::Count: return "count";
        case K::Permille: return "permille";
        case K::FemtosecondsPerByte: return "fs/byte";
        case K::FaultModel: return "analytic|g10-calibrated";
        case K::Tier: return "gpu|host|ssd";
    }
    return "?";
}

}  // namespace spillway
