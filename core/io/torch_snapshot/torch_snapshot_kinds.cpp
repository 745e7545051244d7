#include "core/io/torch_snapshot/torch_snapshot_kinds.h"

#include <algorithm>
#include <limits>
#include <string_view>
#include <unordered_map>

namespace spillway {

namespace {

using K = TensorKind;
const SnapshotKindRule kWeight{"persistent-with-gradient", "live through the iteration, one per gradient of its size", K::Weight, false};
const SnapshotKindRule kState{"persistent-beyond-gradients", "live through the iteration, more of its size than gradients: optimizer state", K::OptimizerState, false};
const SnapshotKindRule kWorkspace{"persistent-power-of-two-mib", "live through the iteration, no gradient of its size, a power-of-two MiB: a library workspace (cuBLAS keeps one per stream)", K::Workspace, true};
const SnapshotKindRule kKeptInput{"persistent-no-gradient", "live through the iteration, no gradient of its size: an input batch, a buffer or a frozen parameter", K::Input, true};
const SnapshotKindRule kNoBackward{"persistent-no-backward", "live through the iteration, which has no backward pass", K::Weight, false};
const SnapshotKindRule kGradient{"gradient", "made before the optimizer step, the size of a persistent tensor, freed after the iteration's last allocation (zero_grad) or kept to its end", K::Gradient, false};
const SnapshotKindRule kActivation{"activation", "made in forward (before live bytes peak), freed after the peak", K::Activation, false};
const SnapshotKindRule kForwardTemp{"forward-temporary", "made and freed in forward", K::Temporary, false};
const SnapshotKindRule kBackwardTemp{"backward-temporary", "made in backward, not a gradient", K::Temporary, false};
const SnapshotKindRule kOptimizerTemp{"optimizer-temporary", "made in the optimizer step", K::Temporary, false};
const SnapshotKindRule kUnplacedPersistent{"unplaced-persistent", "in no complete iteration, live to the end", K::Weight, true};
const SnapshotKindRule kUnplaced{"unplaced", "in no complete iteration (the trace holds only its end)", K::Activation, true};

constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();
constexpr Bytes kMiB = 1 << 20;

bool persistent(const SnapshotAllocation& a) { return a.allocEvent < 0 && a.freeEvent < 0; }
std::int64_t freedAt(const SnapshotAllocation& a) { return a.freeEvent < 0 ? kNever : a.freeEvent; }

bool isPowerOfTwoMiB(Bytes b) { return b >= kMiB && b % kMiB == 0 && ((b / kMiB) & (b / kMiB - 1)) == 0; }

bool inOptimizerFrames(const SnapshotAllocation& a) {
    if (!a.frames) return false;
    return std::any_of(a.frames->begin(), a.frames->end(), [](const std::string& f) {
        return f.find("/optim/") != std::string::npos || f.starts_with("optim/");
    });
}

SnapshotIterationShape findShape(const std::vector<SnapshotAllocation>& it, std::int64_t eventCount) {
    std::vector<Bytes> delta(static_cast<size_t>(eventCount) + 1, 0);
    std::int64_t lastAlloc = -1;
    for (const auto& a : it) {
        if (a.allocEvent >= 0) delta[static_cast<size_t>(a.allocEvent)] += a.bytes;
        if (a.freeEvent >= 0) delta[static_cast<size_t>(a.freeEvent)] -= a.bytes;
        lastAlloc = std::max(lastAlloc, a.allocEvent);
    }
    SnapshotIterationShape shape;
    if (lastAlloc < 0) return shape;
    Bytes live = 0, peak = std::numeric_limits<Bytes>::min();
    for (std::int64_t e = 0; e <= lastAlloc; ++e) {
        live += delta[static_cast<size_t>(e)];
        if (live > peak) {
            peak = live;
            shape.forwardEnd = e;
        }
    }
    std::int64_t lastActivationFree = shape.forwardEnd;
    for (const auto& a : it)
        if (a.allocEvent <= shape.forwardEnd && a.freeEvent > shape.forwardEnd && a.freeEvent < lastAlloc)
            lastActivationFree = std::max(lastActivationFree, a.freeEvent);
    shape.optimizerStart = lastAlloc + 1;
    for (const auto& a : it)
        if (a.allocEvent > lastActivationFree) shape.optimizerStart = std::min(shape.optimizerStart, a.allocEvent);
    return shape;
}

class Classifier {
public:
    Classifier(const std::vector<SnapshotAllocation>& it, std::int64_t eventCount)
        : it_(it), shape_(findShape(it, eventCount)) {
        for (const auto& a : it) lastAlloc_ = std::max(lastAlloc_, a.allocEvent);
    }

    SnapshotKinds run() {
        out_.rules.assign(it_.size(), nullptr);
        out_.shape = shape_;
        findGradients();
        out_.shape.training = gradientCount_ > 0;
        classifyPersistent();
        for (size_t i = 0; i < it_.size(); ++i)
            if (!out_.rules[i]) out_.rules[i] = transient(it_[i]);
        return std::move(out_);
    }

private:
    const std::vector<SnapshotAllocation>& it_;
    SnapshotIterationShape shape_;
    std::int64_t lastAlloc_ = -1;
    SnapshotKinds out_;
    std::unordered_map<Bytes, std::int64_t> gradients_;  // per size
    std::int64_t gradientCount_ = 0;

    // In allocation order, at most as many per size as there are persistent tensors of it.
    void findGradients() {
        std::unordered_map<Bytes, std::int64_t> persistentOfSize;
        for (const auto& a : it_)
            if (persistent(a)) ++persistentOfSize[a.bytes];
        std::vector<size_t> order;
        for (size_t i = 0; i < it_.size(); ++i)
            if (it_[i].allocEvent >= 0) order.push_back(i);
        std::sort(order.begin(), order.end(), [&](size_t x, size_t y) { return it_[x].allocEvent < it_[y].allocEvent; });
        for (auto i : order) {
            const auto& a = it_[i];
            if (a.allocEvent >= shape_.optimizerStart || freedAt(a) <= lastAlloc_) continue;
            auto p = persistentOfSize.find(a.bytes);
            if (p == persistentOfSize.end() || gradients_[a.bytes] >= p->second) continue;
            ++gradients_[a.bytes];
            ++gradientCount_;
            out_.rules[i] = &kGradient;
        }
    }

    // Per size: as many weights as gradients, the rest optimizer state; blocks allocated in
    // torch/optim are taken as the state first.
    void classifyPersistent() {
        std::unordered_map<Bytes, std::vector<size_t>> bySize;
        for (size_t i = 0; i < it_.size(); ++i)
            if (persistent(it_[i])) bySize[it_[i].bytes].push_back(i);
        for (auto& [size, members] : bySize) {
            std::stable_partition(members.begin(), members.end(), [&](size_t i) { return !inOptimizerFrames(it_[i]); });
            const auto weights = gradients_.contains(size) ? gradients_[size] : 0;
            for (size_t k = 0; k < members.size(); ++k) {
                const SnapshotKindRule* rule = &kState;
                if (gradientCount_ == 0) rule = &kNoBackward;
                else if (weights == 0) rule = isPowerOfTwoMiB(size) ? &kWorkspace : &kKeptInput;
                else if (static_cast<std::int64_t>(k) < weights) rule = &kWeight;
                out_.rules[members[k]] = rule;
            }
        }
    }

    const SnapshotKindRule* transient(const SnapshotAllocation& a) const {
        const auto b = shape_.forwardEnd;
        if (a.allocEvent <= b && freedAt(a) > b) return &kActivation;
        if (a.allocEvent <= b) return &kForwardTemp;
        return a.allocEvent >= shape_.optimizerStart ? &kOptimizerTemp : &kBackwardTemp;
    }
};

}  // namespace

SnapshotKinds classifySnapshotIteration(const std::vector<SnapshotAllocation>& iteration, std::int64_t eventCount) {
    return Classifier(iteration, eventCount).run();
}

const SnapshotKindRule& unplacedSnapshotRule(bool isPersistent) {
    return isPersistent ? kUnplacedPersistent : kUnplaced;
}

}  // namespace spillway
