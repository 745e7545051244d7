#pragma once
// The UVM Discard paper's GPUs as roofline models (core/trace/gpu_roofline.h) and their memory,
// for the generated FIR, Radix-sort, Hash-join and Darknet workloads (docs/uvm-discard-reproduction.md):
// "rtx3080ti" (section 7.1's machine) and "gtx1070" (Table 1's). findDiscardGpu also knows the
// roofline presets of gpu_roofline.h (rtx4090, h200), with their datasheet memory.
#include "core/trace/gpu_roofline.h"
#include "core/trace/units.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spillway {

struct DiscardGpu {
    GpuRoofline roofline;
    Bytes memory = 0;  // what the driver reports usable (the paper's 11.77 GB for the 3080 Ti)
};

const std::vector<DiscardGpu>& discardGpus();
std::optional<DiscardGpu> findDiscardGpu(std::string_view id);
// "rtx3080ti, gtx1070, rtx4090, h200": for messages and --help.
std::vector<std::string> discardGpuIds();

}  // namespace spillway
