#include "core/trace/discard_gpus.h"

namespace spillway {

namespace {

// NVIDIA Ampere GA102 whitepaper (v2, Appendix A, "GeForce RTX 3080 Ti"): 10,240 CUDA cores at
// 1665 MHz boost = 34.1 TFLOPS FP32; TF32 tensor 34.1 TFLOPS dense on GA102's consumer parts;
// GDDR6X 19 Gbps on 384 bits = 912 GB/s. Memory: the paper's 7.5, "The 3080 Ti GPU reports a
// total of 11.77GB physical memory" (12052 MiB, as the discard-3080ti presets).
DiscardGpu rtx3080ti() {
    DiscardGpu g;
    g.roofline.id = "rtx3080ti";
    g.roofline.name = "NVIDIA GeForce RTX 3080 Ti";
    g.roofline.fp32FlopRate = 34.1e12;
    g.roofline.tf32FlopRate = 34.1e12;
    g.roofline.memoryBandwidth = 912e9;
    g.memory = 12052 * kMiB;
    return g;
}

// NVIDIA GeForce GTX 1070 specifications (Pascal GP104): 1920 CUDA cores at 1683 MHz boost =
// 6.46 TFLOPS FP32, no tensor cores (TF32 = FP32 rate); GDDR5 8 Gbps on 256 bits = 256 GB/s;
// 8 GiB (Table 1's machine).
DiscardGpu gtx1070() {
    DiscardGpu g;
    g.roofline.id = "gtx1070";
    g.roofline.name = "NVIDIA GeForce GTX 1070";
    g.roofline.fp32FlopRate = 6.46e12;
    g.roofline.tf32FlopRate = 6.46e12;
    g.roofline.memoryBandwidth = 256e9;
    g.memory = 8 * kGiB;
    return g;
}

}  // namespace

const std::vector<DiscardGpu>& discardGpus() {
    static const std::vector<DiscardGpu> gpus = [] {
        std::vector<DiscardGpu> v{rtx3080ti(), gtx1070()};
        // The other roofline presets, with their datasheet memory (RTX 4090 24 GiB, H200 141 GB).
        for (const auto& r : gpuRooflinePresets())
            v.push_back({r, r.id == "rtx4090" ? 24 * kGiB : Bytes(141'000'000'000)});
        return v;
    }();
    return gpus;
}

std::optional<DiscardGpu> findDiscardGpu(std::string_view id) {
    for (const auto& g : discardGpus())
        if (g.roofline.id == id) return g;
    return std::nullopt;
}

std::vector<std::string> discardGpuIds() {
    std::vector<std::string> ids;
    for (const auto& g : discardGpus()) ids.push_back(g.roofline.id);
    return ids;
}

}  // namespace spillway
