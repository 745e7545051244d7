#include "core/trace/darknet_networks.h"

namespace spillway {

namespace {

using T = DarknetLayerType;

DarknetLayer conv(std::int64_t filters, std::int64_t size, std::int64_t stride, bool bn) {
    return {T::Convolutional, filters, size, stride, bn, 0};
}
DarknetLayer maxpool() { return {T::MaxPool, 0, 2, 2, false, 0}; }

DarknetNetwork makeVgg16() {
    DarknetNetwork n{"vgg16", "VGG-16", 224, 224, 3, {}};
    const std::int64_t stages[5][2] = {{64, 2}, {128, 2}, {256, 3}, {512, 3}, {512, 3}};
    for (const auto& [filters, count] : stages) {
        for (std::int64_t i = 0; i < count; ++i) n.layers.push_back(conv(filters, 3, 1, false));
        n.layers.push_back(maxpool());
    }
    for (std::int64_t outputs : {4096, 4096, 1000}) n.layers.push_back({T::Connected, outputs, 1, 1, false, 0});
    n.layers.push_back({T::Softmax, 0, 1, 1, false, 0});
    return n;
}

DarknetNetwork makeDarknet19() {
    DarknetNetwork n{"darknet19", "Darknet-19", 224, 224, 3, {}};
    auto& l = n.layers;
    l = {conv(32, 3, 1, true), maxpool(), conv(64, 3, 1, true), maxpool(), conv(128, 3, 1, true),
         conv(64, 1, 1, true), conv(128, 3, 1, true), maxpool(), conv(256, 3, 1, true), conv(128, 1, 1, true),
         conv(256, 3, 1, true), maxpool(), conv(512, 3, 1, true), conv(256, 1, 1, true), conv(512, 3, 1, true),
         conv(256, 1, 1, true), conv(512, 3, 1, true), maxpool(), conv(1024, 3, 1, true), conv(512, 1, 1, true),
         conv(1024, 3, 1, true), conv(512, 1, 1, true), conv(1024, 3, 1, true), conv(1000, 1, 1, false),
         {T::AvgPool, 0, 1, 1, false, 0}, {T::Softmax, 0, 1, 1, false, 0}};
    return n;
}

DarknetNetwork makeDarknet53() {
    DarknetNetwork n{"resnet53", "ResNet-53", 256, 256, 3, {}};
    auto& l = n.layers;
    l.push_back(conv(32, 3, 1, true));
    const std::int64_t stages[5][2] = {{64, 1}, {128, 2}, {256, 8}, {512, 8}, {1024, 4}};
    for (const auto& [filters, blocks] : stages) {
        l.push_back(conv(filters, 3, 2, true));  // downsample
        for (std::int64_t b = 0; b < blocks; ++b) {
            l.push_back(conv(filters / 2, 1, 1, true));
            l.push_back(conv(filters, 3, 1, true));
            l.push_back({T::Shortcut, 0, 1, 1, false, -3});
        }
    }
    l.push_back({T::AvgPool, 0, 1, 1, false, 0});
    l.push_back(conv(1000, 1, 1, false));
    l.push_back({T::Softmax, 0, 1, 1, false, 0});
    return n;
}

}  // namespace

const DarknetNetwork& darknetVgg16() {
    static const DarknetNetwork n = makeVgg16();
    return n;
}

const DarknetNetwork& darknet19() {
    static const DarknetNetwork n = makeDarknet19();
    return n;
}

const DarknetNetwork& darknet53() {
    static const DarknetNetwork n = makeDarknet53();
    return n;
}

const DarknetNetwork* findDarknetNetwork(const std::string& id) {
    for (const DarknetNetwork* n : {&darknetVgg16(), &darknet19(), &darknet53()})
        if (n->id == id) return n;
    return nullptr;
}

}  // namespace spillway
