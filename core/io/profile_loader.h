#pragma once
// One entry point for every profile format: a path (file or folder) and options in, a Profile
// out. The CLI, the app and the tests open profiles only through here.
#include "core/io/base/import_options.h"
#include "core/io/base/load_progress.h"
#include "core/trace/profile.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace spillway {

struct ProfileFormat {
    std::string id;           // used with --from
    std::string description;  // one line for --help and the open dialog
    // True when the path looks like this format. `head` is up to the first 4 KiB of a file
    // (empty for a folder).
    bool (*sniff)(const std::filesystem::path& path, std::string_view head);
    Profile (*load)(const std::filesystem::path& path, const ImportOptions& options);
};

const std::vector<ProfileFormat>& profileFormats();
const ProfileFormat* findProfileFormat(std::string_view id);

// The format id the loader would pick; throws ImportError when nothing matches.
std::string detectProfileFormat(const std::filesystem::path& path, const ImportOptions& options = {});

// Throws ImportError (file and location in it) on any problem with the input.
Profile loadProfile(const std::filesystem::path& path, const ImportOptions& options = {});

// The same, reporting progress (bytes read, then parsing, then "done" at 1) and checking
// `progress.cancel` while reading and between stages; throws LoadCancelled when it is set.
Profile loadProfile(const std::filesystem::path& path, const ImportOptions& options, const LoadProgress& progress);

}  // namespace spillway
