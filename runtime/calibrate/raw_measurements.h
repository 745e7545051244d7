#pragma once
// What spillway-calibrate measured on one GPU, before any statistics: every timed repetition
// in seconds, so the conversion to a HardwareConfig (calibrated_hardware.h) is CUDA-free and
// tested on recorded numbers. The CUDA measurements (gpu_measurements.h) fill it in; nvcc
// compiles this header too, so it uses the standard library only.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace spillway::calibrate {

// The mechanisms and directions of core/hardware/transfer_curve.h, by the same indices
// (ManagedPrefetch, FaultMigration, PinnedCopy, DiscardedFault; ToGpu, ToHost), without
// including the core here.
inline constexpr int kMechanisms = 4;
inline constexpr int kManagedPrefetch = 0, kFaultMigration = 1, kPinnedCopy = 2, kDiscardedFault = 3;
inline constexpr int kToGpu = 0, kToHost = 1;

// The sizes of the discarded-fault curve (up to the safety cap): at ~0.4 GB/s on the H200 the
// largest takes ~80 ms a repetition.
inline constexpr std::array<std::int64_t, 4> kDiscardedFaultSizes{512 << 10, 2 << 20, 8 << 20, 32 << 20};

// One transfer of `bytes`, timed repetition by repetition (the warm-up is not kept).
struct SizeSamples {
    std::int64_t bytes = 0;
    std::vector<double> seconds;
};

// The largest size moved both ways at once on two streams, and each way alone.
struct DuplexSamples {
    bool measured = false;
    std::int64_t bytes = 0;
    std::vector<double> aloneToGpu, aloneToHost, together;  // seconds, per repetition
};

// A call that may not be there (the discard APIs): its samples, or why it was not measured.
struct OptionalSamples {
    std::vector<double> seconds;
    std::string refused;  // the driver's error when it refused the call; empty when measured
};

struct RawMeasurements {
    // The device and where it ran
    std::string deviceName;
    std::int64_t gpuTotalBytes = 0;    // cudaMemGetInfo total
    std::int64_t gpuFreeBytes = 0;     // cudaMemGetInfo free, before measuring
    std::int64_t hostMemoryBytes = 0;  // the host's physical memory
    int driverVersion = 0;             // cudaDriverGetVersion (13000 = 13.0)
    int runtimeVersion = 0;            // cudaRuntimeGetVersion
    std::string kernelModule;          // e.g. "580.159.04" (/proc/driver/nvidia/version), or ""
    std::string measuredAt;            // UTC, ISO 8601
    std::string toolVersion;

    // How it was measured
    bool quick = false;
    int repetitions = 3;                     // timed repetitions after one warm-up
    std::int64_t largestBuffer = 0;          // the safety rule's cap (calibration_sizes.h)
    std::vector<std::int64_t> skippedSizes;  // sizes above the cap
    std::string managedRefused;              // why managed memory was not measured ("" when it was)

    // [direction][mechanism]: the samples of each size, ascending sizes
    std::array<std::array<std::vector<SizeSamples>, kMechanisms>, 2> transfers;
    std::array<DuplexSamples, kMechanisms> duplex;

    int launchesPerRun = 1000;
    std::vector<double> launchWithEventsSeconds;  // per run: mean seconds per kernel, three events and a replay-like kernel each
    std::vector<double> launchBareSeconds;        // per run: mean seconds per kernel, back to back
    // per run: mean seconds per directive as a replay's side stream issues one with nothing to
    // do (a wait on a finished event, a start and an end event)
    std::vector<double> directiveSeconds;

    std::int64_t discardBytes = 2 * 1024 * 1024;
    OptionalSamples discard;  // cudaMemDiscardBatchAsync, GPU-resident range
    std::int64_t populateBytes = 8 * 1024 * 1024;
    OptionalSamples discardAndPrefetch;  // cudaMemDiscardAndPrefetchBatchAsync to the GPU

    std::vector<SizeSamples>& samples(int direction, int mechanism) { return transfers[direction][mechanism]; }
    const std::vector<SizeSamples>& samples(int direction, int mechanism) const {
        return transfers[direction][mechanism];
    }
};

}  // namespace spillway::calibrate
