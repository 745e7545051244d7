#include "core/experiment/roam_models.h"

#include "core/experiment/shared_data_dir.h"
#include "core/io/valid_profile.h"
#include "core/trace/bert_training_graph.h"
#include "core/trace/gpu_roofline.h"
#include "core/trace/transformer_training_graph.h"
#include "core/trace/vit_training_graph.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace spillway::roam {

namespace {

ModelSpec traced(const char* network, int batch, const char* file, PaperFragmentation paper) {
    return {network, batch, ModelSource::Trace, file, paper, true};
}

ModelSpec generated(const char* network, int batch, ModelSource source, PaperFragmentation paper, bool tableOne = true) {
    return {network, batch, source, "", paper, tableOne};
}

bool wanted(const ModelSpec& spec, const std::vector<std::string>& only) {
    return only.empty() || std::any_of(only.begin(), only.end(), [&](const std::string& n) {
               return n == spec.network || n == spec.name();
           });
}

// Generated models are timed on the H200's roofline, like the traces they stand beside.
Profile generate(const ModelSpec& spec) {
    const GpuRoofline h200 = *findGpuRoofline("h200");
    switch (spec.source) {
        case ModelSource::Bert: {
            BertConfig c;
            c.batch = spec.batch;
            c.gpu = h200;
            return bertTrainingGraph(c);
        }
        case ModelSource::Vit: return vitTrainingGraph({spec.batch, h200});
        case ModelSource::Gpt2Xl: {
            TransformerConfig c;
            c.batch = spec.batch;
            c.microBatches = 1;
            return transformerTrainingGraph(c);
        }
        default: throw std::logic_error("not a generated model");
    }
}

std::string sourceText(const ModelSpec& spec) {
    switch (spec.source) {
        case ModelSource::Trace: return "H200 trace " + spec.trace;
        case ModelSource::Sample: return "dispatch capture on an H200, SGD with momentum: samples/torch/" + spec.trace;
        case ModelSource::Bert: return "generated BERT-base (AdamW, 128 tokens, H200 roofline)";
        case ModelSource::Vit: return "generated vit_b_16 (AdamW, H200 roofline)";
        case ModelSource::Gpt2Xl: return "generated GPT-2 XL (AdamW, 1024 tokens, one micro-batch)";
    }
    return "";
}

}  // namespace

const std::vector<ModelSpec>& modelSpecs() {
    static const std::vector<ModelSpec> specs{
        traced("AlexNet", 1, "alexnet-b1-adam.trace.json.gz", {3.34, 17.80, 0.00, 0.00, 0.00}),
        traced("AlexNet", 32, "alexnet-b32-adam.trace.json.gz", {6.65, 17.80, 0.00, 0.00, 0.00}),
        traced("VGG", 1, "vgg16-b1-adam.trace.json.gz", {5.05, 18.89, 0.00, 0.00, 0.00}),
        traced("VGG", 32, "vgg16-b32-adam.trace.json.gz", {31.40, 0.41, 0.00, 0.00, 0.00}),
        traced("MnasNet", 1, "mnasnet1_0-b1-adam.trace.json.gz", {79.77, 0.57, 0.00, 0.01, 0.00}),
        traced("MnasNet", 32, "mnasnet1_0-b32-adam.trace.json.gz", {14.68, 0.00, 0.00, 0.00, 0.00}),
        traced("MobileNet", 1, "mobilenet_v2-b1-adam.trace.json.gz", {59.20, 1.60, 0.00, 0.00, 0.00}),
        traced("MobileNet", 32, "mobilenet_v2-b32-adam.trace.json.gz", {11.39, 0.00, 0.00, 1.59, 0.00}),
        traced("EfficientNet", 1, "efficientnet_b0-b1-adam.trace.json.gz", {52.64, 2.24, 0.00, 52.85, 0.04}),
        {"EfficientNet", 32, ModelSource::Sample, "efficientnet_b0-b32-h200.profile.json.gz",
         {27.85, 0.35, 0.00, 36.04, 0.08}, true},
        traced("ViT", 1, "vit_b_16-b1-adam.trace.json.gz", {12.63, 5.08, 0.00, 13.52, 0.00}),
        generated("ViT", 32, ModelSource::Vit, {5.82, 0.00, 0.00, 34.67, 0.00}),
        generated("BERT", 1, ModelSource::Bert, {6.97, 13.86, 0.00, 67.92, 0.00}),
        generated("BERT", 32, ModelSource::Bert, {10.54, 13.86, 0.00, 69.32, 0.00}),
        generated("GPT-2 XL", 1, ModelSource::Gpt2Xl, {}, false),
        generated("GPT-2 XL", 2, ModelSource::Gpt2Xl, {}, false),
        generated("GPT-2 XL", 4, ModelSource::Gpt2Xl, {}, false),
    };
    return specs;
}

std::filesystem::path defaultTraceDir() {
    return sharedDataDir() / "h200" / "models" / "roam";
}

std::vector<Model> loadModels(const std::filesystem::path& traceDir, const std::filesystem::path& samplesDir,
                              const std::vector<std::string>& only) {
    std::string known;
    for (const ModelSpec& s : modelSpecs())
        if (known.find(s.network) == std::string::npos) known += (known.empty() ? "" : ", ") + s.network;
    for (const std::string& name : only)
        if (std::none_of(modelSpecs().begin(), modelSpecs().end(), [&](const ModelSpec& s) { return wanted(s, {name}); }))
            throw std::invalid_argument(fmt::format("no ROAM model '{}' (there are {}, or one at a batch: AlexNet-b32)",
                                                    name, known));
    std::vector<Model> models;
    for (const ModelSpec& spec : modelSpecs()) {
        if (!wanted(spec, only)) continue;
        Model m{spec, sourceText(spec), {}, {}};
        const bool file = spec.source == ModelSource::Trace || spec.source == ModelSource::Sample;
        const std::filesystem::path path = (spec.source == ModelSource::Trace ? traceDir : samplesDir) / spec.trace;
        if (file && !std::filesystem::exists(path))
            m.missing = "no file " + path.string();
        else
            m.profile = file ? loadValidProfile(path) : generate(spec);
        models.push_back(std::move(m));
    }
    return models;
}

}  // namespace spillway::roam
