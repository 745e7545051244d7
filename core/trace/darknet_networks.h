#pragma once
// The three CNNs of the UVM Discard paper's deep-learning evaluation (section 7.5, Figs. 5-7,
// Table 1) as Darknet's cfg files list them (github.com/AlexeyAB/darknet, cfg/vgg-16.cfg,
// cfg/darknet19.cfg, cfg/darknet53.cfg, the paper's reference [3]): the layers in cfg order, so a
// shortcut's `from` is the cfg's relative index. docs/uvm-discard-reproduction.md.
#include <cstdint>
#include <string>
#include <vector>

namespace spillway {

enum class DarknetLayerType { Convolutional, MaxPool, AvgPool, Connected, Shortcut, Softmax };

struct DarknetLayer {
    DarknetLayerType type = DarknetLayerType::Convolutional;
    std::int64_t filters = 0;  // convolutional: output channels; connected: outputs
    std::int64_t size = 1;     // kernel (convolutional, maxpool)
    std::int64_t stride = 1;
    bool batchNormalize = false;
    std::int64_t from = 0;     // shortcut: the other input, relative to this layer (-3)
};

struct DarknetNetwork {
    std::string id;    // "vgg16", "darknet19", "resnet53"
    std::string name;  // "VGG-16"
    std::int64_t height = 224, width = 224, channels = 3;
    std::vector<DarknetLayer> layers;
};

// vgg-16.cfg: 13 3x3 convolutions (ReLU, no batch norm), 5 max pools, connected 4096, 4096,
// 1000, softmax; 224x224 crops (the dropout layers run in place and are left out).
const DarknetNetwork& darknetVgg16();
// darknet19.cfg: 19 convolutions (batch norm, leaky; the last 1x1 to 1000 classes linear), 5 max
// pools, average pool, softmax; 224x224.
const DarknetNetwork& darknet19();
// darknet53.cfg (the paper's "ResNet-53"): 52 convolutions with batch norm in 23 residual
// blocks (shortcut from -3), average pool, a 1x1 convolution to 1000 classes, softmax; 256x256.
const DarknetNetwork& darknet53();

// By id ("vgg16", "darknet19", "resnet53"); nullptr for another.
const DarknetNetwork* findDarknetNetwork(const std::string& id);

}  // namespace spillway
