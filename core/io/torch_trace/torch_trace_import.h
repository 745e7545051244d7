#pragma once
// Chrome trace JSON written by torch.profiler with profile_memory=True (Kineto layout), or by
// samples/capture/torch_capture.py. What is read and what is inferred: docs/torch-import.md.
#include "core/trace/profile.h"

#include <filesystem>
#include <string>
#include <string_view>

namespace spillway {

// Throws ImportError (file and byte offset, line:column or JSON pointer) on any problem.
Profile importTorchTrace(const std::filesystem::path& path);
Profile parseTorchTrace(std::string_view text, const std::string& fileLabel);

inline constexpr std::string_view kTorchTraceSource = "torch-trace";

}  // namespace spillway
