#include "runtime/replay/replay_slot_order.h"

#include <algorithm>
#include <numeric>

namespace spillway::replay {

namespace {

bool contains(const std::vector<std::int32_t>& v, std::int32_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

bool touchesAny(const std::vector<std::int32_t>& touched, const std::vector<std::int32_t>& tensors) {
    return std::any_of(touched.begin(), touched.end(), [&](std::int32_t t) { return contains(tensors, t); });
}

void addWait(std::vector<ReplayDependency>& waits, ReplayDependency dep) {
    const bool seen = std::any_of(waits.begin(), waits.end(), [&](const ReplayDependency& w) {
        return w.directive == dep.directive && w.previousIteration == dep.previousIteration;
    });
    if (!seen) waits.push_back(dep);
}

}  // namespace

std::vector<std::vector<std::int32_t>> overlappingTensors(const std::vector<ArenaRange>& tensors) {
    std::vector<std::int32_t> byOffset;
    for (std::size_t t = 0; t < tensors.size(); ++t)
        if (tensors[t].bytes > 0) byOffset.push_back(static_cast<std::int32_t>(t));
    std::sort(byOffset.begin(), byOffset.end(), [&](std::int32_t a, std::int32_t b) { return tensors[a].offset < tensors[b].offset; });
    std::vector<std::vector<std::int32_t>> out(tensors.size());
    for (std::size_t i = 0; i < byOffset.size(); ++i) {
        const ArenaRange& a = tensors[byOffset[i]];
        for (std::size_t j = i + 1; j < byOffset.size() && tensors[byOffset[j]].offset < a.offset + a.bytes; ++j) {
            out[byOffset[i]].push_back(byOffset[j]);
            out[byOffset[j]].push_back(byOffset[i]);
        }
    }
    return out;
}

std::vector<std::int64_t> slotSafeKeys(const std::vector<SlotDirective>& directives,
                                       const std::vector<std::vector<std::int32_t>>& touched,
                                       const std::vector<std::vector<std::int32_t>>& overlapping, std::size_t& moved) {
    const auto n = static_cast<std::int64_t>(touched.size());
    std::vector<std::int64_t> keys;
    moved = 0;
    for (const SlotDirective& d : directives) {
        keys.push_back(d.key);
        if (!d.prefetch || overlapping[d.tensor].empty() || n == 0) continue;
        // The kernels from the anchor up to the tensor's next use, wrapping into the next
        // iteration; the last of them that touches a tensor sharing the slot.
        const std::int64_t first = (d.key + 1) / 2;
        std::int64_t lastUser = -1;
        for (std::int64_t step = 0; step < n; ++step) {
            const std::int64_t r = (first + step) % n;
            if (contains(touched[r], d.tensor)) break;
            if (touchesAny(touched[r], overlapping[d.tensor])) lastUser = r;
        }
        if (lastUser >= 0 && 2 * lastUser + 1 != d.key) {
            keys.back() = 2 * lastUser + 1;
            ++moved;
        }
    }
    return keys;
}

std::vector<char> prefetchesAfterDrops(const std::vector<SlotDirective>& directives, std::vector<std::int64_t>& keys,
                                       const std::vector<std::vector<std::int32_t>>& touched,
                                       const std::vector<std::vector<std::int32_t>>& overlapping, std::size_t& reordered) {
    const auto n = static_cast<std::int64_t>(touched.size());
    std::vector<char> last(directives.size(), 0);
    reordered = 0;
    for (std::size_t i = 0; i < directives.size(); ++i) {
        const SlotDirective& d = directives[i];
        if (!d.prefetch || overlapping[d.tensor].empty()) continue;
        // The prefetch's window: from its anchor to its tensor's next use in this iteration.
        std::int64_t use = 2 * n;
        for (std::int64_t r = (keys[i] + 1) / 2; r < n; ++r)
            if (contains(touched[r], d.tensor)) {
                use = 2 * r;
                break;
            }
        std::int64_t latestDrop = -1;
        for (std::size_t k = 0; k < directives.size(); ++k)
            if (!directives[k].prefetch && keys[k] >= keys[i] && keys[k] <= use &&
                contains(overlapping[d.tensor], directives[k].tensor))
                latestDrop = std::max(latestDrop, keys[k]);
        if (latestDrop < 0) continue;
        last[i] = 1;
        keys[i] = latestDrop;
        ++reordered;
    }
    return last;
}

void addSlotWaits(ReplayProgram& program, const std::vector<std::vector<std::int32_t>>& touched,
                  const std::vector<std::vector<std::int32_t>>& overlapping) {
    const std::size_t anchors = program.anchorBegin.empty() ? 0 : program.anchorBegin.size() - 1;
    std::vector<std::int64_t> lastOut(program.tensors.size(), -1);
    auto scan = [&](std::size_t a, bool wire, const std::vector<std::int64_t>& atEnd) {
        for (std::size_t j = program.anchorBegin[a]; j < program.anchorBegin[a + 1]; ++j) {
            ReplayDirective& d = program.directives[j];
            if (wire && d.action == ReplayAction::Prefetch)
                for (std::int32_t other : overlapping[d.tensor]) {
                    if (lastOut[other] >= 0) addWait(d.slotWaits, {static_cast<std::size_t>(lastOut[other]), false});
                    else if (atEnd[other] >= 0) addWait(d.slotWaits, {static_cast<std::size_t>(atEnd[other]), true});
                }
            if (d.stream == SideStream::Out) lastOut[d.tensor] = static_cast<std::int64_t>(j);
        }
    };
    // The first pass finds what the iteration before leaves; the second wires the waits.
    const std::vector<std::int64_t> none(program.tensors.size(), -1);
    for (std::size_t a = 0; a < anchors; ++a) scan(a, false, none);
    const std::vector<std::int64_t> atEnd = lastOut;
    std::fill(lastOut.begin(), lastOut.end(), -1);
    for (std::size_t r = 0; r < program.kernels.size(); ++r) {
        scan(2 * r, true, atEnd);
        ReplayKernel& k = program.kernels[r];
        for (std::int32_t mine : touched[r])
            for (std::int32_t other : overlapping[mine]) {
                if (contains(touched[r], other)) continue;
                if (lastOut[other] >= 0) addWait(k.waitsFor, {static_cast<std::size_t>(lastOut[other]), false});
                else if (atEnd[other] >= 0) addWait(k.waitsFor, {static_cast<std::size_t>(atEnd[other]), true});
            }
        scan(2 * r + 1, true, atEnd);
    }
}

}  // namespace spillway::replay
