#pragma once
// A profile's identity: SHA-256 of its canonical native JSON (native_json.h), so the same
// profile read from any format, on any machine, has the same hash. The workspace keeps it with
// each profile; plans carry it to tell which profile they were made for.
#include "core/trace/profile.h"

#include <string>
#include <string_view>

namespace spillway {

// "sha256:" followed by 64 lowercase hex digits.
std::string profileHash(const Profile& profile);
std::string sha256Text(std::string_view bytes);

}  // namespace spillway
