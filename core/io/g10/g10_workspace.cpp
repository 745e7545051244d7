#include "core/io/g10/g10_workspace.h"

#include <algorithm>
#include <unordered_map>

namespace spillway {

size_t foldG10WorkspaceTensors(G10RawWorkload& w) {
    struct Use {
        int writers = 0;
        int readers = 0;
        size_t writer = 0;
    };
    std::unordered_map<TensorId, Use> uses;
    uses.reserve(w.tensors.size());
    for (size_t k = 0; k < w.kernels.size(); ++k) {
        for (auto id : w.kernels[k].inputs) ++uses[id].readers;
        for (auto id : w.kernels[k].outputs) {
            auto& u = uses[id];
            ++u.writers;
            u.writer = k;
        }
    }
    // Walk down from the highest id while the pattern holds.
    size_t folded = 0;
    size_t previousWriter = w.kernels.size();
    for (size_t i = w.tensors.size(); i-- > 0;) {
        const auto& t = w.tensors[i];
        const auto it = uses.find(t.id);
        if (t.weight || it == uses.end()) break;
        const auto& u = it->second;
        if (u.writers != 1 || u.readers != 0 || u.writer >= previousWriter) break;
        if (w.kernels[u.writer].workspaceBytes != 0) break;
        w.kernels[u.writer].workspaceBytes = t.bytes;
        auto& outs = w.kernels[u.writer].outputs;
        outs.erase(std::remove(outs.begin(), outs.end(), t.id), outs.end());
        previousWriter = u.writer;
        ++folded;
    }
    w.tensors.resize(w.tensors.size() - folded);
    return folded;
}

}  // namespace spillway
