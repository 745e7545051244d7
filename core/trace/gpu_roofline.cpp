#include "core/trace/gpu_roofline.h"

#include <algorithm>
#include <cmath>

namespace spillway {

namespace {

// NVIDIA Ada GPU Architecture whitepaper (v2.1, Appendix A, "GeForce RTX 4090"): peak FP32
// 82.6 TFLOPS (16,384 CUDA cores at 2520 MHz boost), peak TF32 tensor 82.6 TFLOPS dense (165.2
// with sparsity), GDDR6X 21 Gbps on 384 bits = 1008 GB/s.
GpuRoofline rtx4090() {
    GpuRoofline g;
    g.id = "rtx4090";
    g.name = "NVIDIA GeForce RTX 4090";
    g.fp32FlopRate = 82.6e12;
    g.tf32FlopRate = 82.6e12;
    g.memoryBandwidth = 1008e9;
    return g;
}

// NVIDIA H200 Tensor Core GPU datasheet (nvidia.com/h200, H200 SXM column): FP32 67 TFLOPS,
// TF32 tensor core 989 TFLOPS with sparsity (494 dense), HBM3e 4.8 TB/s. (H200 NVL: FP32 60
// TFLOPS, same memory; the trace's GPU reports 132 SMs, which both have; we take SXM.)
GpuRoofline h200() {
    GpuRoofline g;
    g.id = "h200";
    g.name = "NVIDIA H200 (SXM)";
    g.fp32FlopRate = 67e12;
    g.tf32FlopRate = 494.5e12;
    g.memoryBandwidth = 4.8e12;
    return g;
}

// NVIDIA Turing GPU Architecture whitepaper (Appendix A, "GeForce RTX 2080 Ti", reference
// clocks): 4352 CUDA cores at 1545 MHz boost = 13.45 TFLOPS FP32; no TF32 (Turing's tensor
// cores take FP16/INT8), so fp32 matmuls and convolutions run on the CUDA cores; GDDR6 14 Gbps
// on 352 bits = 616 GB/s. TENSILE's machine (section 5.1).
GpuRoofline rtx2080ti() {
    GpuRoofline g;
    g.id = "rtx2080ti";
    g.name = "NVIDIA GeForce RTX 2080 Ti";
    g.fp32FlopRate = 13.45e12;
    g.tf32FlopRate = 13.45e12;
    g.memoryBandwidth = 616e9;
    return g;
}

}  // namespace

const GpuRoofline& rtx2080tiRoofline() {
    static const GpuRoofline g = rtx2080ti();
    return g;
}

const std::vector<GpuRoofline>& gpuRooflinePresets() {
    static const std::vector<GpuRoofline> presets{rtx4090(), h200()};
    return presets;
}

std::optional<GpuRoofline> findGpuRoofline(std::string_view id) {
    for (const auto& g : gpuRooflinePresets())
        if (g.id == id) return g;
    if (id == rtx2080tiRoofline().id) return rtx2080tiRoofline();
    return std::nullopt;
}

Nanoseconds rooflineKernelTime(const GpuRoofline& gpu, double flops, double bytes, bool matmul) {
    const double peak = (matmul && gpu.matmulTf32) ? gpu.tf32FlopRate : gpu.fp32FlopRate;
    const double compute = flops / (peak * gpu.computeEfficiency);
    const double memory = bytes / (gpu.memoryBandwidth * gpu.memoryEfficiency);
    return gpu.launchOverhead + static_cast<Nanoseconds>(std::ceil(std::max(compute, memory) * 1e9));
}

}  // namespace spillway
