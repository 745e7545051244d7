#pragma once
// Loading a profile for any use but checking it: what validateProfile calls a problem (a negative
// size, a duplicate id, a cycle ...) is refused like a broken file, so no command and no view
// computes with it. `spillway-cli validate` alone loads without this, to list every problem.
#include "core/io/profile_loader.h"
#include "core/trace/profile.h"

#include <filesystem>
#include <string>

namespace spillway {

// Throws ImportError at `label` (the file, or what the profile came from) and the first problem's
// JSON pointer: "<message> (3 problems; `spillway-cli validate <label>` lists them all)".
// A valid profile whose sizes or times add up past 64 bits is an ImportError at `label` too.
void requireValidProfile(const Profile& profile, const std::string& label);

// loadProfile, then requireValidProfile naming the path.
Profile loadValidProfile(const std::filesystem::path& path, const ImportOptions& options = {});
Profile loadValidProfile(const std::filesystem::path& path, const ImportOptions& options, const LoadProgress& progress);

}  // namespace spillway
