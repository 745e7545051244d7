// spillway-cli generate: synthetic profiles made in core, for planners that need sizes no
// captured profile has (core/trace/transformer_training_graph.h), and the MOST paper's OPT
// workload with roofline kernel times (core/trace/opt_training_graph.h, docs/roofline.md), and
// likewise its BERT and ViT workloads (bert_training_graph.h, vit_training_graph.h).
#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "app/cli/error_report.h"

#include "core/trace/bert_training_graph.h"
#include "core/trace/opt_training_graph.h"
#include "core/trace/transformer_training_graph.h"
#include "core/trace/vit_training_graph.h"

#include <fmt/format.h>

#include <memory>

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

}  // namespace

CommandAction addGenerateCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("generate", "Generate a synthetic profile (native spillway.profile/1 JSON)");
    cmd->require_subcommand(1);
    const CommandAction transformer = addTransformer(cmd);
    const CommandAction opt = addOpt(cmd);
    const CommandAction bert = addBert(cmd);
    const CommandAction vit = addVit(cmd);
    return [transformer, opt, bert, vit]() {
        for (const auto& action : {transformer, opt, bert, vit})
            if (const int code = action(); code >= 0) return code;
        return kExitBadInput;  // require_subcommand(1): not reached
    };
}

}  // namespace spillway::cli
