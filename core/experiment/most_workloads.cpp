#include "core/experiment/most_workloads.h"

#include "core/trace/bert_training_graph.h"
#include "core/trace/opt_training_graph.h"
#include "core/trace/vit_training_graph.h"

#include <fmt/format.h>

namespace spillway {

namespace {

std::string generateCommand(const char* model, std::int64_t batch) {
    return fmt::format("spillway-cli generate {} --batch {} --gpu rtx4090", model, batch);
}

}  // namespace

std::vector<MostWorkload> mostWorkloads() {
    std::vector<MostWorkload> workloads;
    for (std::int64_t batch : {512, 1024}) {
        BertConfig config;
        config.batch = batch;
        workloads.push_back({fmt::format("BERT-{}", batch), generateCommand("bert", batch), bertTrainingGraph(config)});
    }
    for (std::int64_t batch : {2048, 4096}) {
        VitConfig config;
        config.batch = batch;
        workloads.push_back({fmt::format("ViT-{}", batch), generateCommand("vit", batch), vitTrainingGraph(config)});
    }
    for (std::int64_t batch : {128, 256}) {
        OptConfig config;
        config.batch = batch;
        workloads.push_back({fmt::format("OPT-1.3B-{}", batch), generateCommand("opt", batch), optTrainingGraph(config)});
    }
    return workloads;
}

}  // namespace spillway
