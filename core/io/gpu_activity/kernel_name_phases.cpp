#include "core/io/gpu_activity/kernel_name_phases.h"
#include "core/trace/ascii_case.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

namespace spillway::gpu_activity {

namespace {

// The words of a function name: split at every character that is not a letter or digit, and
// where a lower-case letter meets an upper-case one (fusedAdam -> fused, adam).
std::vector<std::string> words(std::string_view name) {
    std::vector<std::string> out;
    std::string word;
    auto flush = [&] {
        if (!word.empty()) out.push_back(asciiLower(word));
        word.clear();
    };
    for (std::size_t i = 0; i < name.size(); ++i) {
        const auto c = static_cast<unsigned char>(name[i]);
        if (!std::isalnum(c)) {
            flush();
            continue;
        }
        if (std::isupper(c) && i > 0 && std::islower(static_cast<unsigned char>(name[i - 1]))) flush();
        word.push_back(static_cast<char>(c));
    }
    flush();
    return out;
}

bool hasWord(const std::vector<std::string>& ws, std::initializer_list<std::string_view> wanted) {
    return std::any_of(ws.begin(), ws.end(), [&](const std::string& w) {
        return std::find(wanted.begin(), wanted.end(), w) != wanted.end();
    });
}

bool contains(const std::string& s, std::string_view part) { return s.find(part) != std::string::npos; }

}  // namespace

std::string kernelFunctionName(std::string_view name) {
    std::string s(name);
    constexpr std::string_view anonymous = "(anonymous namespace)::";
    for (auto at = s.find(anonymous); at != std::string::npos; at = s.find(anonymous))
        s.erase(at, anonymous.size());
    if (const auto paren = s.find('('); paren != std::string::npos) s.resize(paren);
    if (const auto angle = s.find('<'); angle != std::string::npos) s.resize(angle);
    if (const auto space = s.rfind(' '); space != std::string::npos) s = s.substr(space + 1);
    return s.empty() ? std::string(name) : s;
}

std::optional<KernelPhase> phaseOfKernelName(std::string_view name) {
    const std::string all = asciiLower(name);
    const std::string function = asciiLower(kernelFunctionName(name));
    const auto ws = words(kernelFunctionName(name));
    if (contains(all, "multi_tensor_apply") ||
        hasWord(ws, {"sgd", "adam", "adamw", "adagrad", "rmsprop", "lamb", "lion", "optimizer"}))
        return KernelPhase::Optimizer;
    if (contains(all, "dgrad") || contains(all, "wgrad") || contains(all, "bprop") || contains(function, "backward") ||
        hasWord(ws, {"bwd", "bw"}))
        return KernelPhase::Backward;
    if (contains(function, "loss")) return KernelPhase::Loss;
    if (contains(all, "fprop") || contains(function, "forward") || hasWord(ws, {"fwd", "fw"}))
        return KernelPhase::Forward;
    return std::nullopt;
}

}  // namespace spillway::gpu_activity
