#pragma once
// One Darknet training step (forward, backward, SGD-with-momentum update) of a network of
// core/trace/darknet_networks.h at a batch size, kernel times from the roofline model of a GPU:
// the UVM Discard paper's deep-learning workloads (section 7.5, its Listing 6).
//
// Buffers as Darknet (src/convolutional_layer.c, maxpool_layer.c, ...) allocates them on the GPU,
// one set per layer: the output and the delta (its gradient); a batch-normalised convolution also
// keeps `x`, its output before normalisation; a max pool its argmax indexes (int32). Weights (with
// biases and the batch-norm scales and running statistics) and their weight updates (Darknet's
// momentum buffer) persist across steps. Every per-layer buffer is non-persistent: written in the
// forward pass (Darknet zeroes each delta there, fill_gpu), read in the backward, dead after it
// (Listing 6's discards). A convolution's cuDNN workspace is the kernel's scratch (one image's
// im2col, Darknet's own workspace size). docs/uvm-discard-reproduction.md.
#include "core/trace/darknet_networks.h"
#include "core/trace/gpu_roofline.h"
#include "core/trace/profile.h"

namespace spillway {

struct DarknetConfig {
    std::int64_t batch = 64;
    GpuRoofline gpu;
};

// Weights, biases and batch-norm parameters (scales, running mean and variance) of the network.
std::int64_t darknetParameterCount(const DarknetNetwork& network);

// Throws std::invalid_argument when the batch is not positive, the GPU's numbers are not, or a
// layer does not fit the network (a shortcut to a layer of another shape, a layer shrinking the
// image to nothing).
Profile darknetTrainingGraph(const DarknetNetwork& network, const DarknetConfig& config);

}  // namespace spillway
