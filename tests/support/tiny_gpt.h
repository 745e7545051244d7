#pragma once
// A GPT small enough to simulate in milliseconds (hidden 128, 4 heads, 64 tokens, a 500-word
// vocabulary, one micro-batch): 30 MiB of tensors at batch 4 with two layers. The sweeps over
// batch profiles and their saved files use it.
#include "core/trace/transformer_training_graph.h"

#include <cstdint>
#include <memory>

namespace spillway::test {

inline std::shared_ptr<const Profile> tinyGpt(std::int64_t batch, std::int64_t layers) {
    TransformerConfig c;
    c.layers = layers;
    c.hidden = 128;
    c.heads = 4;
    c.sequence = 64;
    c.maxPositions = 64;
    c.vocab = 500;
    c.microBatches = 1;
    c.batch = batch;
    return std::make_shared<const Profile>(transformerTrainingGraph(c));
}

}  // namespace spillway::test
