// vDNN as TENSILE reproduced it (sections 2 and 5.1): layer granularity, static. A layer is a
// forward kernel; its input feature maps that backward reads again are offloaded while the layer
// runs (the pre-evict is issued as the layer starts, and the GPU copy goes once both the copy and
// the layer are done), and each comes back one layer ahead in backward: the prefetch of a map is
// issued as the backward layer before the one that reads it starts. No link or memory awareness:
// the same plan for every iteration and every job count.
#include "core/policy/tensile/memory_schedule.h"
#include "core/trace/ascii_case.h"
#include "core/policy/tensile/multi_job_planners.h"
#include "core/policy/tensile/peak_analysis.h"
#include "core/policy/tensile/schedule_plans.h"
#include "core/policy/tensile/swap_scheduler.h"
#include "core/policy/tensile/tensor_access_sequence.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace spillway {

namespace {

using namespace tensile;

bool isBackward(KernelPhase phase) { return phase == KernelPhase::Loss || phase == KernelPhase::Backward; }

bool isConvolution(const Kernel& kernel) {
    return asciiLower(kernel.op + " " + kernel.name).find("conv") != std::string::npos;
}

struct Offload {
    size_t tensor;
    std::int32_t lastForward;    // access index: its last access in forward
    std::int64_t layer;          // the forward layer reading it last, where the offload is issued
    bool convolution;            // that layer is a convolution
};

// The forward layer that reads a map last: the kernel of its last forward access when that
// access reads it; when it only writes it (profiles that record allocations and frees, not every
// read, as torch CPU captures do), the next kernel in program order if it is a forward one: in
// a chain network such as VGG the output of layer n is the input of layer n+1.
std::int64_t readingLayer(const std::vector<Kernel>& kernels, const AccessTensor& tensor, const TensorAccess& access) {
    const Kernel& k = kernels[static_cast<size_t>(access.kernelPos)];
    if (std::find(k.inputs.begin(), k.inputs.end(), tensor.id) != k.inputs.end()) return access.kernelPos;
    const auto next = static_cast<size_t>(access.kernelPos) + 1;
    return next < kernels.size() && kernels[next].phase == KernelPhase::Forward ? static_cast<std::int64_t>(next) : -1;
}

}  // namespace

std::vector<Plan> planVdnn(const MultiJobPlanInput& input, const VdnnOptions& options) {
    const auto tas = buildTensorAccessSequence(input.jobs);
    MemorySchedule schedule(tas.tensors.size());
    std::vector<Plan> plans(tas.jobs.size());
    for (size_t j = 0; j < tas.jobs.size(); ++j) {
        const auto& job = tas.jobs[j];
        const auto& kernels = job.profile->kernels;
        auto& plan = plans[j];
        plan.policy = "vdnn";
        std::vector<Offload> offloads;
        for (size_t t = job.firstTensor; t < job.firstTensor + job.profile->tensors.size(); ++t) {
            const auto& tensor = tas.tensors[t];
            const auto& a = tensor.accesses;
            if (tensor.persistent || tensor.bytes <= 0) continue;
            std::int32_t f = -1;
            for (std::int32_t i = 0; i < static_cast<std::int32_t>(a.size()); ++i)
                if (a[static_cast<size_t>(i)].phase == KernelPhase::Forward) f = i;
            if (f < 0 || f + 1 >= static_cast<std::int32_t>(a.size()) || !isBackward(a[static_cast<size_t>(f) + 1].phase))
                continue;
            // A layer's input feature map (what a layer reads), not a layer's own output.
            const std::int64_t layer = readingLayer(kernels, tensor, a[static_cast<size_t>(f)]);
            if (layer < 0 || layer >= a[static_cast<size_t>(f) + 1].kernelPos) continue;
            offloads.push_back({t, f, layer, isConvolution(kernels[static_cast<size_t>(layer)])});
        }
        // The backward layers: those that read a layer's input map again, in backward order
        // (every layer, also under vDNN_conv, so "one layer ahead" means the same layer).
        std::vector<std::int64_t> layers;
        for (const auto& o : offloads) layers.push_back(tas.tensors[o.tensor].accesses[static_cast<size_t>(o.lastForward) + 1].kernelPos);
        std::sort(layers.begin(), layers.end());
        layers.erase(std::unique(layers.begin(), layers.end()), layers.end());
        if (options.convolutionsOnly)
            offloads.erase(std::remove_if(offloads.begin(), offloads.end(), [](const Offload& o) { return !o.convolution; }),
                           offloads.end());
        std::int64_t backwardStart = -1;
        for (size_t k = 0; k < kernels.size() && backwardStart < 0; ++k)
            if (isBackward(kernels[k].phase)) backwardStart = static_cast<std::int64_t>(k);
        Bytes offloadedBytes = 0;
        for (const auto& o : offloads) {
            const auto& tensor = tas.tensors[o.tensor];
            const auto& backward = tensor.accesses[static_cast<size_t>(o.lastForward) + 1];
            const auto it = std::lower_bound(layers.begin(), layers.end(), backward.kernelPos);
            const std::int64_t prefetchAt = it == layers.begin() ? std::min(backwardStart, backward.kernelPos) : *std::prev(it);
            Directive out;
            out.kind = DirectiveKind::PreEvict;
            out.tensor = tensor.id;
            out.target = Tier::Host;
            out.kernelPos = o.layer;
            plan.directives.push_back(out);
            Directive in;
            in.kind = DirectiveKind::Prefetch;
            in.tensor = tensor.id;
            in.kernelPos = prefetchAt;
            plan.directives.push_back(in);
            offloadedBytes += tensor.bytes;
            // The prediction: transfers start when issued (vDNN does not order them); a late
            // prefetch counts from its access, where the layer waits for it.
            const Nanoseconds outStart = job.kernelStart[static_cast<size_t>(o.layer)];
            const Nanoseconds inStart = job.kernelStart[static_cast<size_t>(prefetchAt)];
            const Nanoseconds inEnd = std::min(inStart + swapDuration(input.hardware.hostToGpu, tensor.bytes), backward.start);
            schedule.add(o.tensor, {.afterAccess = o.lastForward, .action = GapAction::Swap, .swapOutStart = outStart,
                                    .swapOutEnd = outStart + swapDuration(input.hardware.gpuToHost, tensor.bytes),
                                    .swapInStart = inStart, .swapInEnd = inEnd});
        }
        for (size_t t = job.firstTensor; t < job.firstTensor + job.profile->tensors.size(); ++t) {
            const auto& tensor = tas.tensors[t];
            if (tensor.persistent || tensor.accesses.empty()) continue;
            Directive free;
            free.kind = DirectiveKind::Free;
            free.tensor = tensor.id;
            free.kernelPos = tensor.accesses.back().kernelPos;
            free.afterKernel = true;
            plan.directives.push_back(free);
        }
        std::stable_sort(plan.directives.begin(), plan.directives.end(), [](const Directive& a, const Directive& b) {
            if (a.kernelPos != b.kernelPos) return a.kernelPos < b.kernelPos;
            return !a.afterKernel && b.afterKernel;
        });
        plan.notes["offloaded_tensors"] = std::to_string(offloads.size());
        plan.notes["offloaded_bytes"] = std::to_string(offloadedBytes);
        plan.notes["variant"] = options.convolutionsOnly ? "vDNN_conv" : "vDNN_all";
    }
    const PeakAnalysis before = analysePeak(tas, MemorySchedule(tas.tensors.size()));
    addPeakNotes(tas, schedule, before, analysePeak(tas, schedule), input.hardware.gpuCapacity, plans);
    return plans;
}

std::vector<Plan> planVdnn(const MultiJobPlanInput& input) { return planVdnn(input, VdnnOptions{}); }

}  // namespace spillway
