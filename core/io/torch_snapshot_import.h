#pragma once
// PyTorch CUDA memory snapshots (torch.cuda.memory._dump_snapshot): a pickle, read by a safe
// reader that accepts only the opcodes and globals those files use.
#include "core/trace/profile.h"

#include <filesystem>

namespace spillway {

Profile importTorchSnapshot(const std::filesystem::path& path);

}  // namespace spillway
