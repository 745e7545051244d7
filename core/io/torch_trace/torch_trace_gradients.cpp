#include "core/io/torch_trace/torch_trace_gradients.h"

#include "core/io/torch_trace/torch_trace_memory.h"
#include "core/io/torch_trace/torch_trace_ops.h"
#include "core/trace/number_limits.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <set>

namespace spillway::torch_trace {

namespace {

// Blocks from before the trace were allocated before every call.
constexpr Nanoseconds kBeforeTrace = std::numeric_limits<Nanoseconds>::min();

struct Call {
    Nanoseconds end = 0;
    Bytes bytes = 0;  // the parameter's: its AccumulateGrad input's shape and type
};

std::vector<Call> accumulateGradCalls(const TraceEvents& events) {
    std::vector<Call> calls;
    for (const auto& s : events.spans)
        if (s.category == "cpu_op" && s.name == kAccumulateGrad && !s.args.empty() && s.args[0].bytes > 0)
            calls.push_back({s.end(), s.args[0].bytes});
    std::stable_sort(calls.begin(), calls.end(), [](const Call& a, const Call& b) { return a.end < b.end; });
    return calls;
}

// The blocks allocated so far and not paired, by size, so that a call finds the one allocated
// last among the sizes that can hold its parameter in log time (a hostile trace may hold a
// million blocks and calls): a stack per size (blocks are pushed in allocation order, so its top
// is its latest) under a segment tree of the tops.
class LatestBySize {
public:
    explicit LatestBySize(std::vector<Bytes> sizes)
        : sizes_(std::move(sizes)), stacks_(sizes_.size()), tree_(2 * sizes_.size()) {}

    void push(std::size_t block, Bytes bytes, Nanoseconds allocTime) {
        const auto leaf = std::size_t(std::lower_bound(sizes_.begin(), sizes_.end(), bytes) - sizes_.begin());
        stacks_[leaf].push_back({allocTime, block});
        update(leaf);
    }

    // The block allocated last (the smallest size on a tie) of `lowest` to `highest` bytes,
    // taken out; nullopt when there is none.
    std::optional<std::size_t> takeLatest(Bytes lowest, Bytes highest) {
        const std::size_t n = sizes_.size();
        auto l = std::size_t(std::lower_bound(sizes_.begin(), sizes_.end(), lowest) - sizes_.begin()) + n;
        auto r = std::size_t(std::upper_bound(sizes_.begin(), sizes_.end(), highest) - sizes_.begin()) + n;
        Top best;
        for (; l < r; l >>= 1, r >>= 1) {
            if (l & 1) best = later(best, tree_[l++]);
            if (r & 1) best = later(best, tree_[--r]);
        }
        if (!best.any) return std::nullopt;
        auto& stack = stacks_[best.leaf];
        const std::size_t block = stack.back().second;
        stack.pop_back();
        update(best.leaf);
        return block;
    }

private:
    struct Top {
        bool any = false;
        Nanoseconds time = 0;
        std::size_t leaf = 0;
    };
    static Top later(const Top& a, const Top& b) {
        if (!a.any || !b.any) return a.any ? a : b;
        if (a.time != b.time) return a.time > b.time ? a : b;
        return a.leaf <= b.leaf ? a : b;
    }
    void update(std::size_t leaf) {
        std::size_t i = leaf + sizes_.size();
        tree_[i] = stacks_[leaf].empty() ? Top{} : Top{true, stacks_[leaf].back().first, leaf};
        for (i >>= 1; i >= 1; i >>= 1) tree_[i] = later(tree_[2 * i], tree_[2 * i + 1]);
    }

    std::vector<Bytes> sizes_;  // distinct, ascending
    std::vector<std::vector<std::pair<Nanoseconds, std::size_t>>> stacks_;
    std::vector<Top> tree_;  // leaves at [n, 2n)
};

// Each call, in the order they end, takes the block allocated last before it ended among those
// of a size that can hold its parameter.
void pairWithCalls(const std::vector<GradientBlock>& blocks, const TraceEvents& events, Bytes granule,
                   std::vector<bool>& paired, GradientSizes& out) {
    const auto timeOf = [&](std::size_t i) { return blocks[i].allocTime.value_or(kBeforeTrace); };
    std::vector<std::size_t> byTime(blocks.size());
    std::vector<Bytes> sizes;
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        byTime[i] = i;
        sizes.push_back(blocks[i].bytes);
    }
    std::stable_sort(byTime.begin(), byTime.end(), [&](std::size_t a, std::size_t b) { return timeOf(a) < timeOf(b); });
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    LatestBySize open(std::move(sizes));
    std::size_t next = 0;
    for (const Call& call : accumulateGradCalls(events)) {
        for (; next < byTime.size() && timeOf(byTime[next]) <= call.end; ++next)
            open.push(byTime[next], blocks[byTime[next]].bytes, timeOf(byTime[next]));
        if (const auto i = open.takeLatest(roundUpToGranule(call.bytes, granule), largestBlockFor(call.bytes, granule))) {
            out.bytes[*i] = call.bytes;
            paired[*i] = true;
            ++out.byCall;
        }
    }
}

// Blocks from before the trace have no call in it: each takes a parameter of a size it can hold,
// one parameter per block. Largest blocks first, each with the largest parameter not over it: a
// parameter that fits this block fits every smaller block it is not larger than, so taking the
// largest leaves the most for the rest.
void pairBeforeTrace(const std::vector<GradientBlock>& blocks, const std::vector<ShapedTensor>& parameters,
                     Bytes granule, std::vector<bool>& paired, GradientSizes& out) {
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < blocks.size(); ++i)
        if (!paired[i] && !blocks[i].allocTime) order.push_back(i);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return blocks[a].bytes > blocks[b].bytes; });
    std::multiset<Bytes> sizes;
    for (const auto& p : parameters)
        if (p.bytes > 0) sizes.insert(p.bytes);
    for (const std::size_t i : order) {
        auto it = sizes.upper_bound(blocks[i].bytes);
        if (it == sizes.begin()) continue;
        --it;
        if (!blockCanHold(blocks[i].bytes, *it, granule)) continue;
        out.bytes[i] = *it;
        paired[i] = true;
        ++out.bySize;
        sizes.erase(it);
    }
}

}  // namespace

std::string GradientSizes::describe() const {
    return fmt::format(
        "{} gradient blocks ({} bytes): {} sized as the parameter of the AccumulateGrad call that followed their "
        "allocation, {} (allocated before the trace) as a parameter of a size they can hold, {} keep the "
        "allocator's block size (no parameter fits); the gradient tensors hold {} bytes, {} under their blocks "
        "(the allocator's rounding of the request, in no tensor)",
        bytes.size(), blockBytes, byCall, bySize, unpaired, tensorBytes, blockBytes - tensorBytes);
}

GradientSizes sizeGradients(const std::vector<GradientBlock>& blocks, const TraceEvents& events,
                            const std::vector<ShapedTensor>& parameters, Bytes granule) {
    GradientSizes out;
    for (const auto& b : blocks) {
        out.bytes.push_back(b.bytes);
        out.blockBytes = checkedAdd(out.blockBytes, b.bytes, "the total size of the trace's gradient blocks");
    }
    std::vector<bool> paired(blocks.size(), false);
    if (!blocks.empty()) pairWithCalls(blocks, events, granule, paired, out);
    pairBeforeTrace(blocks, parameters, granule, paired, out);
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        out.tensorBytes += out.bytes[i];  // each at most its block: within blockBytes
        if (!paired[i]) ++out.unpaired;
    }
    return out;
}

}  // namespace spillway::torch_trace
