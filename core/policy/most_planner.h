#pragma once
// MOST's planner with its rule selectable, so the variants docs/policies.md compares stay
// reachable (tests, docs/validation.md). planMost (planners.h) is the kept variant.
#include "core/hardware/hardware.h"
#include "core/plan/plan.h"
#include "core/trace/profile.h"

namespace spillway {

struct MostOptions {
    enum class Rule {
        // Fig. 3 as written: Oversub_stall(p) = the eviction latency UVM would pay for this
        // tensor, summed over every oversubscribed kernel from the pre-eviction to the prefetch
        // at p; P_delay(p) = how late that prefetch lands; take the p with the lowest
        // Oversub_stall + P_delay; migrate if that total is > 0 and Oversub_stall > P_delay.
        Fig3,
        // Fig. 3 with the p that leaves the least stall (largest Oversub_stall - P_delay),
        // for comparison (docs/validation.md).
        Fig3MostRelief,
        // The planner before issue 18: keeping the tensor costs one eviction of its share of the
        // excess; migrate only if Oversub_stall + P_delay of the prefetch is below that. Ties
        // (the common case when the GPU is over by more than the tensor) are declined.
        OneEviction,
    };
    enum class LinkQueues {
        // On where declining a migration takes its traffic off MOST's link (UVM evicts and
        // faults over another one, host memory), off where UVM uses the same SSD link.
        Auto,
        // Both link directions are FIFO queues holding the planned migrations: P_safe, P_delay
        // and UVM's evictions see them, and P_delay adds the delay this prefetch causes the
        // planned ones.
        On,
        // Every transfer has its link to itself, as the paper's P_safe = use - fetch latency.
        Off,
    };
    Rule rule = Rule::Fig3;
    LinkQueues linkQueues = LinkQueues::Auto;
};

Plan planMostWith(const Profile& profile, const HardwareConfig& hardware, const MostOptions& options);

}  // namespace spillway
