#pragma once
// Names from CUDA, PyTorch and the user's files are matched case-insensitively in several places
// (kernel and range names for phases, layer names for vDNN); ASCII only, like the names.
#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

namespace spillway {

inline std::string asciiLower(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

}  // namespace spillway
