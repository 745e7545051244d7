#pragma once
// kernels.config and tensors.config as G10's simulator prints them (see docs/g10-import.md).
#include "core/io/g10/g10_model.h"

#include <filesystem>
#include <string_view>

namespace spillway {

// Parses both files (already in memory) and checks that every tensor a kernel names is listed
// in tensors.config with the same size and weight flag, and that every tensor listed there is
// named by a kernel (kernels.config has no end marker; a cut one lacks them). Throws
// ImportError at the file and line of the first problem.
G10RawWorkload parseG10Configs(const std::string& kernelsFile, std::string_view kernelsText,
                               const std::string& tensorsFile, std::string_view tensorsText);

// Reads kernels.config and the tensors.config beside it, and checks its kernel count against
// the measurement files beside it when there are any (g10_kernel_count.h).
G10RawWorkload readG10Configs(const std::filesystem::path& kernelsConfig);

}  // namespace spillway
