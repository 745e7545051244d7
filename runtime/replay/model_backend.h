#pragma once
// The replay model: what a replay of a program takes on a measured machine, worked out instead
// of run. It follows the backends' rules (replay_backend.h) on three streams, one event after
// another in the order the CUDA backend enqueues them, and charges every CUDA call what the
// machine measured (core/hardware: curves by size, mechanism and direction; opposite managed
// prefetches that do not overlap; a launch cost per kernel). In a managed arena it keeps where
// every page is over time (page_residency.h), so a kernel that touches pages on the host, or
// discarded ones, pays fault-driven migration for them.
//
// It is what `spillway-replay --compare` and the fidelity test hold a real replay against: the
// simulator of the runtime on the machine it ran on (docs/validation.md, "Real GPU").
#include "core/hardware/hardware.h"
#include "core/io/measured/measured_timeline.h"
#include "runtime/replay/replay_backend.h"
#include "runtime/replay/replay_call.h"

#include <optional>
#include <vector>

namespace spillway::replay {

class ModelBackend : public ReplayBackend {
public:
    explicit ModelBackend(HardwareConfig machine) : machine_(std::move(machine)) {}
    std::string name() const override { return "model"; }
    std::string device() const override;
    BackendRun run(const ReplayProgram& program, int iterations) override;

    // Charge each directive the call a past replay made for it (the calls of the timeline's
    // last iteration), not the one this runtime would make: to re-simulate what ran. Throws
    // std::invalid_argument when the timeline's transfers are not the program's directives.
    void followCalls(const ReplayProgram& program, const MeasuredTimeline& timeline);

    // Kernels of the last run that ran while a call on another tensor sharing their arena bytes
    // discarded or moved those pages (a slot reused before its previous tensor was done with).
    // The model charges them nothing for it: on the H200 such kernels took 1 to 22 ms more,
    // with no rule the measurements show; ordered slot reuse (replay_slot_order.h) prevents it.
    struct SlotRace {
        std::size_t iteration = 0;
        std::size_t kernel = 0;     // run index
        std::size_t directive = 0;  // index in the program
    };
    const std::vector<SlotRace>& slotRaces() const { return races_; }

private:
    HardwareConfig machine_;
    std::vector<SlotRace> races_;
    std::vector<std::optional<ReplayCall>> followed_;  // per program directive; empty: this runtime's calls
};

}  // namespace spillway::replay
