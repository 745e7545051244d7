// Operator ordering on the real profiles: theoretical peak and planning time of program, lescea
// and roam, with ratios to the program order (peak) measured in the same process.
//   build/tests/bench_layout_order [--threads N] [--time-limit S] [--node-limit K] [PROFILE...]
// Without profiles: G10's BERT-256 and ViT-1280, the torch-captured ResNet-18 and ViT-B/16, and
// a GPT-2 XL training graph when the generator exists (core/trace/transformer_training_graph.h).
#include "core/io/profile_loader.h"
#include "core/layout/operator_order.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#if __has_include("core/trace/transformer_training_graph.h")
#include "core/trace/transformer_training_graph.h"
#define SPILLWAY_HAVE_TRANSFORMER_GRAPH 1
#endif

using namespace spillway;

namespace {

double mib(Bytes b) { return double(b) / double(kMiB); }

void report(const std::string& name, const Profile& profile, const OrderOptions& options) {
    fmt::print("{} ({} kernels, {} tensors)\n", name, profile.kernels.size(), profile.tensors.size());
    const OrderResult program = programOrder(profile);
    for (const std::string& method : orderMethodNames()) {
        const OrderResult r = orderOperators(method, profile, options);
        const DependencyGraph graph = DependencyGraph::derive(profile);
        std::string why;
        const bool valid = isTopologicalOrder(graph, r.order, &why);
        int proven = 0, windows = 0;
        for (auto& s : r.segments) proven += s.provenOptimal, windows += s.windows;
        fmt::print("  {:8} peak {:10.1f} MiB  x{:.4f} of program  {:8.3f} s  segments {:5}  leaves {:5}  proven {:5}  "
                   "{}{}\n",
                   method, mib(r.theoreticalPeak), double(r.theoreticalPeak) / double(program.theoreticalPeak), r.seconds,
                   r.segments.size(), windows, proven, valid ? "valid" : "INVALID: " + why,
                   r.notes.empty() ? "" : "  [" + r.notes + "]");
    }
}

}  // namespace

int main(int argc, char** argv) {
    OrderOptions options;
    std::vector<std::pair<std::string, std::string>> paths;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--threads" && i + 1 < argc) options.threads = unsigned(std::atoi(argv[++i]));
        else if (arg == "--time-limit" && i + 1 < argc) options.timeLimitSecondsPerSegment = std::atof(argv[++i]);
        else if (arg == "--node-limit" && i + 1 < argc) options.nodeLimit = std::atoi(argv[++i]);
        else paths.emplace_back(arg, arg);
    }
    const std::string data = SPILLWAY_SHARED_DATA;
    bool gpt2 = paths.empty();
    if (paths.empty()) {
        paths = {{"BERT-256 (G10)", data + "/g10/derived/BERT_Base_256"},
                 {"ViT-1280 (G10)", data + "/g10/derived/VIT_1280"}};
        for (const char* sample : {"resnet18-b2-cpu", "vit_b_16-b1-cpu"})
            paths.emplace_back(fmt::format("{} (torch)", sample), fmt::format("samples/torch/{}.profile.json", sample));
    }
    fmt::print("threads {} (0 = all), time limit {} s per leaf, node limit {}\n", options.threads,
               options.timeLimitSecondsPerSegment, options.nodeLimit);
    for (auto& [name, path] : paths) {
        try {
            report(name, loadProfile(path), options);
        } catch (const std::exception& e) {
            fmt::print("{}: {}\n", name, e.what());
        }
    }
#ifdef SPILLWAY_HAVE_TRANSFORMER_GRAPH
    if (gpt2) report("GPT-2 XL (generated, 4 micro-batches, AdamW)", transformerTrainingGraph(TransformerConfig{}), options);
#else
    (void)gpt2;
#endif
    return 0;
}
