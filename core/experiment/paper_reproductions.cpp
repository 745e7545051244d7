#include "core/experiment/paper_reproductions.h"

#include "core/experiment/discard_reproduction.h"
#include "core/experiment/most_reproduction.h"
#include "core/experiment/roam_reproduction.h"
#include "core/experiment/tensile_reproduction.h"

namespace spillway {

std::span<const PaperReproduction> paperReproductions() {
    static const PaperReproduction papers[] = {
        {"most", "MOST's Figs. 1 and 5-8 and its SSD-latency sensitivity on Table I's RTX 4090 (BERT, ViT, OPT-1.3B)",
         "BERT-512", &reproduceMost},
        {"discard", "UVM Discard's Tables 1 and 3-8 and Figs. 5-7 (FIR, Radix-sort, Hash-join; VGG-16, ResNet-53, Darknet-19) on its 3080 Ti (PCIe 3 and 4) and GTX 1070",
         "fir,vgg16", &reproduceDiscard},
        {"tensile", "TENSILE's Tables 1-2 and Fig. 6 (VGG, Inception V3/V4, ResNet-50, DenseNet at batch 2; 1-3 jobs; asynchronous and synchronised operators) on its RTX 2080 Ti",
         "VGG", &reproduceTensile},
        {"roam", "ROAM's Table I and Figs. 11-13 and 17 (AlexNet, VGG, MnasNet, MobileNet, EfficientNet, ViT, BERT at batch 1 and 32 with Adam; GPT-2 XL at 1, 2, 4): fragmentation and memory of PyTorch, LESCEA+LLFB, ROAM and MODeL",
         "AlexNet-b1,BERT-b1", &reproduceRoam},
    };
    return papers;
}

}  // namespace spillway
