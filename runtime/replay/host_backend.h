#pragma once
// The host backend: runs a ReplayProgram on the CPU. The calling thread is the compute stream
// (it waits, then passes each kernel's profiled duration plus any recompute); two more threads
// are the side streams, in and out (each waits for a directive's anchor and delay, then passes
// the directive's modelled link time). In real time (the default) the waits and clocks are real:
// what it measures is what the program's ordering and dependencies make of the profiled times,
// without a GPU. In virtual time (host_clock.h) the same threads follow the same rules, and the
// times are exact and free of the machine's scheduling: what the tests check the rules on.
#include "runtime/replay/host_clock.h"
#include "runtime/replay/replay_backend.h"

namespace spillway::replay {

class HostBackend : public ReplayBackend {
public:
    explicit HostBackend(HostTime time = HostTime::Real) : time_(time) {}
    std::string name() const override { return "host"; }
    std::string device() const override;
    BackendRun run(const ReplayProgram& program, int iterations) override;

private:
    HostTime time_;
};

}  // namespace spillway::replay
