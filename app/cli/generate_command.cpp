// spillway-cli generate: synthetic profiles made in core, for planners that need sizes no
// captured profile has (core/trace/transformer_training_graph.h), and the MOST paper's OPT
// workload with roofline kernel times (core/trace/opt_training_graph.h, docs/roofline.md), and
// likewise its BERT and ViT workloads (bert_training_graph.h, vit_training_graph.h); the UVM
// Discard paper's FIR, Radix-sort and Hash-join at an oversubscription ratio and its Darknet CNNs
// at a batch size (docs/uvm-discard-reproduction.md).
#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "app/cli/error_report.h"

#include "core/hardware/hardware_units.h"
#include "core/trace/bert_training_graph.h"
#include "core/trace/darknet_training_graph.h"
#include "core/trace/discard_benchmark_size.h"
#include "core/trace/discard_gpus.h"
#include "core/trace/fir_filter_graph.h"
#include "core/trace/hash_join_graph.h"
#include "core/trace/radix_sort_graph.h"
#include "core/trace/opt_training_graph.h"
#include "core/trace/transformer_training_graph.h"
#include "core/trace/vit_training_graph.h"

#include <fmt/format.h>

#include <memory>
#include <vector>

namespace spillway::cli {

namespace {

struct Output {
    std::string path;
    bool force = false;
};

void addOutputOptions(CLI::App* cmd, Output& out) {
    cmd->add_option("-o,--output", out.path, "Output file (.json); - for standard output")->required();
    cmd->add_flag("--force", out.force, "Overwrite the output file if it exists");
}

int writeGenerated(const Profile& profile, const Output& out, std::int64_t parameters) {
    switch (writeProfileOutput(profile, out.path, out.force)) {
    case ProfileOutput::Stdout: return kExitOk;
    case ProfileOutput::Refused: return kExitBadInput;
    case ProfileOutput::File: break;
    }
    fmt::print(stderr, "wrote {} ({} kernels, {} tensors, {} parameters)\n", out.path, profile.kernels.size(),
               profile.tensors.size(), parameters);
    return kExitOk;
}

CommandAction addTransformer(CLI::App* cmd) {
    auto* transformer = cmd->add_subcommand(
        "transformer", "A GPT-2-style transformer training step with AdamW (defaults: GPT-2 XL, fp32, "
                       "micro-batch 1, 4 micro-batches)");
    struct State {
        TransformerConfig config;
        Output out;
    };
    auto state = std::make_shared<State>();
    TransformerConfig& c = state->config;
    transformer->add_option("--layers", c.layers, "Transformer blocks")->capture_default_str();
    transformer->add_option("--hidden", c.hidden, "Hidden size")->capture_default_str();
    transformer->add_option("--heads", c.heads, "Attention heads (must divide hidden)")->capture_default_str();
    transformer->add_option("--seq", c.sequence, "Sequence length")->capture_default_str();
    transformer->add_option("--vocab", c.vocab, "Vocabulary size")->capture_default_str();
    transformer->add_option("--max-positions", c.maxPositions, "Rows of the position embedding")->capture_default_str();
    transformer->add_option("--batch", c.batch, "Samples per micro-batch")->capture_default_str();
    transformer->add_option("--micro-batches", c.microBatches, "Gradient-accumulation steps per optimizer step")
        ->capture_default_str();
    addOutputOptions(transformer, state->out);
    return [state, transformer]() -> int {
        if (!*transformer) return -1;
        return runReportingErrors(false, [&]() {
            return writeGenerated(transformerTrainingGraph(state->config), state->out,
                                  transformerParameterCount(state->config));
        });
    };
}

CommandAction addOpt(CLI::App* cmd) {
    auto* opt = cmd->add_subcommand(
        "opt", "A Hugging Face OPT training step with AdamW, fp32, kernel times from a roofline model of the "
               "GPU (defaults: OPT-1.3B, batch 128 x 128 tokens, RTX 4090; docs/roofline.md)");
    struct State {
        OptConfig config;
        std::string gpu = "rtx4090";
        bool tf32 = false;
        Output out;
    };
    auto state = std::make_shared<State>();
    OptConfig& c = state->config;
    opt->add_option("--layers", c.layers, "Decoder layers")->capture_default_str();
    opt->add_option("--hidden", c.hidden, "Hidden size")->capture_default_str();
    opt->add_option("--heads", c.heads, "Attention heads (must divide hidden)")->capture_default_str();
    opt->add_option("--ffn", c.ffn, "Feed-forward size")->capture_default_str();
    opt->add_option("--vocab", c.vocab, "Vocabulary size")->capture_default_str();
    opt->add_option("--max-positions", c.maxPositions, "Positions the model was built for")->capture_default_str();
    opt->add_option("--seq", c.sequence, "Sequence length")->capture_default_str();
    opt->add_option("--batch", c.batch, "Samples per step")->capture_default_str();
    opt->add_option("--gpu", state->gpu, "GPU whose datasheet times the kernels")
        ->check(CLI::IsMember({"rtx4090", "h200"}))
        ->capture_default_str();
    opt->add_flag("--tf32", state->tf32, "Matrix products on TF32 tensor cores (PyTorch default: off)");
    addOutputOptions(opt, state->out);
    return [state, opt]() -> int {
        if (!*opt) return -1;
        return runReportingErrors(false, [&]() {
            state->config.gpu = *findGpuRoofline(state->gpu);
            state->config.gpu.matmulTf32 = state->tf32;
            return writeGenerated(optTrainingGraph(state->config), state->out, optParameterCount(state->config));
        });
    };
}

CommandAction addBert(CLI::App* cmd) {
    auto* bert = cmd->add_subcommand(
        "bert", "A Hugging Face BERT masked-LM training step with AdamW, fp32, kernel times from a roofline model of "
                "the GPU (defaults: BERT-base, batch 512 x 128 tokens, RTX 4090; docs/roofline.md)");
    struct State {
        BertConfig config;
        std::string gpu = "rtx4090";
        bool tf32 = false;
        Output out;
    };
    auto state = std::make_shared<State>();
    BertConfig& c = state->config;
    bert->add_option("--layers", c.layers, "Encoder layers")->capture_default_str();
    bert->add_option("--hidden", c.hidden, "Hidden size")->capture_default_str();
    bert->add_option("--heads", c.heads, "Attention heads (must divide hidden)")->capture_default_str();
    bert->add_option("--ffn", c.ffn, "Feed-forward size")->capture_default_str();
    bert->add_option("--vocab", c.vocab, "Vocabulary size")->capture_default_str();
    bert->add_option("--max-positions", c.maxPositions, "Rows of the position embedding")->capture_default_str();
    bert->add_option("--seq", c.sequence, "Sequence length")->capture_default_str();
    bert->add_option("--batch", c.batch, "Samples per step")->capture_default_str();
    bert->add_option("--gpu", state->gpu, "GPU whose datasheet times the kernels")
        ->check(CLI::IsMember({"rtx4090", "h200"}))
        ->capture_default_str();
    bert->add_flag("--tf32", state->tf32, "Matrix products on TF32 tensor cores (PyTorch default: off)");
    addOutputOptions(bert, state->out);
    return [state, bert]() -> int {
        if (!*bert) return -1;
        return runReportingErrors(false, [&]() {
            state->config.gpu = *findGpuRoofline(state->gpu);
            state->config.gpu.matmulTf32 = state->tf32;
            return writeGenerated(bertTrainingGraph(state->config), state->out, bertParameterCount(state->config));
        });
    };
}

CommandAction addVit(CLI::App* cmd) {
    auto* vit = cmd->add_subcommand(
        "vit", "A torchvision vit_b_16 training step with AdamW, fp32, kernel times from a roofline model of the GPU "
               "(defaults: batch 2048 images of 224x224, RTX 4090; docs/roofline.md)");
    struct State {
        VitConfig config;
        std::string gpu = "rtx4090";
        bool tf32 = false;
        Output out;
    };
    auto state = std::make_shared<State>();
    vit->add_option("--batch", state->config.batch, "Images per step")->capture_default_str();
    vit->add_option("--gpu", state->gpu, "GPU whose datasheet times the kernels")
        ->check(CLI::IsMember({"rtx4090", "h200"}))
        ->capture_default_str();
    vit->add_flag("--tf32", state->tf32, "Matrix products on TF32 tensor cores (PyTorch default: off)");
    addOutputOptions(vit, state->out);
    return [state, vit]() -> int {
        if (!*vit) return -1;
        return runReportingErrors(false, [&]() {
            state->config.gpu = *findGpuRoofline(state->gpu);
            state->config.gpu.matmulTf32 = state->tf32;
            return writeGenerated(vitTrainingGraph(state->config), state->out, vitParameterCount());
        });
    };
}


// --gpu picks the datasheet numbers (and, for the micro-benchmarks, the memory the ratio is of).
void discardGpuOption(CLI::App* cmd, std::string& gpu) {
    cmd->add_option("--gpu", gpu, "GPU whose datasheet times the kernels (and whose memory --oversub is of)")
        ->check(CLI::IsMember(discardGpuIds()))
        ->capture_default_str();
}

// FIR, Radix-sort and Hash-join: sized at --oversub times the GPU's memory (or --gpu-memory).
CommandAction addDiscardBenchmark(CLI::App* cmd, const char* id, const char* help,
                                  Profile (*make)(Bytes footprint, const GpuRoofline& gpu)) {
    auto* sub = cmd->add_subcommand(id, help);
    struct State {
        std::string gpu = "rtx3080ti";
        double oversub = 2.0;
        std::string gpuMemory;
        Output out;
    };
    auto state = std::make_shared<State>();
    discardGpuOption(sub, state->gpu);
    sub->add_option("--oversub", state->oversub,
                    "Footprint over the GPU's memory (the paper's 2, 3, 4; below 1 for its \"<100%\" column)")
        ->capture_default_str();
    sub->add_option("--gpu-memory", state->gpuMemory, "GPU memory the ratio is of (default: the GPU's), e.g. 12052MiB");
    addOutputOptions(sub, state->out);
    return [state, sub, make]() -> int {
        if (!*sub) return -1;
        return runReportingErrors(false, [&]() {
            const DiscardGpu gpu = *findDiscardGpu(state->gpu);
            const Bytes memory = state->gpuMemory.empty() ? gpu.memory : parseByteSize(state->gpuMemory);
            return writeGenerated(make(oversubscribedFootprint(memory, state->oversub), gpu.roofline), state->out, 0);
        });
    };
}

CommandAction addDarknet(CLI::App* cmd, const DarknetNetwork& network, std::int64_t batch) {
    auto* sub = cmd->add_subcommand(
        network.id, fmt::format("A Darknet {} training step (SGD with momentum, fp32), kernel times from a roofline "
                                "model of the GPU (defaults: batch {}, RTX 3080 Ti; docs/uvm-discard-reproduction.md)",
                                network.name, batch));
    struct State {
        DarknetConfig config;
        std::string gpu = "rtx3080ti";
        Output out;
    };
    auto state = std::make_shared<State>();
    state->config.batch = batch;
    sub->add_option("--batch", state->config.batch, "Images per step")->capture_default_str();
    discardGpuOption(sub, state->gpu);
    addOutputOptions(sub, state->out);
    return [state, sub, &network]() -> int {
        if (!*sub) return -1;
        return runReportingErrors(false, [&]() {
            state->config.gpu = findDiscardGpu(state->gpu)->roofline;
            return writeGenerated(darknetTrainingGraph(network, state->config), state->out,
                                  darknetParameterCount(network));
        });
    };
}

std::vector<CommandAction> addDiscardWorkloads(CLI::App* cmd) {
    return {
        addDiscardBenchmark(cmd, "fir", "The UVM Discard paper's FIR filter streamed over its input window by window",
                            [](Bytes footprint, const GpuRoofline& gpu) { return firFilterGraph({footprint, 64 * kMiB, 16, gpu}); }),
        addDiscardBenchmark(cmd, "radix-sort", "One pass of the UVM Discard paper's radix sort (local sort, reorder)",
                            [](Bytes footprint, const GpuRoofline& gpu) { return radixSortGraph({footprint, 64 * kMiB, 4, gpu}); }),
        addDiscardBenchmark(cmd, "hash-join", "The UVM Discard paper's GPU radix hash join of two tables",
                            [](Bytes footprint, const GpuRoofline& gpu) { return hashJoinGraph({footprint, 64 * kMiB, gpu}); }),
        // Batches: the largest of each network's range in the paper's section 7.5.
        addDarknet(cmd, darknetVgg16(), 150),
        addDarknet(cmd, darknet53(), 150),
        addDarknet(cmd, darknet19(), 360),
    };
}

}  // namespace

CommandAction addGenerateCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("generate", "Generate a synthetic profile (native spillway.profile/1 JSON)");
    cmd->require_subcommand(1);
    const CommandAction transformer = addTransformer(cmd);
    const CommandAction opt = addOpt(cmd);
    const CommandAction bert = addBert(cmd);
    const CommandAction vit = addVit(cmd);
    const std::vector<CommandAction> discard = addDiscardWorkloads(cmd);
    return [transformer, opt, bert, vit, discard]() {
        for (const auto& action : {transformer, opt, bert, vit})
            if (const int code = action(); code >= 0) return code;
        for (const auto& action : discard)
            if (const int code = action(); code >= 0) return code;
        return kExitBadInput;  // require_subcommand(1): not reached
    };
}

}  // namespace spillway::cli
