#include "runtime/calibrate/calibration_sources.h"

#include "core/hardware/hardware_presets.h"
#include "core/hardware/hardware_units.h"
#include "runtime/calibrate/calibrated_hardware.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace spillway::calibrate {

namespace {

std::string gbps(std::int64_t bytesPerSecond) { return fmt::format("{:.2f} GB/s", double(bytesPerSecond) / 1e9); }
std::string us(double seconds) { return fmt::format("{:.2f} us", seconds * 1e6); }
std::string ms(double seconds) { return fmt::format("{:.2f} ms", seconds * 1e3); }
std::string mib(std::int64_t bytes) { return fmt::format("{:.0f} MiB", double(bytes) / double(kMiB)); }

std::string sizesText(const std::vector<SizeSamples>& sizes) {
    std::string text;
    for (const SizeSamples& s : sizes)
        if (!s.seconds.empty()) text += (text.empty() ? "" : ", ") + formatByteSize(s.bytes);
    return text;
}

std::string repetitionsText(const RawMeasurements& raw) {
    return fmt::format("median of {} after one warm-up, timed with CUDA events on one stream", raw.repetitions);
}

std::string driverText(const RawMeasurements& raw) {
    std::string text = fmt::format("driver API {}.{}", raw.driverVersion / 1000, (raw.driverVersion % 1000) / 10);
    if (!raw.kernelModule.empty()) text = "driver " + raw.kernelModule + " (" + text + ")";
    return text + fmt::format(", CUDA runtime {}.{}", raw.runtimeVersion / 1000, (raw.runtimeVersion % 1000) / 10);
}

void addCurveSources(const RawMeasurements& raw, std::vector<std::string>& out) {
    const struct {
        int direction, mechanism;
        const char* key;
        const char* how;
    } rows[] = {
        {kToGpu, kManagedPrefetch, "transfers.host_to_gpu.managed_prefetch",
         "cudaMemPrefetchAsync to the device of a cudaMallocManaged buffer the host wrote first (one byte per 4 KiB "
         "page)"},
        {kToHost, kManagedPrefetch, "transfers.gpu_to_host.managed_prefetch",
         "cudaMemPrefetchAsync to the host of the same buffer, GPU-resident and written by a kernel"},
        {kToGpu, kFaultMigration, "transfers.host_to_gpu.fault_migration",
         "a kernel (1024 x 256 threads) writing one byte per 4 KiB page of a host-resident managed buffer the host "
         "wrote"},
        {kToGpu, kPinnedCopy, "transfers.host_to_gpu.pinned_copy", "cudaMemcpyAsync from cudaMallocHost to cudaMalloc"},
        {kToHost, kPinnedCopy, "transfers.gpu_to_host.pinned_copy",
         "cudaMemcpyAsync from cudaMalloc to cudaMallocHost"},
        {kToGpu, kDiscardedFault, "transfers.host_to_gpu.discarded_fault",
         "the same kernel writing a managed buffer that was GPU-resident (prefetched there and written by a kernel) "
         "and then dropped with cudaMemDiscardBatchAsync: its pages fault back zero-filled, nothing is copied"},
    };
    for (const auto& row : rows) {
        const auto& sizes = raw.samples(row.direction, row.mechanism);
        if (sizesText(sizes).empty()) {
            out.push_back(fmt::format("{}: not measured{}", row.key,
                                      raw.managedRefused.empty() || row.mechanism == kPinnedCopy
                                          ? std::string()
                                          : " (" + raw.managedRefused + ")"));
            continue;
        }
        out.push_back(fmt::format("{}: {}; sizes {}; {}; floor_ns = the median time of the smallest size", row.key,
                                  row.how, sizesText(sizes), repetitionsText(raw)));
    }
}

void addDuplexSources(const RawMeasurements& raw, std::vector<std::string>& out) {
    const char* names[kMechanisms] = {"managed_prefetch", "fault_migration", "pinned_copy", "discarded_fault"};
    for (int m = 0; m < kMechanisms; ++m) {
        const DuplexSamples& d = raw.duplex[m];
        if (m == kFaultMigration || m == kDiscardedFault) continue;  // faults only go to the GPU here
        if (!d.measured) {
            out.push_back(fmt::format("duplex.{}: not measured; taken as duplex", names[m]));
            continue;
        }
        out.push_back(fmt::format(
            "duplex.{} {}: {} to the GPU and {} to the host at once on two streams took {}, alone {} and {} "
            "(duplex when together < {} x the sum; medians of {})",
            names[m], isDuplex(d) ? "true" : "false", formatByteSize(d.bytes), formatByteSize(d.bytes),
            ms(medianOf(d.together)), ms(medianOf(d.aloneToGpu)), ms(medianOf(d.aloneToHost)), kDuplexFraction,
            d.together.size()));
    }
}

void addDiscardSources(const RawMeasurements& raw, const HardwareConfig& hw, std::vector<std::string>& out) {
    if (!raw.discard.refused.empty() || raw.discard.seconds.empty())
        out.push_back(fmt::format("discard_unmap: kept the default {}: {}",
                                  hw.discardUnmapPerBlock > 0 ? formatDuration(hw.discardUnmapPerBlock)
                                                              : std::string("(UVM Discard's Table 2 curve, discard_cost)"),
                                  raw.discard.refused.empty()
                                      ? "not measured"
                                      : "the driver refused cudaMemDiscardBatchAsync (" + raw.discard.refused + ")"));
    else
        out.push_back(
            fmt::format("discard_unmap: cudaMemDiscardBatchAsync of a GPU-resident {} range (prefetched to the "
                        "device and written by a kernel): {}, {}",
                        formatByteSize(raw.discardBytes), us(medianOf(raw.discard.seconds)), repetitionsText(raw)));
    if (!raw.discardAndPrefetch.refused.empty() || raw.discardAndPrefetch.seconds.empty())
        out.push_back(fmt::format(
            "alloc_fs_per_byte: kept the default {}: {}", hw.allocFemtosecondsPerByte,
            raw.discardAndPrefetch.refused.empty()
                ? "not measured"
                : "the driver refused cudaMemDiscardAndPrefetchBatchAsync (" + raw.discardAndPrefetch.refused + ")"));
    else
        out.push_back(fmt::format(
            "alloc_fs_per_byte: cudaMemDiscardAndPrefetchBatchAsync to the device of a host-resident "
            "{} range (zero-filled pages populated on the GPU, nothing copied): {} over its bytes, "
            "the call's fixed cost included; {}",
            formatByteSize(raw.populateBytes), us(medianOf(raw.discardAndPrefetch.seconds)), repetitionsText(raw)));
}

}  // namespace

std::vector<std::string> calibrationSources(const RawMeasurements& raw, const HardwareConfig& hw) {
    std::vector<std::string> out;
    out.push_back(fmt::format("spillway-calibrate {}{} on {}, {}, measured {}", raw.toolVersion,
                              raw.quick ? " --quick" : "", raw.deviceName, driverText(raw), raw.measuredAt));
    out.push_back(fmt::format("gpu_capacity: cudaMemGetInfo total, {} ({} free when measured)", mib(raw.gpuTotalBytes),
                              mib(raw.gpuFreeBytes)));
    out.push_back(fmt::format("host_capacity: the host's physical memory (sysconf), {}", mib(hw.hostCapacity)));
    std::string safety =
        fmt::format("the largest buffer of any kind: {} = min(2 GiB, free GPU memory / 4, host memory / 8)",
                    formatByteSize(raw.largestBuffer));
    if (!raw.skippedSizes.empty()) {
        safety += "; sizes left out:";
        for (std::int64_t s : raw.skippedSizes) safety += fmt::format(" {}", formatByteSize(s));
    }
    out.push_back(safety);
    const bool managed = !hw.measured.curve(TransferDirection::ToGpu, TransferMechanism::ManagedPrefetch).empty();
    out.push_back(
        fmt::format("host_to_gpu / gpu_to_host bytes_per_s: the {} at the largest size measured ({} and {}); "
                    "used where a mechanism has no curve and by the planners",
                    managed ? "managed prefetch" : "pinned copy", gbps(hw.hostToGpu.bytesPerSecond),
                    gbps(hw.gpuToHost.bytesPerSecond)));
    addCurveSources(raw, out);
    addDuplexSources(raw, out);
    if (!raw.launchWithEventsSeconds.empty())
        out.push_back(fmt::format(
            "kernel_launch: a kernel doing a replayed kernel's fixed work (blocks counted out, end "
            "stamped) between three events (ready, start, end), as spillway-replay issues every kernel, "
            "mean over {} launches: {} (median of {} runs); empty kernels back to back without events: {}",
            raw.launchesPerRun, us(medianOf(raw.launchWithEventsSeconds)), raw.launchWithEventsSeconds.size(),
            raw.launchBareSeconds.empty() ? std::string("not measured") : us(medianOf(raw.launchBareSeconds))));
    if (!raw.directiveSeconds.empty())
        out.push_back(fmt::format(
            "directive_overhead: a replay's side-stream directive with nothing to do (a wait on a finished "
            "event, a start and an end event), mean over {} directives: {} (median of {} runs)",
            raw.launchesPerRun, us(medianOf(raw.directiveSeconds)), raw.directiveSeconds.size()));
    addDiscardSources(raw, hw, out);
    out.push_back(
        "fault_latency 0: the fault_migration curve is end to end, so it carries the per-batch cost; "
        "fault_model analytic");
    out.push_back("weights_start_on host; no SSD tier (links 0): the runtime has none");
    return out;
}

std::string calibrationFileText(const HardwareConfig& hardware, const std::vector<std::string>& sources) {
    const auto written = nlohmann::ordered_json::parse(writeHardwareJson(hardware));
    nlohmann::ordered_json doc = nlohmann::ordered_json::object();
    for (const auto& [key, value] : written.items()) {
        doc[key] = value;
        if (key == "description") doc["sources"] = sources;
    }
    return doc.dump(2) + "\n";
}

}  // namespace spillway::calibrate
