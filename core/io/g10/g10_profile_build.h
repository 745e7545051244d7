#pragma once
// Turns G10's tensors and kernels into a Profile: kernel phases from G10's kernel names,
// tensor kinds from the weight flag and from which phase first writes the tensor, durations
// from G10's cycles at 1.2 GHz. One job (id 0) named after the model.
#include "core/io/g10/g10_model.h"
#include "core/trace/profile.h"

#include <string_view>

namespace spillway {

// *_Forward and LoadData_A0 -> Forward; makeLoss -> Loss; names with Apply_Grad ->
// Optimizer; *_Backward* and Add_MultiGredient -> Backward; anything else -> Other.
KernelPhase g10KernelPhase(std::string_view kernelName);

// Weights -> Weight (persistent); tensors no kernel writes -> Input; otherwise by the phase of
// the first kernel that writes it: Forward -> Activation, Loss or Backward -> Gradient,
// Optimizer -> OptimizerState, Other -> Temporary.
Profile buildG10Profile(G10RawWorkload workload, ProfileMetadata metadata);

// ns = cycles / 1.2, rounded to the nearest ns.
Nanoseconds g10CyclesToNanoseconds(std::int64_t cycles);

}  // namespace spillway
