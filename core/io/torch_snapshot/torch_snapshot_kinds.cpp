#include "core/io/torch_snapshot/torch_snapshot_kinds.h"

#include <cctype>
#include <string_view>

namespace spillway {

namespace {

bool isOptimizerFrame(const std::string& frame) {
    return frame.find("/optim/") != std::string::npos || frame.starts_with("optim/");
}

// "loss.backward()" in Python, "AddmmBackward0::apply" in C++: case-insensitive.
bool isBackwardFrame(const std::string& frame) {
    static constexpr std::string_view kWord = "backward";
    if (frame.size() < kWord.size()) return false;
    for (size_t i = 0; i + kWord.size() <= frame.size(); ++i) {
        size_t k = 0;
        while (k < kWord.size() && std::tolower(static_cast<unsigned char>(frame[i + k])) == kWord[k]) ++k;
        if (k == kWord.size()) return true;
    }
    return false;
}

}  // namespace

TensorKind inferSnapshotTensorKind(const std::vector<std::string>& frames, bool spansRecording,
                                   bool liveAtEnd) {
    for (const auto& f : frames)
        if (isOptimizerFrame(f))
            return (spansRecording || liveAtEnd) ? TensorKind::OptimizerState : TensorKind::Temporary;
    for (const auto& f : frames)
        if (isBackwardFrame(f)) return TensorKind::Gradient;
    return spansRecording ? TensorKind::Weight : TensorKind::Activation;
}

}  // namespace spillway
