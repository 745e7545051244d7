#include "core/policy/fault_free_completion.h"

#include "core/analysis/liveness.h"
#include "core/analysis/working_set.h"
#include "core/policy/plan_residency.h"
#include "core/trace/format_units.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

namespace spillway {

namespace {

std::string refusalMessage(std::int64_t pos, const std::string& name, Bytes tensors, std::int64_t count, Bytes workspace,
                           Bytes gpu, const std::string& hardware, std::int64_t over) {
    return fmt::format("no plan can run kernel {} '{}' without faults on '{}': its working set is {} ({} bytes: {} "
                       "tensor{}, {}, and {} of workspace), more than the GPU's capacity of {} ({} bytes){}",
                       pos, name, hardware, readableBytes(tensors + workspace), tensors + workspace, count,
                       count == 1 ? "" : "s", readableBytes(tensors), readableBytes(workspace), readableBytes(gpu), gpu,
                       over > 1 ? fmt::format("; {} kernels do not fit", over) : std::string());
}

// The kinds of room-making, cheapest first: a tensor leaves earlier (no new copy), a prefetch
// comes later (no new copy), a tensor goes out and comes back (two copies).
enum class Room { LeavesEarlier, PrefetchLater, RoundTrip };

// One change to a tensor's residency: off the GPU over unrolled positions [from, to) (taken
// modulo the kernel count).
struct Victim {
    std::int64_t tensor = -1;
    std::int64_t from = 0, to = 0;
    Room room = Room::RoundTrip;
};

class FaultFreeCompletion {
public:
    FaultFreeCompletion(const Profile& profile, const HardwareConfig& hardware, Tier spillTo, Plan& plan)
        : profile_(profile), hw_(hardware), plan_(plan), n_(static_cast<std::int64_t>(profile.kernels.size())),
          liveness_(computeLiveness(profile)), index_(profile) {
        // A tensor the planner pre-evicts keeps its planner's target (its first pre-evict's).
        targetOf_.assign(profile.tensors.size(), spillTo);
        std::vector<bool> seen(profile.tensors.size(), false);
        for (const Directive& d : plan.directives) {
            const auto t = index_.tensorPos(d.tensor);
            if (t < 0 || d.kind != DirectiveKind::PreEvict || seen[static_cast<std::size_t>(t)]) continue;
            seen[static_cast<std::size_t>(t)] = true;
            targetOf_[static_cast<std::size_t>(t)] = d.target;
        }
        for (const Tensor& tensor : profile.tensors) idOf_.push_back(tensor.id);
    }

    void run() {
        orderForRoom();
        const PlanResidency before = planResidency(profile_, hw_, plan_);
        onGpu_ = before.onGpu;
        occupancy_ = before.occupancy;
        dirty_.assign(profile_.tensors.size(), false);
        for (std::size_t t = 0; t < profile_.tensors.size(); ++t)
            for (const std::int64_t use : before.faults[t]) serve(static_cast<std::int64_t>(t), use);
        for (std::int64_t k = 0; k < n_; ++k)
            if (occupancy_[static_cast<std::size_t>(k)] > hw_.gpuCapacity) makeRoom(k);
        rewriteDirtyTensors();
        PlanResidency after = planResidency(profile_, hw_, plan_);
        if (firstIterationOver(after)) {
            evictStartingWeights(after);
            after = planResidency(profile_, hw_, plan_);
        }
        check(after);
        plan_.allowFaults = false;
        plan_.notes["fault_free"] = "yes";
        plan_.notes["fault_free_faults_served"] = std::to_string(before.faultCount());
        plan_.notes["fault_free_leaves_moved_earlier"] = std::to_string(counts_[0]);
        plan_.notes["fault_free_prefetches_moved_later"] = std::to_string(counts_[1]);
        plan_.notes["fault_free_round_trips_added"] = std::to_string(counts_[2]);
        plan_.notes["fault_free_peak_bytes"] =
            std::to_string(*std::max_element(after.occupancy.begin(), after.occupancy.end()));
    }

private:
    std::size_t mod(std::int64_t k) const { return static_cast<std::size_t>(((k % n_) + n_) % n_); }
    bool isUse(std::int64_t t, std::int64_t k) const {
        const auto& uses = liveness_.tensors[static_cast<std::size_t>(t)].uses;
        return std::binary_search(uses.begin(), uses.end(), static_cast<std::int32_t>(mod(k)));
    }
    bool on(std::int64_t t, std::int64_t k) const { return onGpu_[static_cast<std::size_t>(t)][mod(k)]; }
    Bytes bytesOf(std::int64_t t) const { return profile_.tensors[static_cast<std::size_t>(t)].bytes; }

    // Whether the data of tensor t must survive leaving the GPU at position `leave` (until its
    // next use, with no use in between): always for a persistent tensor; for another only after
    // its first use and up to its last read (a later read then lies in the same iteration).
    // Otherwise the data is dead: it is freed, and its next use starts it afresh.
    bool dataLives(std::int64_t t, std::int64_t leave) const {
        const TensorLiveness& l = liveness_.tensors[static_cast<std::size_t>(t)];
        const auto at = static_cast<std::int64_t>(mod(leave));
        return l.persistent || (l.firstUse < at && at <= l.lastRead);
    }

    // How long the tensor takes to come back from where it is sent.
    Nanoseconds returnTime(std::int64_t t) const {
        const Bytes bytes = bytesOf(t);
        auto over = [&](const LinkSpec& link) { return link.latency + transferTime(link, bytes); };
        if (targetOf_[static_cast<std::size_t>(t)] == Tier::Host) return over(hw_.hostToGpu);
        if (hw_.ssdToGpu.bytesPerSecond > 0) return over(hw_.ssdToGpu);
        return over(hw_.ssdToHost) + over(hw_.hostToGpu);
    }
    // The latest position (unrolled, at least `earliest`, at most `use`) at which a prefetch
    // of t still lands before `use` starts, by kernel durations on a free link.
    std::int64_t latestInTime(std::int64_t t, std::int64_t use, std::int64_t earliest) const {
        const Nanoseconds need = returnTime(t);
        std::int64_t p = use;
        Nanoseconds lead = 0;
        while (p > earliest && lead < need) lead += profile_.kernels[mod(--p)].duration;
        return p;
    }

    void setOn(std::int64_t t, std::int64_t from, std::int64_t to, bool value) {
        for (std::int64_t k = from; k < to; ++k) {
            auto&& bit = onGpu_[static_cast<std::size_t>(t)][mod(k)];
            if (bit == value) continue;
            bit = value;
            occupancy_[mod(k)] += value ? bytesOf(t) : -bytesOf(t);
        }
        dirty_[static_cast<std::size_t>(t)] = true;
    }

    // A use that finds t on host/SSD: bring it back in time, or as early as it can come.
    void serve(std::int64_t t, std::int64_t use) {
        dirty_[static_cast<std::size_t>(t)] = true;
        std::int64_t last = use - 1;  // the last position before the use with t on the GPU
        while (last > use - n_ && !on(t, last)) --last;
        // Dead data is freed instead, and the use starts it afresh (no fault).
        if (!dataLives(t, last + 1)) return;
        // It left at last + 1 (a pre-evict, never at a kernel that uses it): back from last + 2 on.
        setOn(t, latestInTime(t, use, last + 2), use, true);
    }

    std::optional<Victim> victimAt(std::int64_t t, std::int64_t k) const {
        if (!on(t, k) || isUse(t, k)) return std::nullopt;
        Victim v;
        v.tensor = t;
        std::int64_t back = k - 1;
        while (back > k - n_ && on(t, back) && !isUse(t, back)) --back;
        const bool enteredUnused = !on(t, back);  // a prefetch with no use since
        v.from = back + 1;
        std::int64_t ahead = k + 1;
        while (ahead < v.from + n_ && on(t, ahead) && !isUse(t, ahead)) ++ahead;
        if (ahead >= v.from + n_ || !on(t, ahead)) {  // it leaves (or is never used) without a use first
            v.to = ahead;
            v.room = Room::LeavesEarlier;
            return v;
        }
        v.to = latestInTime(t, ahead, k + 1);
        v.room = enteredUnused ? Room::PrefetchLater : dataLives(t, v.from) ? Room::RoundTrip : Room::LeavesEarlier;
        return v;
    }

    // What a change frees: bytes x kernels (MOST's benefit, size x interval).
    __extension__ __int128 area(const Victim& v) const {
        return __extension__ static_cast<__int128>(bytesOf(v.tensor)) * (v.to - v.from);
    }

    // Room at kernel k: the cheapest kind of change first, then the one that frees the most
    // (ties: the lower tensor position). Changes to different tensors do not interact, so the
    // candidates are ranked once and taken in turn until the kernel fits.
    void makeRoom(std::int64_t k) {
        std::vector<Victim> candidates;
        for (std::int64_t t = 0; t < static_cast<std::int64_t>(profile_.tensors.size()); ++t)
            if (const auto v = victimAt(t, k)) candidates.push_back(*v);
        std::stable_sort(candidates.begin(), candidates.end(), [&](const Victim& a, const Victim& b) {
            return std::pair(a.room, -area(a)) < std::pair(b.room, -area(b));
        });
        for (const Victim& v : candidates) {
            if (occupancy_[mod(k)] <= hw_.gpuCapacity) return;
            ++counts_[static_cast<int>(v.room)];
            setOn(v.tensor, v.from, v.to, false);
        }
        if (occupancy_[mod(k)] <= hw_.gpuCapacity) return;
        // Only the kernel's own tensors are left: its working set does not fit.
        requireWorkingSetsFit(profile_, hw_);
        throw std::logic_error(fmt::format("fault-free planning: kernel {} has nothing left to evict", k));
    }

    // Issue order within a kernel position: what frees memory before what takes it, so that a
    // prefetch finds the room the model counts on.
    void orderForRoom() {
        std::stable_sort(plan_.directives.begin(), plan_.directives.end(), [](const Directive& a, const Directive& b) {
            const auto rank = [](const Directive& d) { return d.kind == DirectiveKind::Prefetch ? 1 : 0; };
            return std::pair(a.kernelPos, rank(a)) < std::pair(b.kernelPos, rank(b));
        });
    }

    // A changed tensor's directives, written anew from its residency: a prefetch where it comes
    // onto the GPU, a pre-evict (its data lives on) or a free (dead data) where it leaves.
    void rewriteDirtyTensors() {
        std::erase_if(plan_.directives, [&](const Directive& d) {
            const auto t = index_.tensorPos(d.tensor);
            return t >= 0 && dirty_[static_cast<std::size_t>(t)];
        });
        for (std::int64_t t = 0; t < static_cast<std::int64_t>(profile_.tensors.size()); ++t) {
            if (!dirty_[static_cast<std::size_t>(t)]) continue;
            const TensorId id = idOf_[static_cast<std::size_t>(t)];
            for (std::int64_t k = 0; k < n_; ++k) {
                const bool was = on(t, k - 1), is = on(t, k);
                if (!was && is) plan_.directives.push_back({k, DirectiveKind::Prefetch, id, Tier::Gpu});
                if (was && !is) {
                    if (dataLives(t, k))
                        plan_.directives.push_back({k, DirectiveKind::PreEvict, id, targetOf_[static_cast<std::size_t>(t)]});
                    else
                        plan_.directives.push_back({k, DirectiveKind::Free, id, Tier::Gpu});
                }
            }
        }
        orderForRoom();
    }

    bool firstIterationOver(const PlanResidency& r) const {
        return std::any_of(r.occupancyFirst.begin(), r.occupancyFirst.end(), [&](Bytes b) { return b > hw_.gpuCapacity; });
    }
    // Weights that start on the GPU stay there in the first iteration until their first
    // directive; those the steady state has off the GPU at kernel 0 leave there.
    void evictStartingWeights(const PlanResidency& r) {
        for (std::size_t t = 0; t < profile_.tensors.size(); ++t)
            if (liveness_.tensors[t].persistent && !r.onGpu[t][0] && r.onGpuFirst[t][0])
                plan_.directives.push_back({0, DirectiveKind::PreEvict, idOf_[t], targetOf_[t]});
        orderForRoom();
    }

    void check(const PlanResidency& r) const {
        for (std::int64_t k = 0; k < n_; ++k)
            if (r.occupancy[mod(k)] > hw_.gpuCapacity || r.occupancyFirst[mod(k)] > hw_.gpuCapacity)
                throw std::logic_error(fmt::format("fault-free planning left kernel {} over the GPU's capacity", k));
        if (r.faultCount() > 0) throw std::logic_error("fault-free planning left a use without its data");
    }

    const Profile& profile_;
    const HardwareConfig& hw_;
    Plan& plan_;
    const std::int64_t n_;
    const Liveness liveness_;
    const ProfileIndex index_;
    std::vector<Tier> targetOf_;
    std::vector<TensorId> idOf_;
    std::vector<std::vector<bool>> onGpu_;
    std::vector<Bytes> occupancy_;
    std::vector<bool> dirty_;
    std::int64_t counts_[3] = {0, 0, 0};
};

}  // namespace

FaultFreePlanImpossible::FaultFreePlanImpossible(std::int64_t pos, std::string name, Bytes tensors, std::int64_t count,
                                                 Bytes workspace, Bytes gpu, std::string hardware, std::int64_t over)
    : std::runtime_error(refusalMessage(pos, name, tensors, count, workspace, gpu, hardware, over)),
      kernelPos(pos), kernelName(std::move(name)), workingSet(tensors + workspace), tensorBytes(tensors),
      tensorCount(count), workspaceBytes(workspace), capacity(gpu), hardwareId(std::move(hardware)), kernelsOver(over) {}

FaultFreePlanImpossible FaultFreePlanImpossible::renamed(std::int64_t position) const {
    return {position, kernelName, tensorBytes, tensorCount, workspaceBytes, capacity, hardwareId, kernelsOver};
}

void requireWorkingSetsFit(const Profile& profile, const HardwareConfig& hardware) {
    const auto sets = computeWorkingSets(profile);
    std::int64_t first = -1, over = 0;
    for (std::size_t k = 0; k < sets.size(); ++k) {
        if (sets[k].totalBytes() <= hardware.gpuCapacity) continue;
        if (first < 0) first = static_cast<std::int64_t>(k);
        ++over;
    }
    if (first < 0) return;
    const KernelWorkingSet& s = sets[static_cast<std::size_t>(first)];
    throw FaultFreePlanImpossible(first, profile.kernels[static_cast<std::size_t>(first)].name, s.tensorBytes,
                                  s.tensorCount, s.workspaceBytes, hardware.gpuCapacity, hardware.id, over);
}

Tier faultFreeSpillTier(const HardwareConfig& hardware) {
    const bool host = hardware.hostCapacity > 0 && hardware.hostToGpu.bytesPerSecond > 0 &&
                      hardware.gpuToHost.bytesPerSecond > 0;
    return host ? Tier::Host : Tier::Ssd;
}

void completeFaultFree(const Profile& profile, const HardwareConfig& hardware, Plan& plan) {
    requireWorkingSetsFit(profile, hardware);
    if (profile.kernels.empty()) {
        plan.allowFaults = false;
        return;
    }
    FaultFreeCompletion(profile, hardware, faultFreeSpillTier(hardware), plan).run();
}

}  // namespace spillway
