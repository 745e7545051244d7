#pragma once
// A Fenwick (binary indexed) tree over non-negative byte counts, one per kernel: point updates and
// "where does the running sum reach X" in O(log n). The g10 planner asks the latter of its link
// budgets for every candidate interval in every round; walking the kernels one by one made
// planning ViT-1280 take ~400 ms.
#include "core/trace/units.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace spillway {

class PrefixSumTree {
public:
    explicit PrefixSumTree(std::int64_t size = 0) : tree_(static_cast<std::size_t>(size) + 1, 0), value_(static_cast<std::size_t>(size), 0) {
        top_ = 1;
        while (top_ * 2 <= size) top_ *= 2;
    }
    std::int64_t size() const { return static_cast<std::int64_t>(value_.size()); }
    Bytes value(std::int64_t i) const { return value_[static_cast<std::size_t>(i)]; }

    void set(std::int64_t i, Bytes v) {
        const Bytes delta = v - value_[static_cast<std::size_t>(i)];
        if (delta == 0) return;
        value_[static_cast<std::size_t>(i)] = v;
        for (std::int64_t j = i + 1; j <= size(); j += j & -j) tree_[static_cast<std::size_t>(j)] += delta;
    }
    // Sum of the first `count` values.
    Bytes prefix(std::int64_t count) const {
        Bytes sum = 0;
        for (std::int64_t j = count; j > 0; j -= j & -j) sum += tree_[static_cast<std::size_t>(j)];
        return sum;
    }
    // Smallest count m in [0, size] with prefix(m) >= target (size + 1 when there is none).
    std::int64_t firstReaching(Bytes target) const { return search(target, false); }
    // Smallest count m in [0, size] with prefix(m) > target (size + 1 when there is none).
    std::int64_t firstExceeding(Bytes target) const { return search(target, true); }

private:
    // Descends the tree keeping the largest m whose prefix is still below (or, strict, not
    // above) the target; the answer is the next count.
    std::int64_t search(Bytes target, bool strict) const {
        if (strict ? 0 > target : 0 >= target) return 0;
        std::int64_t m = 0;
        Bytes sum = 0;
        for (std::int64_t step = size() > 0 ? top_ : 0; step > 0; step /= 2) {
            const std::int64_t next = m + step;
            if (next > size()) continue;
            const Bytes s = sum + tree_[static_cast<std::size_t>(next)];
            if (strict ? s <= target : s < target) {
                m = next;
                sum = s;
            }
        }
        return m + 1;
    }

    std::vector<Bytes> tree_;
    std::vector<Bytes> value_;
    std::int64_t top_ = 1;
};

}  // namespace spillway
