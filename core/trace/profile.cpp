#include "core/trace/profile.h"

#include <array>

namespace spillway {

namespace {
constexpr std::array kTensorKindNames{"weight",   "activation", "gradient", "optimizer_state",
                                      "workspace", "input",      "temporary"};
constexpr std::array kPhaseNames{"forward", "loss", "backward", "optimizer", "other"};
}  // namespace

std::string_view toString(TensorKind kind) { return kTensorKindNames[static_cast<size_t>(kind)]; }

std::optional<TensorKind> tensorKindFromString(std::string_view text) {
    for (size_t i = 0; i < kTensorKindNames.size(); ++i)
        if (text == kTensorKindNames[i]) return static_cast<TensorKind>(i);
    return std::nullopt;
}

const std::vector<TensorKind>& allTensorKinds() {
    static const std::vector<TensorKind> kinds{TensorKind::Weight,    TensorKind::Activation,
                                               TensorKind::Gradient,  TensorKind::OptimizerState,
                                               TensorKind::Workspace, TensorKind::Input,
                                               TensorKind::Temporary};
    return kinds;
}

std::string_view toString(KernelPhase phase) { return kPhaseNames[static_cast<size_t>(phase)]; }

std::optional<KernelPhase> kernelPhaseFromString(std::string_view text) {
    for (size_t i = 0; i < kPhaseNames.size(); ++i)
        if (text == kPhaseNames[i]) return static_cast<KernelPhase>(i);
    return std::nullopt;
}

const std::vector<KernelPhase>& allKernelPhases() {
    static const std::vector<KernelPhase> phases{KernelPhase::Forward, KernelPhase::Loss,
                                                 KernelPhase::Backward, KernelPhase::Optimizer,
                                                 KernelPhase::Other};
    return phases;
}

Bytes Profile::totalTensorBytes() const {
    Bytes total = 0;
    for (const auto& t : tensors) total += t.bytes;
    return total;
}

Nanoseconds Profile::totalDuration() const {
    Nanoseconds total = 0;
    for (const auto& k : kernels) total += k.duration;
    return total;
}

ProfileIndex::ProfileIndex(const Profile& profile) {
    tensors_.reserve(profile.tensors.size());
    for (size_t i = 0; i < profile.tensors.size(); ++i)
        tensors_.emplace(profile.tensors[i].id, static_cast<std::int64_t>(i));
    kernels_.reserve(profile.kernels.size());
    for (size_t i = 0; i < profile.kernels.size(); ++i)
        kernels_.emplace(profile.kernels[i].id, static_cast<std::int64_t>(i));
}

std::int64_t ProfileIndex::tensorPos(TensorId id) const {
    auto it = tensors_.find(id);
    return it == tensors_.end() ? -1 : it->second;
}

std::int64_t ProfileIndex::kernelPos(KernelId id) const {
    auto it = kernels_.find(id);
    return it == kernels_.end() ? -1 : it->second;
}

}  // namespace spillway
