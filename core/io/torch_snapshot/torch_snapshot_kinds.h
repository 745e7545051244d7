#pragma once
// A snapshot says where memory was allocated (the Python and C++ stack), not what it holds.
// The tensor kind is guessed from that stack, because planners treat kinds differently.
#include "core/trace/tensor.h"

#include <string>
#include <vector>

namespace spillway {

// frames: "file:line:function", innermost first. spansRecording: allocated before recording
// began and never freed (weights, optimizer state kept from earlier steps). liveAtEnd: still
// allocated when the snapshot was taken.
//   a frame in torch/optim/            -> OptimizerState when it stays live, else Temporary
//   a frame naming backward            -> Gradient
//   otherwise                          -> Weight when it spans the recording, else Activation
TensorKind inferSnapshotTensorKind(const std::vector<std::string>& frames, bool spansRecording,
                                   bool liveAtEnd);

}  // namespace spillway
