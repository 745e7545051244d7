#pragma once
// PyTorch CUDA memory snapshots (torch.cuda.memory._dump_snapshot, or a pickled
// torch.cuda.memory._snapshot() of torch 1.13): a pickle, read by a safe reader that accepts
// only plain-data opcodes (core/io/torch_snapshot/pickle_reader.h). See docs/snapshot-import.md.
#include "core/io/base/import_options.h"
#include "core/trace/profile.h"

#include <filesystem>

namespace spillway {

// options.iteration picks the iteration (a steady-state one by default); the rest is unused.
Profile importTorchSnapshot(const std::filesystem::path& path, const ImportOptions& options = {});

}  // namespace spillway
