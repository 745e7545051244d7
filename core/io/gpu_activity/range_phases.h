#pragma once
// Phases from NVTX ranges other than spillway.*: the ranges torch.autograd.profiler.emit_nvtx
// pushes around every operator ("aten::addmm, seq = 12, sizes = [...]"), around every autograd
// node in the backward pass ("AddmmBackward0, seq = 12", "autograd::engine::evaluate_function:
// AddmmBackward0"), the record_function ranges of torch.optim ("Optimizer.step#SGD.step",
// "Optimizer.zero_grad#SGD.zero_grad"), and ranges a user names forward, loss, backward or
// optimizer. docs/capture.md, "Phases".
#include "core/io/gpu_activity/gpu_activity.h"
#include "core/trace/kernel.h"

#include <optional>
#include <string_view>
#include <vector>

namespace spillway::gpu_activity {

// The phase a range's name stands for, nullopt when it says nothing. The name is read up to its
// first ", " (emit_nvtx appends ", seq = N", ", op_id = N", ", sizes = [...]"):
//  - Optimizer: starts with "Optimizer." (torch.optim's record_function), or says optimizer;
//  - Backward: says backward (autograd nodes AddmmBackward0, aten::*_backward), or starts with
//    "autograd::engine::evaluate_function";
//  - Loss: says loss (aten::nll_loss, aten::cross_entropy_loss, a user's "loss");
//  - Forward: says forward, or carries ", seq = N" (an operator autograd recorded: the model's
//    forward pass; the backward and optimizer ranges around other such operators win).
std::optional<KernelPhase> phaseOfRangeName(std::string_view name);

// For each time (a kernel's launch or start time), the phase of the ranges holding it: the
// strongest of them in the order optimizer, backward, loss, forward (an optimizer range holds
// aten::_foreach_add_ ranges; a backward node holds aten::mm); nullopt when no range holding it
// names a phase. `named` gets the number of ranges that name a phase.
std::vector<std::optional<KernelPhase>> phasesFromRanges(const std::vector<Nanoseconds>& times,
                                                         const std::vector<RangeMark>& ranges, std::size_t& named);

}  // namespace spillway::gpu_activity
