#include "core/policy/deepum_correlation.h"

#include <algorithm>
#include <list>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace spillway {
namespace {

std::vector<std::int64_t> assignExecutionIds(const Profile& profile, std::int64_t& idCount) {
    std::unordered_map<std::string, std::int64_t> ids;
    std::vector<std::int64_t> out;
    out.reserve(profile.kernels.size());
    for (const auto& k : profile.kernels) {
        // Name and arguments: the same kernel on different tensors is a different launch.
        std::string key = k.name + '\x1f' + k.op + '\x1f';
        for (auto id : k.inputs) key += std::to_string(id) + ',';
        key += '\x1f';
        for (auto id : k.outputs) key += std::to_string(id) + ',';
        const auto [it, added] = ids.emplace(std::move(key), static_cast<std::int64_t>(ids.size()));
        out.push_back(it->second);
    }
    idCount = static_cast<std::int64_t>(ids.size());
    return out;
}

// Tensor-granular LRU residency of the GPU under demand paging.
class LruResidency {
public:
    explicit LruResidency(Bytes capacity) : capacity_(capacity) {}

    bool resident(std::int64_t t) const { return where_.count(t) != 0; }
    void touch(std::int64_t t, Bytes bytes) {
        if (auto it = where_.find(t); it != where_.end()) {
            order_.splice(order_.end(), order_, it->second);
            return;
        }
        order_.push_back(t);
        where_[t] = std::prev(order_.end());
        sizes_[t] = bytes;
        used_ += bytes;
    }
    void drop(std::int64_t t) {
        auto it = where_.find(t);
        if (it == where_.end()) return;
        used_ -= sizes_[t];
        order_.erase(it->second);
        where_.erase(it);
    }
    // Evicts least recently used tensors, never the running kernel's, until `extra` more
    // bytes fit (or nothing else can go).
    void makeRoom(Bytes extra, const std::unordered_set<std::int64_t>& running) {
        for (auto it = order_.begin(); used_ + extra > capacity_ && it != order_.end();) {
            const auto t = *it++;
            if (!running.count(t)) drop(t);
        }
    }

private:
    Bytes capacity_ = 0;
    Bytes used_ = 0;
    std::list<std::int64_t> order_;  // least recently used first
    std::unordered_map<std::int64_t, std::list<std::int64_t>::iterator> where_;
    std::unordered_map<std::int64_t, Bytes> sizes_;
};

Bytes footprint(Bytes bytes, Bytes block) {
    return block > 0 ? (bytes + block - 1) / block * block : bytes;
}

}  // namespace

DeepUmTables recordDeepUmTables(const Profile& profile, const HardwareConfig& hardware) {
    DeepUmTables tables;
    std::int64_t idCount = 0;
    tables.executionIdOfKernel = assignExecutionIds(profile, idCount);
    tables.successor.assign(static_cast<size_t>(idCount), -1);
    tables.faulted.resize(static_cast<size_t>(idCount));
    const auto n = profile.kernels.size();
    for (size_t k = 0; k < n; ++k)
        tables.successor[static_cast<size_t>(tables.executionIdOfKernel[k])] =
            tables.executionIdOfKernel[(k + 1) % n];

    const ProfileIndex index(profile);
    LruResidency gpu(hardware.gpuCapacity);
    if (hardware.weightsStartOn == Tier::Gpu)
        for (size_t t = 0; t < profile.tensors.size(); ++t)
            if (profile.tensors[t].persistent)
                gpu.touch(static_cast<std::int64_t>(t), footprint(profile.tensors[t].bytes, hardware.blockSize));

    std::vector<std::unordered_set<std::int64_t>> recorded(static_cast<size_t>(idCount));
    // Pass 0 warms the GPU up (weights arrive); pass 1 is the previous iteration DeepUM learned from.
    for (int pass = 0; pass < 2; ++pass) {
        for (size_t k = 0; k < n; ++k) {
            const auto& kernel = profile.kernels[k];
            std::vector<std::int64_t> tensors;
            std::unordered_set<std::int64_t> running;
            for (const auto* list : {&kernel.inputs, &kernel.outputs})
                for (auto id : *list)
                    if (const auto t = index.tensorPos(id); t >= 0 && running.insert(t).second)
                        tensors.push_back(t);
            const auto exec = static_cast<size_t>(tables.executionIdOfKernel[k]);
            for (auto t : tensors) {
                const auto bytes = footprint(profile.tensors[static_cast<size_t>(t)].bytes, hardware.blockSize);
                if (!gpu.resident(t)) {
                    if (pass == 1 && recorded[exec].insert(t).second) tables.faulted[exec].push_back(t);
                    gpu.makeRoom(bytes, running);
                }
                gpu.touch(t, bytes);
            }
            // Dead tensors are not dropped: as under UVM with a caching allocator, their blocks
            // stay mapped until LRU eviction takes them.
            gpu.makeRoom(kernel.workspaceBytes, running);
        }
    }
    return tables;
}

}  // namespace spillway
