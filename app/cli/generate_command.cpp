// spillway-cli generate: synthetic profiles made in core, for planners that need sizes no
// captured profile has (core/trace/transformer_training_graph.h).
#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "app/cli/error_report.h"

#include "core/trace/transformer_training_graph.h"

#include <fmt/format.h>

#include <memory>

namespace spillway::cli {

CommandAction addGenerateCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("generate", "Generate a synthetic profile (native spillway.profile/1 JSON)");
    cmd->require_subcommand(1);
    auto* transformer = cmd->add_subcommand(
        "transformer", "A GPT-2-style transformer training step with AdamW (defaults: GPT-2 XL, fp32, "
                       "micro-batch 1, 4 micro-batches)");
    struct State {
        TransformerConfig config;
        std::string output;
        bool force = false;
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
    transformer->add_option("-o,--output", state->output, "Output file (.json); - for standard output")->required();
    transformer->add_flag("--force", state->force, "Overwrite the output file if it exists");
    return [state]() {
        return runReportingErrors(false, [&]() {
            const Profile profile = transformerTrainingGraph(state->config);
            switch (writeProfileOutput(profile, state->output, state->force)) {
            case ProfileOutput::Stdout: return kExitOk;
            case ProfileOutput::Refused: return kExitBadInput;
            case ProfileOutput::File: break;
            }
            fmt::print(stderr, "wrote {} ({} kernels, {} tensors, {} parameters)\n", state->output,
                       profile.kernels.size(), profile.tensors.size(), transformerParameterCount(state->config));
            return kExitOk;
        });
    };
}

}  // namespace spillway::cli
