#include "core/analysis/liveness.h"

namespace spillway {

Liveness computeLiveness(const Profile& profile) {
    const ProfileIndex index(profile);
    Liveness out;
    out.tensors.resize(profile.tensors.size());
    for (size_t k = 0; k < profile.kernels.size(); ++k) {
        const auto pos = static_cast<std::int32_t>(k);
        const auto& kernel = profile.kernels[k];
        // Kernels are visited in order, so comparing with the last recorded use is enough to
        // keep `uses` unique when a kernel lists a tensor twice or as input and output.
        auto touch = [&](TensorId id) -> TensorLiveness* {
            const auto t = index.tensorPos(id);
            if (t < 0) return nullptr;
            auto& l = out.tensors[static_cast<size_t>(t)];
            if (l.uses.empty() || l.uses.back() != pos) l.uses.push_back(pos);
            return &l;
        };
        for (auto id : kernel.inputs)
            if (auto* l = touch(id)) l->lastRead = pos;
        for (auto id : kernel.outputs)
            if (auto* l = touch(id); l && l->producer < 0) l->producer = pos;
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
