#pragma once
// FlashNeuron's offloading decision, apart from the directives it becomes (flashneuron_planner.cpp)
// so tests can check each step: which forward activations go to the SSD, when each leaves,
// when it comes back. Rules and their source: docs/policies.md.
#include "core/hardware/hardware.h"
#include "core/trace/profile.h"

#include <vector>

namespace spillway {

struct FlashNeuronOffload {
    std::int64_t tensorPos = -1;       // position in Profile::tensors
    std::int64_t evictAt = -1;         // pre-evict before this kernel: the one after its last forward use
    std::int64_t prefetchAt = -1;      // prefetch before this kernel (in backward)
    std::int64_t backwardUse = -1;     // its first use in backward, the one the prefetch serves
    bool operator==(const FlashNeuronOffload&) const = default;
};

// Which selection rule: ours (docs/policies.md) or G10's scheduling_offload_flashneuron, which
// the g10-calibrated fault model uses so that results can be compared with G10's.
enum class FlashNeuronRule {
    // Room = capacity - persistent - largest working set of non-persistent tensors; candidates
    // are forward tensors used again from backward on; each goes if it has a gap spanning into
    // backward; fits when what stays is below the room.
    Spillway,
    // G10: the largest working set counts every tensor of a kernel, weights included (so the
    // weights are counted twice); candidates must be read again from backward on; each goes at
    // the start of its last gap that opens by the backward start; fits when what stays is at
    // most the room. Room <= 0 means nothing can run.
    G10,
};

struct FlashNeuronOptions {
    FlashNeuronRule rule = FlashNeuronRule::Spillway;
    // false (G10's model and the paper's first phase): offload in forward order until what
    // stays fits, even when the SSD cannot write it all during the forward pass (backward then
    // waits for it). true: also skip any offload that the SSD write queue would not finish
    // before the forward pass ends, so offloading never delays compute.
    bool onlyWhatForwardHides = false;
};

struct FlashNeuronSchedule {
    Tier target = Tier::Ssd;               // Ssd; Host when the machine has no SSD<->GPU link
    std::int64_t backwardStart = -1;       // first Loss (else Backward) kernel; -1 = no backward
    Bytes memoryForActivations = 0;        // GPU capacity - persistent bytes - largest kernel working set
    Bytes candidateBytes = 0;              // forward tensors still needed in backward
    Bytes offloadedBytes = 0;
    std::int64_t skippedForBandwidth = 0;  // candidates left out because the writes would not hide
    // When the last write would end with everything resident, minus when forward ends (ns):
    // what the backward pass waits for the SSD; 0 when the writes hide behind forward.
    Nanoseconds writesPastForward = 0;
    bool fits = true;                      // what stays fits in memoryForActivations
    std::vector<FlashNeuronOffload> offloads;  // in the order they were chosen (forward order)
};

FlashNeuronSchedule scheduleFlashNeuron(const Profile& profile, const HardwareConfig& hardware,
                                        const FlashNeuronOptions& options = {});

}  // namespace spillway
