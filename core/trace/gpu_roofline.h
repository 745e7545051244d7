#pragma once
// A roofline kernel-time model: a kernel takes
//     max(FLOPs / (peak FLOP/s x compute efficiency), bytes / (bandwidth x memory efficiency))
//     + launch overhead
// with the peaks from the vendors' datasheets. Used by the generated training graphs
// (core/trace/opt_training_graph.h) for GPUs whose traces we do not have (the MOST paper's RTX
// 4090). How the numbers were chosen and how they were checked against real H200 kernel times:
// docs/roofline.md.
#include "core/trace/units.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spillway {

struct GpuRoofline {
    std::string id;    // "rtx4090", "h200"
    std::string name;  // "NVIDIA GeForce RTX 4090"
    // Datasheet peaks. fp32 is the CUDA-core (non-tensor) rate; tf32 the dense tensor-core rate.
    double fp32FlopRate = 0;
    double tf32FlopRate = 0;
    double memoryBandwidth = 0;  // bytes per second
    // PyTorch's default (torch.backends.cuda.matmul.allow_tf32 = False) runs fp32 matmuls on the
    // CUDA cores: the H200 trace's GEMMs are sm80_xmma_gemm_f32f32_..._ffma and
    // cutlass_80_simt_sgemm (FFMA, no tf32 in their names). Set to use the tf32 rate instead.
    bool matmulTf32 = false;
    // Shares of the peaks real kernels reach, one per resource (not per kernel), measured on
    // the H200 OPT-1.3B trace (docs/roofline.md): GEMM and attention FLOPs over their kernel
    // time, AdamW's bytes over its kernel time.
    double computeEfficiency = 0.75;
    double memoryEfficiency = 0.80;
    // Fixed cost of every kernel (block scheduling, ramp-up, tail): the smallest kernels of the
    // H200 traces take 1-2 us however little they do.
    Nanoseconds launchOverhead = 2000;
};

// Datasheet presets: "rtx4090" (the MOST paper's Table I machine) and "h200" (SXM).
const std::vector<GpuRoofline>& gpuRooflinePresets();
// TENSILE's RTX 2080 Ti (core/experiment/tensile_workloads.h rescales H200 kernel times with it).
// Not among gpuRooflinePresets: that list is also `generate --gpu`'s (core/trace/discard_gpus.h),
// which pairs each entry with its memory. findGpuRoofline("rtx2080ti") finds it.
const GpuRoofline& rtx2080tiRoofline();
std::optional<GpuRoofline> findGpuRoofline(std::string_view id);

// The model's time for one kernel; matmul says which peak bounds its FLOPs (fp32 or tf32 for
// matrix products, fp32 CUDA cores for the rest).
Nanoseconds rooflineKernelTime(const GpuRoofline& gpu, double flops, double bytes, bool matmul);

}  // namespace spillway
