// hardwareKeys(), setHardwareValue() and the checks behind --set, all driven by the field table
// in hardware_fields.cpp.
#include "core/hardware/hardware_fields.h"
#include "core/hardware/hardware_presets.h"

#include "core/trace/number_limits.h"

#include <fmt/format.h>

#include <stdexcept>

namespace spillway {

namespace {

const HardwareField* findField(std::string_view key) {
    for (const auto& f : hardwareFields())
        if (f.name == key || (!f.alias.empty() && f.alias == key)) return &f;
    return nullptr;
}

const HardwareGroupKey* findGroup(std::string_view key) {
    for (const auto& g : hardwareGroupKeys())
        if (g.name == key || g.alias == key) return &g;
    return nullptr;
}

std::string knownKeys() {
    std::string s;
    for (const auto& k : hardwareKeys()) s += (s.empty() ? "" : ", ") + (k.alias.empty() ? k.name : k.alias);
    return s;
}

// Why `value` is past the bound of its kind (number_limits.h), or "" when it is not: sizes (and
// bandwidths, per second) at most 1 PiB, times at most 13 days, counts at most 2^50, allocation
// cost at most 1 ns per byte, so that what the simulator multiplies them by stays within 64 bits.
std::string outOfHardwareRange(const HardwareField& f, std::int64_t value) {
    constexpr std::int64_t kMaxFemtosecondsPerByte = 1'000'000;
    switch (f.kind) {
    case HardwareValueKind::Bytes: return outOfBytesRange(value);
    case HardwareValueKind::Duration: return outOfDurationRange(value);
    case HardwareValueKind::Bandwidth:
        return value > kMaxBytes ? fmt::format("{} bytes/s is more than the 1 PiB/s (2^50 bytes per second) limit", value)
                                 : std::string();
    case HardwareValueKind::Count:
        return value > kMaxBytes ? fmt::format("{} is more than the 2^50 limit of a count", value) : std::string();
    case HardwareValueKind::FemtosecondsPerByte:
        return value > kMaxFemtosecondsPerByte
                   ? fmt::format("{} fs per byte is more than the 1 ns per byte (1000000 fs) limit", value)
                   : std::string();
    case HardwareValueKind::Permille:
    case HardwareValueKind::FaultModel:
    case HardwareValueKind::Tier: break;  // the field table's own range
    }
    return {};
}

void setField(HardwareConfig& hardware, const HardwareField& f, std::string_view key, std::string_view value) {
    std::int64_t v = 0;
    try {
        v = parseHardwareValue(f.kind, value);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string(key) + ": " + e.what());
    }
    if (v < f.min || v > f.max) {
        std::string range = f.max == INT64_MAX
                                ? "at least " + formatHardwareValue(f.kind, f.min)
                                : "between " + formatHardwareValue(f.kind, f.min) + " and " +
                                      formatHardwareValue(f.kind, f.max);
        throw std::invalid_argument(std::string(key) + ": must be " + range + ", got " + std::string(value));
    }
    // Every way in (a preset file, --set, a workload's hardware.set) meets the same bound.
    if (const std::string why = outOfHardwareRange(f, v); !why.empty())
        throw std::invalid_argument(std::string(key) + ": " + why);
    f.set(hardware, v);
}

}  // namespace

const std::vector<HardwareKey>& hardwareKeys() {
    static const std::vector<HardwareKey> keys = [] {
        std::vector<HardwareKey> list;
        for (const auto& f : hardwareFields())
            list.push_back({f.name, f.description, std::string(valueTypeName(f.kind)), f.alias, false});
        for (const auto& g : hardwareGroupKeys())
            list.push_back({g.name, g.description, std::string(valueTypeName(findField(g.fields.front())->kind)),
                            g.alias, true});
        return list;
    }();
    return keys;
}

void setHardwareValue(HardwareConfig& hardware, std::string_view key, std::string_view value) {
    if (const auto* f = findField(key)) {
        setField(hardware, *f, key, value);
        return;
    }
    if (const auto* g = findGroup(key)) {
        for (const auto& name : g->fields) setField(hardware, *findField(name), key, value);
        return;
    }
    throw std::invalid_argument("unknown hardware key \"" + std::string(key) + "\"; known keys: " + knownKeys() +
                                " (`spillway-cli presets` describes them)");
}

std::string hardwareValueText(const HardwareConfig& hardware, std::string_view key) {
    const auto* f = findField(key);
    if (!f) throw std::invalid_argument("unknown hardware key \"" + std::string(key) + "\"");
    return formatHardwareValue(f->kind, f->get(hardware));
}

void checkHardware(const HardwareConfig& hardware) {
    const auto fail = [&](const std::string& why) {
        throw std::invalid_argument("hardware \"" + hardware.id + "\": " + why);
    };
    if (hardware.gpuCapacity <= 0) fail("gpu_capacity_bytes must be positive");
    if (hardware.pageSize <= 0) fail("page_size_bytes must be positive");
    if (hardware.blockSize < hardware.pageSize || hardware.blockSize % hardware.pageSize != 0)
        fail("block_size_bytes (" + std::to_string(hardware.blockSize) +
             ") must be a whole number of pages of page_size_bytes (" + std::to_string(hardware.pageSize) + ")");
    if (hardware.faultBatchPages < 1) fail("fault_batch_pages must be at least 1");
    if (hardware.gpuCount < 1) fail("gpu_count must be at least 1");
    if (hardware.gpuCount > 1 && hardware.nvlink.bytesPerSecond <= 0)
        fail("gpu_count > 1 needs an NVLink bandwidth (nvlink.bytes_per_s)");
    if (hardware.iterations < 1) fail("iterations must be at least 1");
    if (hardware.hostToGpu.bytesPerSecond <= 0 && hardware.ssdToGpu.bytesPerSecond <= 0)
        fail("the GPU needs a way in: host_to_gpu or ssd_to_gpu must have a bandwidth");
    if (hardware.weightsStartOn == Tier::Ssd && hardware.ssdCapacity <= 0)
        fail("weights_start_on is ssd but ssd_capacity_bytes is 0");
    if (hardware.weightsStartOn == Tier::Host && hardware.hostToGpu.bytesPerSecond <= 0)
        fail("weights_start_on is host but host_to_gpu has no bandwidth");
    if (hardware.weightsStartOn == Tier::Ssd && hardware.ssdToGpu.bytesPerSecond <= 0 &&
        (hardware.ssdToHost.bytesPerSecond <= 0 || hardware.hostToGpu.bytesPerSecond <= 0))
        fail("weights_start_on is ssd but there is no path from the SSD to the GPU");
    if (const std::string why = discardCostProblem(hardware.discardCost); !why.empty()) fail("discard_cost: " + why);
    try {
        checkMeasuredTransfers(hardware.measured);
    } catch (const std::invalid_argument& e) {
        fail(e.what());
    }
}

void applyHardwareOverrides(HardwareConfig& hardware, const std::vector<std::string>& assignments) {
    // Work on a copy so a failure leaves the caller's machine as it was.
    auto changed = hardware;
    for (const auto& a : assignments) {
        const auto eq = a.find('=');
        if (eq == std::string::npos || eq == 0)
            throw std::invalid_argument("--set \"" + a + "\": expected key=value, e.g. gpu_capacity=24GiB");
        setHardwareValue(changed, std::string_view(a).substr(0, eq), std::string_view(a).substr(eq + 1));
    }
    checkHardware(changed);
    hardware = std::move(changed);
}

}  // namespace spillway
