#pragma once
// Several GPUs sharing each kernel (MOST, section IV-C, "Impact of GPU Count"): the home GPU
// (GPU 0) fetches a kernel's inputs from host/SSD once and scatters shards of them to the other
// GPUs over NVLink; every GPU computes its share; the outputs' shards are reduced back into the
// home GPU, which alone stores tensors between kernels. This is the arithmetic of that scheme,
// one copy for the simulator (core/sim/multi_gpu_split.cpp), which charges it, and the planners
// (core/policy/planner_registry.cpp), which estimate with it (docs/simulator.md, "Several GPUs
// over NVLink").
#include "core/hardware/hardware.h"
#include "core/trace/profile.h"

namespace spillway {

// One GPU's share of a kernel's work: ceil(duration / gpus); the duration itself on one GPU.
Nanoseconds splitComputeTime(Nanoseconds duration, int gpus);

// What of `bytes` the home GPU does not compute or keep a shard of: the part it scatters to the
// other GPUs (a kernel's inputs) or receives back from them (its outputs): bytes - bytes / gpus.
Bytes bytesOffHome(Bytes bytes, int gpus);

// GPU g's part (1 <= g < gpus) of `total` bytes spread over the gpus - 1 other GPUs, as evenly
// as integers allow (the first total % (gpus - 1) get one byte more).
Bytes shareOfOtherGpu(Bytes total, int gpus, int g);

// One NVLink phase through the home GPU's port: latency + bytes / bandwidth; 0 for no bytes.
Nanoseconds nvlinkPhaseTime(const HardwareConfig& hardware, Bytes bytes);

// A kernel's distinct input and output tensors' bytes (a tensor it reads and writes is in both:
// it is scattered before and reduced after).
struct KernelSplitBytes {
    Bytes inputs = 0;
    Bytes outputs = 0;
};
KernelSplitBytes kernelSplitBytes(const Profile& profile, const ProfileIndex& index, const Kernel& kernel);

// The profile as the home GPU of hardware.gpuCount GPUs sees it, for a planner: every kernel's
// duration is its share of the compute plus the scatter of its inputs and the reduce of its
// outputs (what the simulator charges a kernel whose data is on the home GPU). Ids, tensors and
// order are unchanged, so a plan made on it is a plan for the profile. One GPU: an exact copy.
Profile perGpuProfile(const Profile& profile, const HardwareConfig& hardware);

}  // namespace spillway
