#pragma once
// A recorded calibration for tst_calibrate_conversion: raw samples shaped as spillway-calibrate
// records them, with the numbers of the H200 probes in ../shared/data/h200 (README.md,
// probe-uvm.csv, probe-prefetch-and-copy.txt). Each size's median is the probe's time; the two
// other repetitions are 4% slower and 3% faster, so a wrong statistic shows. What the probes did
// not measure comes from spillway-calibrate's own run on that H200 (2026-11-27): the pinned
// duplex pair and the two discard calls.
#include "runtime/calibrate/raw_measurements.h"

#include <utility>
#include <vector>

namespace calibrate_fixture {

using spillway::calibrate::RawMeasurements;
using spillway::calibrate::SizeSamples;
namespace cal = spillway::calibrate;

// The probe's time (ms) and two spread around it, in seconds, in an order that is not sorted.
inline std::vector<double> around(double ms) { return {ms * 1.04 / 1e3, ms / 1e3, ms * 0.97 / 1e3}; }

// probe-uvm.csv: bytes, prefetch_gpu_ms, prefetch_host_ms, fault_in_ms (64 KiB to 2 GiB; the
// 64 KiB row includes the first call's warm-up, as its README says).
struct UvmRow {
    std::int64_t bytes;
    double toGpuMs, toHostMs, faultMs;
};
inline const std::vector<UvmRow> kUvmRows{
    {65536, 0.8683, 0.0988, 0.4254},        {524288, 0.0826, 0.2303, 0.1890},
    {2097152, 0.1901, 0.4354, 0.4529},      {8388608, 0.3652, 1.1758, 1.7493},
    {33554432, 2.2513, 3.9561, 6.6373},     {134217728, 2.7922, 14.0437, 21.7202},
    {536870912, 13.7125, 47.5837, 78.8981}, {2147483648, 43.4370, 219.8739, 331.3680},
};

// probe-prefetch-and-copy.txt: bytes, pinned h2d and d2h GB/s.
struct PinnedRow {
    std::int64_t bytes;
    double h2dGBps, d2hGBps;
};
inline const std::vector<PinnedRow> kPinnedRows{
    {2097152, 34.42, 45.17}, {33554432, 52.90, 54.81}, {268435456, 55.19, 55.16}, {2147483648, 55.45, 55.34}};

inline double msAt(std::int64_t bytes, double gbps) { return double(bytes) / (gbps * 1e9) * 1e3; }

inline RawMeasurements h200ProbeMeasurements() {
    RawMeasurements raw;
    raw.deviceName = "NVIDIA H200";
    raw.gpuTotalBytes = std::int64_t(143155) << 20;  // "Device NVIDIA H200, 143155 MiB"
    raw.gpuFreeBytes = std::int64_t(142629) << 20;
    raw.hostMemoryBytes = std::int64_t(256) << 30;
    raw.driverVersion = 13000;
    raw.runtimeVersion = 13000;
    raw.kernelModule = "580.159.04";
    raw.measuredAt = "2026-11-26T12:00:00Z";
    raw.toolVersion = "fixture";
    raw.largestBuffer = std::int64_t(2) << 30;
    for (const UvmRow& r : kUvmRows) {
        raw.samples(cal::kToGpu, cal::kManagedPrefetch).push_back({r.bytes, around(r.toGpuMs)});
        raw.samples(cal::kToHost, cal::kManagedPrefetch).push_back({r.bytes, around(r.toHostMs)});
        raw.samples(cal::kToGpu, cal::kFaultMigration).push_back({r.bytes, around(r.faultMs)});
    }
    for (const PinnedRow& r : kPinnedRows) {
        raw.samples(cal::kToGpu, cal::kPinnedCopy).push_back({r.bytes, around(msAt(r.bytes, r.h2dGBps))});
        raw.samples(cal::kToHost, cal::kPinnedCopy).push_back({r.bytes, around(msAt(r.bytes, r.d2hGBps))});
    }
    // README: 1 GiB both ways at once 120.306 ms; alone about 22 ms and about 95 ms.
    auto& managed = raw.duplex[cal::kManagedPrefetch];
    managed = {true, std::int64_t(1) << 30, around(22.0), around(95.0), around(120.306)};
    // spillway-calibrate on the H200: 2 GiB pinned both ways 42.81 ms, alone 38.98 and 38.84 ms.
    auto& pinned = raw.duplex[cal::kPinnedCopy];
    pinned = {true, std::int64_t(2) << 30, around(38.98), around(38.84), around(42.81)};
    // README: 4.59 us back to back, 7.70 us with an event before and after each kernel.
    raw.launchWithEventsSeconds = {7.72e-6, 7.70e-6, 7.69e-6};
    raw.launchBareSeconds = {4.59e-6, 4.60e-6, 4.58e-6};
    raw.directiveSeconds = {2.81e-6, 2.79e-6, 2.83e-6};  // the gap and window of a "nothing" directive in the H200 replays
    // spillway-calibrate on the H200: discard of 2 MiB 3.33 us; discard-and-prefetch of 8 MiB 122.62 us.
    raw.discard.seconds = around(0.00333);
    raw.discardAndPrefetch.seconds = around(0.12262);
    // spillway-calibrate on an H200, 2026-11-27: a kernel writing discarded pages (medians, ms).
    for (const auto& [bytes, ms] : {std::pair<std::int64_t, double>{512 << 10, 0.424128}, {2 << 20, 1.829656},
                                    {8 << 20, 6.190537}, {32 << 20, 23.139429}})
        raw.samples(cal::kToGpu, cal::kDiscardedFault).push_back({bytes, around(ms)});
    return raw;
}

}  // namespace calibrate_fixture
