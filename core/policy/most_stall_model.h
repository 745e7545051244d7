#pragma once
// What MOST's cost model (Kim et al., "MOST: Memory Oversubscription-aware Scheduling for Tensor
// Migration on GPU Unified Storage") reads, from kernel durations and the machine only: kernel
// start times, the bytes each kernel keeps on the GPU (so how far it is over capacity), and the
// links: the one MOST migrates over and the one UVM evicts over. The stall terms themselves
// (Oversub_stall, P_delay) are computed in most_planner.cpp against the link queues.
#include "core/hardware/hardware.h"
#include "core/trace/profile.h"

#include <vector>

namespace spillway {

class MostStallModel {
public:
    // `resident`: bytes each kernel would keep on the GPU if nothing moved (theoretical peak's
    // live bytes). Kernel positions on the "unrolled" axis [0, 2n) address the next iteration.
    MostStallModel(const Profile& profile, const HardwareConfig& hardware, std::vector<Bytes> resident);

    Nanoseconds startOf(std::int64_t unrolledPos) const { return start_[unrolledPos]; }
    // Kernel (unrolled) whose window holds time t; the last kernel before `limit` if none does.
    std::int64_t kernelAt(Nanoseconds t, std::int64_t limit) const;
    // Bytes over GPU capacity at the worst kernel of [from, to) (unrolled), 0 if none.
    Bytes worstExcess(std::int64_t from, std::int64_t to) const;
    bool anyOversubscription() const;
    // Replaces the per-kernel estimate: the planner rebuilds it from every planned migration,
    // because queued transfers move when a new one is queued ahead of them.
    void setResident(std::vector<Bytes> resident) { resident_ = std::move(resident); }
    std::int64_t kernelCount() const { return n_; }

    const LinkSpec& outLink() const { return *out_; }
    // Where UVM itself evicts on the critical path: host memory while the machine has some for
    // evicted data, else the SSD. When that is the link MOST pre-evicts over, those evictions
    // queue behind the planned pre-evictions.
    const LinkSpec& uvmEvictionLink() const { return *uvmOut_; }
    bool uvmEvictsOverOutLink() const { return uvmOut_ == out_; }
    const LinkSpec& inLink() const { return *in_; }
    Tier target() const { return target_; }

private:
    const HardwareConfig& hw_;
    std::int64_t n_;
    std::vector<Nanoseconds> start_;  // kernel start times over two iterations
    std::vector<Bytes> resident_;
    const LinkSpec* out_;
    const LinkSpec* in_;
    const LinkSpec* uvmOut_;
    Tier target_;
};

}  // namespace spillway
