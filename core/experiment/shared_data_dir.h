#pragma once
// Where the shared ground truth lies (../shared/data: the H200 traces the reproductions read):
// $SPILLWAY_SHARED_DATA when set, else ../shared/data from the working directory (the
// checkout's root, as CI and the docs run the CLI).
#include <filesystem>

namespace spillway {

std::filesystem::path sharedDataDir();

}  // namespace spillway
