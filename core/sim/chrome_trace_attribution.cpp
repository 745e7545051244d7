#include "core/sim/chrome_trace_attribution.h"

#include <algorithm>
#include <tuple>
#include <unordered_map>

namespace spillway {

namespace {

// A tensor changing tier, from its residency intervals: in flight over [start, end) and then
// on `dest`, or (start == end) a switch from one tier to another at that instant.
struct Move {
    Nanoseconds start = 0;
    Nanoseconds end = 0;
    std::size_t tensor = 0;
    Residence dest = Residence::Gpu;
};

bool isTier(Residence r) { return r == Residence::Gpu || r == Residence::Host || r == Residence::Ssd; }

std::vector<Move> tensorMoves(const SimulationResult& result) {
    std::vector<Move> moves;
    for (std::size_t t = 0; t < result.tensorResidency.size(); ++t) {
        const auto& iv = result.tensorResidency[t];
        for (std::size_t i = 0; i < iv.size(); ++i) {
            if (iv[i].where == Residence::InFlight && i + 1 < iv.size() && isTier(iv[i + 1].where))
                moves.push_back({iv[i].start, iv[i].end, t, iv[i + 1].where});
            else if (i > 0 && isTier(iv[i].where) && isTier(iv[i - 1].where) && iv[i].where != iv[i - 1].where)
                moves.push_back({iv[i].start, iv[i].start, t, iv[i].where});
        }
    }
    std::sort(moves.begin(), moves.end(), [](const Move& a, const Move& b) { return a.start < b.start; });
    return moves;
}

// The tiers a transfer on `link` may leave a tensor on (an SSD->host hop stages a fetch to the
// GPU, so both). Empty for NVLink: shards of the running kernel, not a tensor's move.
std::vector<Residence> destinations(LinkId link) {
    switch (link) {
        case LinkId::HostToGpu:
        case LinkId::SsdToGpu: return {Residence::Gpu};
        case LinkId::SsdToHost: return {Residence::Gpu, Residence::Host};
        case LinkId::GpuToHost: return {Residence::Host, Residence::Ssd};
        case LinkId::GpuToSsd:
        case LinkId::HostToSsd: return {Residence::Ssd};
        case LinkId::NvLink: return {};
    }
    return {};
}

bool towardsGpu(LinkId link) {
    return link == LinkId::HostToGpu || link == LinkId::SsdToGpu || link == LinkId::SsdToHost;
}

// Run index of each profile position (plan.order, or program order when it is empty).
std::vector<std::int64_t> runIndexOfPosition(const Profile& profile, const Plan& plan) {
    std::vector<std::int64_t> runIndex(profile.kernels.size(), -1);
    for (std::size_t r = 0; r < profile.kernels.size(); ++r) {
        const std::int64_t pos = r < plan.order.size() ? plan.order[r] : static_cast<std::int64_t>(r);
        if (pos >= 0 && pos < static_cast<std::int64_t>(runIndex.size())) runIndex[static_cast<std::size_t>(pos)] = static_cast<std::int64_t>(r);
    }
    return runIndex;
}

std::int64_t positionOfRun(const Plan& plan, std::size_t run) {
    return run < plan.order.size() ? plan.order[run] : static_cast<std::int64_t>(run);
}

// Whether the kernel at run index `run` reads or writes the tensor at `tensorPos`.
bool kernelUses(const Profile& profile, const Plan& plan, std::size_t run, TensorId id) {
    const std::int64_t pos = positionOfRun(plan, run);
    if (pos < 0 || pos >= static_cast<std::int64_t>(profile.kernels.size())) return false;
    const Kernel& k = profile.kernels[static_cast<std::size_t>(pos)];
    return std::find(k.inputs.begin(), k.inputs.end(), id) != k.inputs.end() ||
           std::find(k.outputs.begin(), k.outputs.end(), id) != k.outputs.end();
}

// Whether a directive of `kind` for tensor `id` was issued in the reported iteration by `time`.
bool directiveIssuedBy(const Plan& plan, const SimulationResult& result, const std::vector<std::int64_t>& runIndex,
                       DirectiveKind kind, TensorId id, Nanoseconds time) {
    for (const Directive& d : plan.directives) {
        if (d.kind != kind || d.tensor != id) continue;
        if (d.kernelPos < 0 || d.kernelPos >= static_cast<std::int64_t>(runIndex.size())) continue;
        const std::int64_t r = runIndex[static_cast<std::size_t>(d.kernelPos)];
        if (r < 0 || r >= static_cast<std::int64_t>(result.kernels.size())) continue;
        const KernelTiming& k = result.kernels[static_cast<std::size_t>(r)];
        if ((d.afterKernel ? k.end : k.start) <= time) return true;
    }
    return false;
}

TransferCause causeOf(const Profile& profile, const Plan& plan, const SimulationResult& result,
                      const std::vector<std::int64_t>& runIndex, const TransferRecord& t, std::size_t tensorPos) {
    const TensorId id = profile.tensors[tensorPos].id;
    if (towardsGpu(t.link)) {
        // A demand fetch is issued when a kernel that faulted starts; its copies may queue.
        const auto after = std::upper_bound(result.kernels.begin(), result.kernels.end(), t.start,
                                            [](Nanoseconds x, const KernelTiming& k) { return x < k.start; });
        if (after != result.kernels.begin()) {
            const auto r = static_cast<std::size_t>(after - result.kernels.begin()) - 1;
            const KernelTiming& k = result.kernels[r];
            if (t.start < k.end && k.faultStall > 0 && kernelUses(profile, plan, r, id)) return TransferCause::Fault;
        }
        return directiveIssuedBy(plan, result, runIndex, DirectiveKind::Prefetch, id, t.start) ? TransferCause::Prefetch
                                                                                            : TransferCause::Fault;
    }
    return directiveIssuedBy(plan, result, runIndex, DirectiveKind::PreEvict, id, t.start) ? TransferCause::PreEvict
                                                                                        : TransferCause::Eviction;
}

}  // namespace

std::string_view toString(TransferCause cause) {
    switch (cause) {
        case TransferCause::Prefetch: return "prefetch";
        case TransferCause::PreEvict: return "pre-evict";
        case TransferCause::Fault: return "fault";
        case TransferCause::Eviction: return "eviction";
        case TransferCause::Unknown: return "unknown";
    }
    return "unknown";
}

std::vector<TransferAttribution> attributeTransfers(const Profile& profile, const Plan& plan,
                                                    const SimulationResult& result) {
    std::vector<TransferAttribution> out(result.transfers.size());
    if (result.tensorResidency.size() != profile.tensors.size()) return out;
    const std::vector<Move> moves = tensorMoves(result);
    Nanoseconds longest = 0;
    for (const Move& m : moves) longest = std::max(longest, m.end - m.start);
    const auto runIndex = runIndexOfPosition(profile, plan);

    for (std::size_t i = 0; i < result.transfers.size(); ++i) {
        const TransferRecord& t = result.transfers[i];
        const auto dest = destinations(t.link);
        // Moves that can touch [t.start, t.end]: started at most `longest` before it.
        auto it = std::lower_bound(moves.begin(), moves.end(), t.start - longest,
                                   [](const Move& m, Nanoseconds x) { return m.start < x; });
        // Best first: the tensor of exactly these bytes, then one that lands as the transfer
        // ends (its last block), then the longest overlap (a queue moves one tensor at a time,
        // but the others queued behind it are in flight too).
        struct Scored {
            bool sameBytes = false;
            bool landsAtEnd = false;
            Nanoseconds overlap = 0;
            std::size_t tensor = 0;
        };
        std::vector<Scored> scored;
        for (; it != moves.end() && it->start <= t.end; ++it) {
            if (std::find(dest.begin(), dest.end(), it->dest) == dest.end()) continue;
            const bool instant = it->start == it->end;
            const Nanoseconds overlap = std::min(it->end, t.end) - std::max(it->start, t.start);
            if (instant ? (it->start < t.start) : overlap <= 0) continue;
            scored.push_back({profile.tensors[it->tensor].bytes == t.bytes, it->end == t.end, instant ? 0 : overlap,
                              it->tensor});
        }
        std::stable_sort(scored.begin(), scored.end(), [](const Scored& a, const Scored& b) {
            return std::tie(a.sameBytes, a.landsAtEnd, a.overlap) > std::tie(b.sameBytes, b.landsAtEnd, b.overlap);
        });
        // A tensor matched by size or landing is the transfer's; the others only queued beside it.
        if (!scored.empty() && (scored.front().sameBytes || scored.front().landsAtEnd)) {
            const Scored best = scored.front();
            std::erase_if(scored, [&](const Scored& x) {
                return x.sameBytes != best.sameBytes || x.landsAtEnd != best.landsAtEnd;
            });
        }
        for (const auto& [sameBytes, landsAtEnd, overlap, tensor] : scored)
            if (std::find(out[i].tensorPositions.begin(), out[i].tensorPositions.end(), tensor) == out[i].tensorPositions.end())
                out[i].tensorPositions.push_back(tensor);
        if (!out[i].tensorPositions.empty())
            out[i].cause = causeOf(profile, plan, result, runIndex, t, out[i].tensorPositions.front());
    }
    return out;
}

std::vector<std::int64_t> stallWaits(const Profile& profile, const Plan& plan, const SimulationResult& result,
                                     const std::vector<TransferAttribution>& attributions) {
    std::vector<std::int64_t> waits(result.kernels.size(), -1);
    for (std::size_t r = 0; r < result.kernels.size(); ++r) {
        const KernelTiming& k = result.kernels[r];
        if (k.faultStall + k.latePrefetchStall <= 0) continue;
        // The data was there when the stall ended (room made by evicting on the critical path
        // comes first); the copy that ended last by then is what it waited for.
        const Nanoseconds stallEnd = k.start + k.faultStall + k.latePrefetchStall + k.oversubStall;
        std::int64_t best = -1;
        bool bestUsed = false;
        for (std::size_t i = 0; i < result.transfers.size(); ++i) {
            const TransferRecord& t = result.transfers[i];
            if (!towardsGpu(t.link) || t.link == LinkId::SsdToHost || t.end <= k.start || t.end > stallEnd) continue;
            bool used = false;
            if (i < attributions.size())
                for (std::size_t pos : attributions[i].tensorPositions)
                    used = used || kernelUses(profile, plan, r, profile.tensors[pos].id);
            const bool better = best < 0 || (used && !bestUsed) ||
                                (used == bestUsed && t.end >= result.transfers[static_cast<std::size_t>(best)].end);
            if (better) {
                best = static_cast<std::int64_t>(i);
                bestUsed = used;
            }
        }
        waits[r] = best;
    }
    return waits;
}

}  // namespace spillway
