#pragma once
// The native profile format, spillway.profile/1 (docs/formats.md,
// resources/schemas/spillway.profile-1.schema.json). Writing is canonical: reading a file this
// writer made and writing it again gives the same bytes.
#include "core/trace/profile.h"

#include <filesystem>
#include <string>
#include <string_view>

namespace spillway {

inline constexpr std::string_view kNativeFormatId = "spillway.profile/1";

std::string writeNativeProfile(const Profile& profile);
void saveNativeProfile(const Profile& profile, const std::filesystem::path& path);

// Throws ImportError with a JSON pointer (field errors) or line:column (syntax errors).
Profile parseNativeProfile(std::string_view text, const std::string& fileLabel);
Profile readNativeProfile(const std::filesystem::path& path);

}  // namespace spillway
