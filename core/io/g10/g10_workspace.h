#pragma once
// G10 lists each kernel's cuDNN workspace as an extra tensor: created after all the others,
// written by that one kernel and read by none. Spillway models workspace as Kernel
// workspaceBytes instead, so these tensors are folded into their kernels.
#include "core/io/g10/g10_model.h"

namespace spillway {

// Finds the workspace tensors of a workload read from kernels.config: the trailing run of
// highest-numbered tensors that are not weights, are written by exactly one kernel and read
// by none, with the writing kernels in increasing order (G10 adds them kernel by kernel).
// Each one's size moves into its kernel's workspaceBytes; the tensor is removed from the
// workload and from the kernel's outputs. Returns how many were folded.
size_t foldG10WorkspaceTensors(G10RawWorkload& workload);

}  // namespace spillway
