#pragma once
// The host backend: runs a ReplayProgram on the CPU. The calling thread is the compute stream
// (it waits, then spins for each kernel's profiled duration plus any recompute); two more
// threads are the side streams, in and out (each waits for a directive's anchor and delay, then
// spends the directive's modelled link time). Real waits, real clocks: what it measures is what the
// program's ordering and dependencies make of the profiled times, without a GPU.
#include "runtime/replay/replay_backend.h"

namespace spillway::replay {

class HostBackend : public ReplayBackend {
public:
    std::string name() const override { return "host"; }
    std::string device() const override;
    BackendRun run(const ReplayProgram& program, int iterations) override;
};

}  // namespace spillway::replay
