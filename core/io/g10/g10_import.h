#pragma once
// G10 (MICRO 2023) workloads: transformer op-block graphs, kernels.config/tensors.config as its
// simulator printed them, and the per-kernel A100 measurements cudnn<B>*.txt.
// See docs/g10-import.md.
#include "core/trace/profile.h"

#include <filesystem>
#include <optional>

namespace spillway {

// A folder with kernels.config, tensors.config and (optionally) the four cudnn<B>*.txt files.
// workspacesAsTensors: see ImportOptions::g10WorkspacesAsTensors (default: folded into the
// kernels' workspaceBytes).
Profile importG10Workload(const std::filesystem::path& folder, bool workspacesAsTensors = false);

// kernels.config (tensors.config beside it); no measurements.
Profile importG10Configs(const std::filesystem::path& kernelsConfig, bool workspacesAsTensors = false);

// A transformer graph (frontend/Nets/BERT_Base.txt, VIT.txt...) expanded into forward, loss,
// backward and weight-update kernels for `batch`, with the measurements found in resultsDir
// (results/<Model>/) when given. Input ids below `weightThreshold` are weights; without it the
// threshold G10 used for that graph (BERT_Base 210, VIT 184, NeRF 7), or, for a graph G10 did
// not ship, the smallest op id.
Profile importG10Graph(const std::filesystem::path& graph, std::int64_t batch,
                       const std::optional<std::filesystem::path>& resultsDir,
                       std::optional<std::int64_t> weightThreshold = std::nullopt);

}  // namespace spillway
