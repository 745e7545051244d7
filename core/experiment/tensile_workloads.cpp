#include "core/experiment/tensile_workloads.h"

#include "core/experiment/shared_data_dir.h"
#include "core/hardware/hardware_presets.h"
#include "core/io/valid_profile.h"
#include "core/trace/gpu_roofline.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <set>
#include <stdexcept>

namespace spillway::tensile {

namespace {

// Training FLOPs of one step at batch 2: forward 2 x MACs, backward twice the forward.
constexpr double kBatch = 2;
double trainingFlops(const NetworkSpec& spec) { return 3 * 2 * spec.forwardMacs * kBatch; }

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// The trace's GPU idle time per kernel: first kernel start to last kernel end, less the
// kernels' own time. At batch 2 PyTorch's host side (dispatch, autograd, Python) is what the
// GPU waits for, so this is the host-side time of an operator as the trace's host ran it.
Nanoseconds hostTimePerKernel(const Profile& p) {
    Nanoseconds first = INT64_MAX, last = 0, busy = 0;
    for (const Kernel& k : p.kernels) {
        if (!k.capturedStart) return 0;
        first = std::min(first, *k.capturedStart);
        last = std::max(last, *k.capturedStart + k.duration);
        busy += k.duration;
    }
    if (p.kernels.empty() || last - first <= busy) return 0;
    return (last - first - busy) / Nanoseconds(p.kernels.size());
}

void countUnlinked(const Profile& p, Network& net) {
    std::set<TensorId> used;
    for (const Kernel& k : p.kernels) {
        used.insert(k.inputs.begin(), k.inputs.end());
        used.insert(k.outputs.begin(), k.outputs.end());
    }
    for (const Tensor& t : p.tensors) {
        if (!t.persistent) continue;
        net.persistent += t.bytes;
        if (!used.count(t.id)) net.unlinkedPersistent += t.bytes;
    }
}

Nanoseconds kernelSum(const Profile& p) {
    Nanoseconds sum = 0;
    for (const Kernel& k : p.kernels) sum += k.duration;
    return sum;
}

RooflineCheck checkRoofline(const Profile& h200, double flops) {
    RooflineCheck c;
    c.flops = flops;
    for (const Kernel& k : h200.kernels) {
        if (isMatmulKernel(k.name)) {
            c.measuredMatmul += k.duration;
            ++c.matmulKernels;
        } else {
            c.measuredOther += k.duration;
            ++c.otherKernels;
        }
    }
    const GpuRoofline gpu = *findGpuRoofline("h200");
    c.predictedMatmul = rooflineKernelTime(gpu, flops, 0, true) - gpu.launchOverhead;
    return c;
}

}  // namespace

const std::vector<NetworkSpec>& networkSpecs() {
    // Forward MACs per image: torchvision's model cards (VGG-16 15.47 G, ResNet-50 4.09 G,
    // DenseNet-121 2.83 G at 224 x 224; Inception V3 5.71 G at 299 x 299) and timm's for
    // Inception V4 (12.28 G at 299 x 299); the traces' inputs are 2 x 3 x 224 x 224 and
    // 2 x 3 x 299 x 299.
    static const std::vector<NetworkSpec> specs{
        {"VGG", "vgg16-b2-sgd.trace.json.gz", "vgg16-b2-h200.profile.json.gz", 15.47e9, "torchvision vgg16"},
        {"InceptionV3", "inception_v3-b2-sgd.trace.json.gz", "inception_v3-b2-h200.profile.json.gz", 5.71e9,
         "torchvision inception_v3"},
        {"InceptionV4", "inception_v4-b2-sgd.trace.json.gz", "inception_v4-b2-h200.profile.json.gz", 12.28e9,
         "timm inception_v4"},
        {"ResNet-50", "resnet50-b2-sgd.trace.json.gz", "resnet50-b2-h200.profile.json.gz", 4.09e9, "torchvision resnet50"},
        {"DenseNet", "densenet121-b2-sgd.trace.json.gz", "densenet121-b2-h200.profile.json.gz", 2.83e9,
         "torchvision densenet121"},
    };
    return specs;
}

bool isMatmulKernel(const std::string& name) {
    const std::string n = lower(name);
    // cuDNN / cuBLAS / CUTLASS kernel names, and the dispatch capture's aten ops
    for (const char* word : {"gemm", "conv", "xmma", "winograd", "fprop", "dgrad", "wgrad", "implicit", "aten.addmm",
                             "aten.mm", "aten.bmm"})
        if (n.find(word) != std::string::npos) return true;
    return false;
}

double rescaleToRtx2080ti(Profile& profile, double flops) {
    const GpuRoofline& rtx = rtx2080tiRoofline();
    const GpuRoofline h200 = *findGpuRoofline("h200");
    Nanoseconds matmul = 0;
    for (const Kernel& k : profile.kernels)
        if (isMatmulKernel(k.name)) matmul += k.duration;
    const double target = double(rooflineKernelTime(rtx, flops, 0, true) - rtx.launchOverhead);
    const double matmulFactor = matmul > 0 ? target / double(matmul) : 1.0;
    const double memoryFactor = h200.memoryBandwidth / rtx.memoryBandwidth;
    for (Kernel& k : profile.kernels) {
        if (isMatmulKernel(k.name)) {
            k.duration = std::llround(double(k.duration) * matmulFactor);
        } else if (k.duration > rtx.launchOverhead) {
            k.duration = rtx.launchOverhead + std::llround(double(k.duration - rtx.launchOverhead) * memoryFactor);
        }
    }
    profile.metadata.device = rtx.name + " (H200 kernel times rescaled by the roofline)";
    return matmulFactor;
}

std::filesystem::path defaultTraceDir() {
    return sharedDataDir() / "h200" / "models" / "tensile";
}

std::vector<Network> loadNetworks(const std::filesystem::path& traceDir, const std::filesystem::path& samplesDir,
                                  const std::vector<std::string>& only) {
    std::string known;
    for (const NetworkSpec& s : networkSpecs()) known += (known.empty() ? "" : ", ") + std::string(s.name);
    for (const std::string& name : only)
        if (std::none_of(networkSpecs().begin(), networkSpecs().end(),
                         [&](const NetworkSpec& s) { return name == s.name; }))
            throw std::invalid_argument(fmt::format("no TENSILE network '{}' (there are {})", name, known));
    std::vector<Network> nets;
    for (const NetworkSpec& spec : networkSpecs()) {
        if (!only.empty() && std::find(only.begin(), only.end(), spec.name) == only.end()) continue;
        Network net;
        net.spec = &spec;
        const Profile trace = loadValidProfile(traceDir / spec.file);
        net.hostTimePerOp = hostTimePerKernel(trace);
        net.roofline = checkRoofline(trace, trainingFlops(spec));
        const std::filesystem::path sample = samplesDir / spec.sample;
        net.dispatchCapture = std::filesystem::exists(sample);
        net.path = (net.dispatchCapture ? sample : traceDir / spec.file).string();
        net.profile = net.dispatchCapture ? loadValidProfile(sample) : trace;
        net.h200Time = kernelSum(net.profile);
        countUnlinked(net.profile, net);
        net.matmulFactor = rescaleToRtx2080ti(net.profile, trainingFlops(spec));
        net.rtxTime = kernelSum(net.profile);
        nets.push_back(std::move(net));
    }
    return nets;
}

const char* regimeName(Regime regime) { return regime == Regime::Async ? "async" : "sync"; }

Workload makeWorkload(const Network& net, int jobs, Regime regime, int iterations) {
    Workload w;
    w.label = fmt::format("{} x{} ({})", net.spec->name, jobs, regimeName(regime));
    w.name = w.label;
    w.hardware = hardwarePreset(kMachine);
    w.linkMode = LinkMode::Single;
    w.syncEveryOperator = regime == Regime::Sync;
    w.operatorHostTime = regime == Regime::Sync ? net.hostTimePerOp : 0;
    for (int j = 0; j < jobs; ++j) {
        WorkloadJob job;
        job.name = fmt::format("{}-{}", lower(net.spec->name), char('a' + j));
        job.profilePath = net.path;
        job.resolvedPath = net.path;
        job.profile = net.profile;
        job.iterations = iterations;
        w.jobs.push_back(std::move(job));
    }
    return w;
}

}  // namespace spillway::tensile
