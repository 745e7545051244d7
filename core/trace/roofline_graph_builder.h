#pragma once
// Appends tensors and kernels to a profile, each kernel timed by the roofline model
// (core/trace/gpu_roofline.h) from the FLOPs and bytes its caller says it does. Shared by the
// generated training graphs that must match real kernel lists (opt_training_graph, foreach_adamw).
#include "core/trace/gpu_roofline.h"
#include "core/trace/profile.h"

#include <string>
#include <vector>

namespace spillway {

struct KernelWork {
    double flops = 0;
    double bytes = -1;    // < 0: every distinct input and output tensor, read or written once
    bool matmul = false;  // a matrix product (fp32 or tf32 peak, GpuRoofline::matmulTf32)
};

class RooflineGraphBuilder {
public:
    explicit RooflineGraphBuilder(GpuRoofline gpu) : gpu_(std::move(gpu)) {}

    TensorId tensor(std::string name, Bytes bytes, TensorKind kind, bool persistent = false);
    void kernel(std::string name, std::string op, KernelPhase phase, std::vector<TensorId> inputs,
                std::vector<TensorId> outputs, KernelWork work = {});

    Bytes bytesOf(TensorId id) const { return p_.tensors[static_cast<size_t>(id)].bytes; }
    const GpuRoofline& gpu() const { return gpu_; }
    Profile& profile() { return p_; }
    Profile take() { return std::move(p_); }

private:
    GpuRoofline gpu_;
    Profile p_;
};

}  // namespace spillway
