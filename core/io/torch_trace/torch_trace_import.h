#pragma once
// Chrome trace JSON written by torch.profiler with profile_memory=True (Kineto layout), or by
// samples/capture/torch_capture.py. What is read and what is inferred: docs/torch-import.md.
#include "core/io/base/import_options.h"
#include "core/trace/profile.h"

#include <filesystem>
#include <string>
#include <string_view>

namespace spillway {

// Throws ImportError (file and byte offset, line:column or JSON pointer) on any problem.
// options.iteration picks the iteration of a trace that holds several (ProfilerStep#N spans);
// the other options do not apply. A gzipped file is read as it is (readFileText inflates it).
Profile importTorchTrace(const std::filesystem::path& path, const ImportOptions& options = {});
Profile parseTorchTrace(std::string_view text, const std::string& fileLabel, const ImportOptions& options = {});

inline constexpr std::string_view kTorchTraceSource = "torch-trace";

}  // namespace spillway
