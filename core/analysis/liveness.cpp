#include "core/analysis/liveness.h"

#include <algorithm>

namespace spillway {

Liveness computeLiveness(const Profile& profile) {
    const ProfileIndex index(profile);
    Liveness out;
    out.tensors.resize(profile.tensors.size());
    for (size_t k = 0; k < profile.kernels.size(); ++k) {
        const auto& kernel = profile.kernels[k];
        auto touch = [&](TensorId id) {
            const auto pos = index.tensorPos(id);
            if (pos < 0) return;
            auto& uses = out.tensors[pos].uses;
            if (uses.empty() || uses.back() != static_cast<std::int32_t>(k))
                uses.push_back(static_cast<std::int32_t>(k));
        };
        for (auto id : kernel.inputs) touch(id);
        for (auto id : kernel.outputs) touch(id);
    }
    for (size_t t = 0; t < profile.tensors.size(); ++t) {
        auto& l = out.tensors[t];
        l.persistent = profile.tensors[t].persistent;
        if (!l.uses.empty()) {
            l.firstUse = l.uses.front();
            l.lastUse = l.uses.back();
        }
    }
    return out;
}

}  // namespace spillway
