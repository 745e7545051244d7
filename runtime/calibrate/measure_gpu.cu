// measureGpu (gpu_measurements.h): the device check, the device's facts, the safety rule, then
// each measurement step in turn (each frees what it allocated before the next starts).
#include "runtime/calibrate/calibration_sizes.h"
#include "runtime/calibrate/cuda_support.h"
#include "runtime/calibrate/host_facts.h"

namespace spillway::calibrate {

namespace {

// As spillway-replay checks (runtime/replay/cuda_backend.cu): the same words, the same reason.
void requireDevice(int device) {
    int count = 0;  // cudaGetDeviceCount leaves it unwritten when there is no device
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count <= 0) {
        cudaGetLastError();
        throw CalibrationError("no CUDA device found" +
                               (e != cudaSuccess ? " (" + cuda::errorText(e) + ")" : std::string()));
    }
    if (device < 0 || device >= count)
        throw CalibrationError("CUDA device " + std::to_string(device) + " asked for; this machine has " +
                               std::to_string(count));
}

// Name, memory, versions, managed-memory support; the sizes the safety rule allows.
cuda::Context readDevice(const MeasureOptions& options, RawMeasurements& raw, SizePlan& plan) {
    cuda::check(cudaSetDevice(options.device), "cudaSetDevice");
    cudaDeviceProp prop{};
    cuda::check(cudaGetDeviceProperties(&prop, options.device), "cudaGetDeviceProperties");
    raw.deviceName = prop.name;
    int concurrentManaged = 0;
    cuda::check(cudaDeviceGetAttribute(&concurrentManaged, cudaDevAttrConcurrentManagedAccess, options.device),
                "cudaDeviceGetAttribute (concurrentManagedAccess)");
    cuda::check(cudaDriverGetVersion(&raw.driverVersion), "cudaDriverGetVersion");
    cuda::check(cudaRuntimeGetVersion(&raw.runtimeVersion), "cudaRuntimeGetVersion");
    std::size_t free = 0, total = 0;
    cuda::check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
    raw.gpuFreeBytes = static_cast<std::int64_t>(free);
    raw.gpuTotalBytes = static_cast<std::int64_t>(total);
    raw.hostMemoryBytes = hostMemoryBytes();
    raw.kernelModule = nvidiaKernelModuleVersion();
    raw.measuredAt = utcNow();
    raw.quick = options.quick;
    raw.repetitions = options.quick ? 1 : 3;
    raw.largestBuffer = largestBuffer(raw.gpuFreeBytes, raw.hostMemoryBytes);
    plan = calibrationSizes(raw.largestBuffer, options.quick);
    raw.skippedSizes = plan.skipped;
    if (plan.sizes.empty())
        throw CalibrationError("too little free memory to calibrate: " + std::to_string(free) +
                               " bytes free on the GPU");
    if (!concurrentManaged)
        raw.managedRefused = "the device lacks concurrentManagedAccess, which cudaMemPrefetchAsync needs";

    cuda::Context ctx;
    ctx.device = options.device;
    ctx.repetitions = raw.repetitions;
    ctx.concurrentManaged = concurrentManaged != 0;
    ctx.options = &options;
    return ctx;
}

}  // namespace

bool calibrationCudaBuilt() { return true; }

RawMeasurements measureGpu(const MeasureOptions& options) {
    requireDevice(options.device);
    RawMeasurements raw;
    SizePlan plan;
    const cuda::Context ctx = readDevice(options, raw, plan);
    ctx.progress(raw.deviceName + ": " + std::to_string(raw.gpuFreeBytes >> 20) + " MiB free of " +
                 std::to_string(raw.gpuTotalBytes >> 20) + " MiB; largest buffer " + cuda::sizeText(raw.largestBuffer));
    if (ctx.concurrentManaged)
        cuda::measureManaged(ctx, plan.sizes, raw);
    else
        ctx.progress("managed memory skipped: " + raw.managedRefused);
    cuda::measurePinned(ctx, plan.sizes, raw);
    cuda::measureDuplex(ctx, plan.sizes.back(), raw);
    cuda::measureLaunch(ctx, raw);
    cuda::measureDiscard(ctx, raw);
    cuda::check(cudaDeviceSynchronize(), "finishing the calibration");
    return raw;
}

}  // namespace spillway::calibrate
