#pragma once
// The tensor-level replay for plans whose memory model is ContiguousFirstFit: the framework
// allocates device memory itself (FlashNeuron), so there is no paging. Every tensor gets one
// contiguous range when first needed and releases it after its last read; weights stay put;
// a pre-evicted tensor leaves when its write ends and is read back in backward as room allows;
// an allocation that does not fit waits for transfers to free room, and if none can, the run is
// impossible. It follows G10's FlashNeuron_simulator (analysis.cc); rules and the places where
// we chose: docs/simulator.md, "Tensor-level replay".
#include "core/plan/plan.h"
#include "core/hardware/hardware.h"
#include "core/sim/sim_result.h"
#include "core/sim/simulation_options.h"
#include "core/trace/profile.h"

namespace spillway::sim {

SimulationResult replayTensorLevel(const Profile& profile, const Plan& plan, const HardwareConfig& hardware,
                                   const SimulationOptions& options);

}  // namespace spillway::sim
