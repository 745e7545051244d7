#pragma once
// Chrome trace JSON written by torch.profiler with profile_memory=True.
#include "core/trace/profile.h"

#include <filesystem>

namespace spillway {

Profile importTorchTrace(const std::filesystem::path& path);

}  // namespace spillway
