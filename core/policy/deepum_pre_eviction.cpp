#include "core/policy/deepum_pre_eviction.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>

namespace spillway {
namespace {

constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();

// When each tensor is used, over the repeating iteration (positions unwrapped).
class UseTimeline {
public:
    UseTimeline(const Profile& profile, const ProfileIndex& index)
        : n_(static_cast<std::int64_t>(profile.kernels.size())), uses_(profile.tensors.size()) {
        for (std::int64_t k = 0; k < n_; ++k) {
            const auto& kernel = profile.kernels[static_cast<size_t>(k)];
            for (const auto* list : {&kernel.inputs, &kernel.outputs})
                for (auto id : *list)
                    if (const auto t = index.tensorPos(id); t >= 0) {
                        auto& u = uses_[static_cast<size_t>(t)];
                        if (u.empty() || u.back() != k) u.push_back(k);
                    }
        }
    }
    // First use at or after unwrapped position p; kNever for a tensor no kernel uses.
    std::int64_t nextUse(std::int64_t t, std::int64_t p) const {
        const auto& u = uses_[static_cast<size_t>(t)];
        if (u.empty()) return kNever;
        const auto base = p - p % n_;
        const auto it = std::lower_bound(u.begin(), u.end(), p % n_);
        return it != u.end() ? base + *it : base + n_ + u.front();
    }
    // Last use before unwrapped position p (an iteration back at most); -kNever if none.
    std::int64_t lastUse(std::int64_t t, std::int64_t p) const {
        const auto& u = uses_[static_cast<size_t>(t)];
        if (u.empty()) return -kNever;
        const auto base = p - p % n_;
        const auto it = std::lower_bound(u.begin(), u.end(), p % n_);
        return it != u.begin() ? base + *std::prev(it) : base - n_ + u.back();
    }
    bool usedAt(std::int64_t t, std::int64_t p) const { return nextUse(t, p) == p; }

private:
    std::int64_t n_;
    std::vector<std::vector<std::int64_t>> uses_;
};

// The link UVM evicts over: host memory when the machine has some, else the SSD (as MOST's
// stall model reads the machine, most_stall_model.cpp).
std::pair<const LinkSpec*, Tier> evictionLink(const HardwareConfig& hw) {
    if (hw.hostCapacity > 0 && hw.gpuToHost.bytesPerSecond > 0) return {&hw.gpuToHost, Tier::Host};
    if (hw.gpuToSsd.bytesPerSecond > 0) return {&hw.gpuToSsd, Tier::Ssd};
    return {&hw.gpuToHost, Tier::Host};
}

// Replays the plan's prefetches and the kernels' uses at tensor granularity, predicting what is
// resident, and pre-evicts where a prefetch would overfill the GPU.
class PreEvictionReplay {
public:
    PreEvictionReplay(const Profile& profile, const HardwareConfig& hw, const Plan& plan)
        : profile_(profile), hw_(hw), index_(profile), uses_(profile, index_),
          n_(static_cast<std::int64_t>(profile.kernels.size())), prefetchesAt_(static_cast<size_t>(n_)) {
        for (const auto& d : plan.directives)
            if (d.kind == DirectiveKind::Prefetch) {
                const auto t = index_.tensorPos(d.tensor);
                prefetchesAt_[static_cast<size_t>(d.kernelPos)].push_back({t, d.keepUntil});
                refetched_.insert({t, d.keepUntil});
            }
        if (hw.weightsStartOn == Tier::Gpu)
            for (size_t t = 0; t < profile.tensors.size(); ++t)
                if (profile.tensors[t].persistent) admit(static_cast<std::int64_t>(t));
    }

    // Pass 0 warms the prediction up; pass 1 issues the directives.
    std::vector<Directive> run() {
        for (int pass = 0; pass < 2; ++pass)
            for (std::int64_t i = 0; i < n_; ++i) step(pass * n_ + i, pass == 1);
        return out_;
    }

private:
    Bytes footprint(std::int64_t t) const {
        const Bytes b = profile_.tensors[static_cast<size_t>(t)].bytes;
        return hw_.blockSize > 0 ? (b + hw_.blockSize - 1) / hw_.blockSize * hw_.blockSize : b;
    }
    void admit(std::int64_t t) {
        if (resident_.insert(t).second) used_ += footprint(t);
    }
    void remove(std::int64_t t) {
        if (resident_.erase(t)) used_ -= footprint(t);
    }

    void step(std::int64_t p, bool emit) {
        const auto i = p % n_;
        for (const auto& [t, keepUntil] : prefetchesAt_[static_cast<size_t>(i)]) {
            if (t < 0) continue;
            const auto keep = keepUntil < 0 ? p : p - i + keepUntil + (keepUntil < i ? n_ : 0);
            kept_[t] = std::max(kept_[t], keep);
            if (resident_.count(t)) continue;
            makeRoom(footprint(t), p, keep, true, emit);
            admit(t);
        }
        // The kernel runs: what it uses is on the GPU (faulted in if the prefetch missed); the
        // driver's eviction makes the room, which we predict as farthest next use first.
        const auto& kernel = profile_.kernels[static_cast<size_t>(i)];
        for (const auto* list : {&kernel.inputs, &kernel.outputs})
            for (auto id : *list)
                if (const auto t = index_.tensorPos(id); t >= 0 && !resident_.count(t)) {
                    makeRoom(footprint(t), p, p, false, false);
                    admit(t);
                }
    }

    // Frees `need` bytes before position p by evicting resident tensors whose next use lies after
    // `servedAt` (the launch the incoming tensor serves; p for a demand fault), the farthest
    // first; nothing running at p, nothing still kept for a predicted launch. Ahead of need (for
    // a prefetch) only what comes back freely, and each one is a directive when `emit`.
    void makeRoom(Bytes need, std::int64_t p, std::int64_t servedAt, bool ahead, bool emit) {
        while (used_ + need > hw_.gpuCapacity) {
            // Ahead of need, dead tensors go first (dropped without a write-back).
            std::int64_t victim = -1;
            std::pair<bool, std::int64_t> best{false, servedAt};
            for (auto t : resident_) {
                if (auto k = kept_.find(t); k != kept_.end() && k->second >= p) continue;
                if (ahead && !comesBackFreely(t, p)) continue;
                const auto next = uses_.nextUse(t, p);
                if (next <= servedAt) continue;
                const std::pair<bool, std::int64_t> key{ahead && dead(t, p), next};
                if (victim < 0 || key > best) victim = t, best = key;  // ties: lowest position
            }
            if (victim < 0) return;
            remove(victim);
            if (emit) issue(victim, p);
        }
    }

    // Pre-evicting is only worth it when the tensor costs no fault later: it is dead until the
    // next iteration (a temporary, activation or gradient after its last use: the simulator
    // drops its blocks without a write-back), or DeepUM prefetches it again for its next use.
    bool comesBackFreely(std::int64_t t, std::int64_t p) const {
        return dead(t, p) || refetched_.count({t, uses_.nextUse(t, p) % n_}) != 0;
    }
    bool dead(std::int64_t t, std::int64_t p) const {
        const auto next = uses_.nextUse(t, p);
        return next == kNever || (!profile_.tensors[static_cast<size_t>(t)].persistent && next >= p - p % n_ + n_);
    }

    // Early enough that the room is there when the prefetch at p lands: back from p by the
    // kernels that cover the eviction's transfer time, but not before the victim's last use.
    void issue(std::int64_t t, std::int64_t p) {
        const auto [link, target] = evictionLink(hw_);
        const Bytes bytes = footprint(t);
        const Nanoseconds transfer =
            link->latency + (link->bytesPerSecond > 0 ? bytes * 1'000'000'000 / link->bytesPerSecond : 0);
        const auto last = uses_.lastUse(t, p);
        std::int64_t at = p;
        Nanoseconds covered = 0;
        for (std::int64_t k = p - 1; k > last && k > p - n_ && covered < transfer; --k) {
            covered += profile_.kernels[static_cast<size_t>(((k % n_) + n_) % n_)].duration;
            at = k;
        }
        out_.push_back({((at % n_) + n_) % n_, DirectiveKind::PreEvict, profile_.tensors[static_cast<size_t>(t)].id, target});
    }

    const Profile& profile_;
    const HardwareConfig& hw_;
    ProfileIndex index_;
    UseTimeline uses_;
    std::int64_t n_;
    std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> prefetchesAt_;
    std::set<std::int64_t> resident_;          // ordered: victim ties go to the lowest position
    std::map<std::int64_t, std::int64_t> kept_;  // tensor -> last predicted launch it is kept for
    std::set<std::pair<std::int64_t, std::int64_t>> refetched_;  // (tensor, launch) DeepUM prefetches for
    Bytes used_ = 0;
    std::vector<Directive> out_;
};

}  // namespace

DeepUmPreEvictions addDeepUmPreEvictions(const Profile& profile, const HardwareConfig& hardware, Plan& plan) {
    DeepUmPreEvictions stats;
    if (profile.kernels.empty()) return stats;
    auto evictions = PreEvictionReplay(profile, hardware, plan).run();
    const ProfileIndex index(profile);
    for (const auto& d : evictions) {
        ++stats.count;
        stats.bytes += profile.tensors[static_cast<size_t>(index.tensorPos(d.tensor))].bytes;
    }
    plan.directives.insert(plan.directives.begin(), evictions.begin(), evictions.end());
    std::stable_sort(plan.directives.begin(), plan.directives.end(), [](const Directive& a, const Directive& b) {
        if (a.kernelPos != b.kernelPos) return a.kernelPos < b.kernelPos;
        return a.kind == DirectiveKind::PreEvict && b.kind != DirectiveKind::PreEvict;
    });
    return stats;
}

}  // namespace spillway
