#pragma once
// The models of ROAM's evaluation (shared/seeds/roam-operator-order-and-layout.txt, Section V):
// Table I's seven networks at batch 1 and 32 with Adam, and Fig. 17's GPT-2 XL at batch 1, 2
// and 4. Where the H200 traces have one (../shared/data/h200/models/roam: real training steps,
// torch.profiler) the model is that trace; where they do not, the project's generators build it
// (ViT at 32, BERT-base at 1 and 32, GPT-2 XL), and EfficientNet at 32 is the dispatch capture
// on an H200 in samples/torch (SGD with momentum, not Adam: samples/capture/README.md).
#include "core/trace/profile.h"

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

namespace spillway::roam {

inline constexpr double kNotInPaper = NAN;

// Table I (fragmentation, %): PyTorch, LLFB, ours single-streaming, MODeL multi-streaming, ours
// multi-streaming.
struct PaperFragmentation {
    double pytorch = kNotInPaper, llfb = kNotInPaper, oursSs = kNotInPaper, modelMs = kNotInPaper,
           oursMs = kNotInPaper;
};

enum class ModelSource { Trace, Sample, Bert, Vit, Gpt2Xl };

struct ModelSpec {
    std::string network;  // "AlexNet"
    int batch = 1;
    ModelSource source = ModelSource::Trace;
    std::string trace;    // file name in the trace folder (Trace) or the samples folder (Sample)
    PaperFragmentation paper;
    bool tableOne = true;  // false: Fig. 17 (GPT-2 XL)
    std::string name() const { return network + "-b" + std::to_string(batch); }
};

// Table I's fourteen rows, then GPT-2 XL at 1, 2, 4.
const std::vector<ModelSpec>& modelSpecs();

struct Model {
    ModelSpec spec;
    std::string source;  // where the profile came from, for the report
    Profile profile;
    std::string missing;  // why there is no profile ("" when there is one)
};

std::filesystem::path defaultTraceDir();  // $SPILLWAY_SHARED_DATA or ../shared/data, /h200/models/roam
// `only` names networks ("AlexNet") or models ("AlexNet-b1"); empty: all. Throws
// std::invalid_argument for a name that is neither, ImportError for a file that cannot be read.
// A model whose file is missing is kept with `missing` saying which file.
std::vector<Model> loadModels(const std::filesystem::path& traceDir, const std::filesystem::path& samplesDir,
                              const std::vector<std::string>& only);

}  // namespace spillway::roam
