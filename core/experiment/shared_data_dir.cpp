#include "core/experiment/shared_data_dir.h"

#include <cstdlib>

namespace spillway {

std::filesystem::path sharedDataDir() {
    const char* shared = std::getenv("SPILLWAY_SHARED_DATA");
    return shared && *shared ? std::filesystem::path(shared) : std::filesystem::path("../shared/data");
}

}  // namespace spillway
