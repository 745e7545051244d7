#pragma once
// What a planner for several training jobs sharing one GPU is given and gives back (TENSILE,
// and the vDNN and Capuchin baselines it is compared with). Unlike the single-profile planners (planner.h), they see every
// running job's next iteration on one shared clock, and return one Plan per job whose
// directives the multi-job simulator (core/sim/workload_*) executes at tensor granularity:
//   PreEvict to Host  = swap out: copy to host, then release the GPU copy once the copy is done
//                       and the tensor's current access has ended;
//   Prefetch          = swap in (the host copy is kept until the tensor's last access);
//   Free              = release after the access (the tensor is dead until its next write);
//   Recompute         = release after the access; its producer re-runs before the next read.
// Directive timing (plan.h): at kernelPos (before it, or afterKernel), plus `delay`, which is how
// TENSILE's (trigger access, delta time) instructions are expressed.
// The registry of these planners is core/policy/multi_job_planner.h; the types live here, beside
// the plan model, because the simulator runs them without knowing any policy.
#include "core/plan/plan.h"
#include "core/hardware/hardware.h"
#include "core/trace/profile.h"

#include <string>
#include <vector>

namespace spillway {

// One job's next iteration as the scheduler estimates it.
struct JobIterationView {
    JobId job = 0;
    std::string name;
    const Profile* profile = nullptr;         // one iteration of the job, in program order
    std::vector<Nanoseconds> kernelStart;     // per kernel position: estimated start, shared clock
    std::vector<Nanoseconds> kernelDuration;  // per kernel position: estimated (EWMA) duration
    // TENSILE's max swap ratio (the job's priority): at most this fraction of all tensors
    // swapped in the system may belong to this job. 1.0 = no limit.
    double maxSwapRatio = 1.0;
    // Iterations the job has finished; Capuchin plans only after one passive, observed one.
    int completedIterations = 0;
};

struct MultiJobPlanInput {
    std::vector<JobIterationView> jobs;
    HardwareConfig hardware;  // gpuCapacity and the PCIe links (gpuToHost, hostToGpu)
    // The paper's assumption: one transfer at a time on the link, whatever its direction and
    // job. False: each direction is its own FIFO queue (the link's real concurrency).
    bool singleTransferLink = true;
};

struct MultiJobPlannerInfo {
    std::string id;
    std::string description;
    // One plan per input job, in the same order.
    std::vector<Plan> (*plan)(const MultiJobPlanInput& input);
};

}  // namespace spillway
