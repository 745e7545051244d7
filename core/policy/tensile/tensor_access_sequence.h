#pragma once
// TENSILE's tensor access sequence (TAS, section 3.1 and 4.3): for every running job, each
// tensor's accesses with their estimated times on the shared clock. The first write of a tensor
// produced in the iteration is its output access (OTA); every later use, read or in-place
// write, is an input access (ITA) that needs the tensor on the GPU.
//
// Updated parameters: the paper treats the parameter an optimizer writes as a new logical tensor
// that reuses the old one's address, so the update adds no memory. Here a persistent tensor stays
// one buffer; when an optimizer-phase kernel writes it, it is marked `updatedParameter`, and the
// gap after its last access wraps to its first access of the next iteration (where the updated
// version is swapped: out after its last use, in before the next iteration's first use).
#include "core/plan/multi_job_plan.h"
#include "core/trace/profile.h"

#include <cstdint>
#include <string>
#include <vector>

namespace spillway::tensile {

enum class AccessKind { Output, Input };

struct TensorAccess {
    std::int64_t kernelPos = 0;
    Nanoseconds start = 0;
    Nanoseconds end = 0;
    AccessKind kind = AccessKind::Input;
    bool writes = false;  // the kernel writes the tensor (its OTA, or an in-place update)
    KernelPhase phase = KernelPhase::Forward;
};

// One tensor of one job and its accesses, in time order.
struct AccessTensor {
    std::int32_t job = 0;          // index into TensorAccessSequence::jobs
    std::int64_t tensorPos = 0;    // into the job's profile tensors
    TensorId id = 0;
    Bytes bytes = 0;
    bool persistent = false;
    // On the GPU when the iteration begins: persistent tensors (parameters, optimizer state),
    // and tensors read before any kernel writes them (the model's input data).
    bool residentAtStart = false;
    bool updatedParameter = false;
    std::vector<TensorAccess> accesses;
};

// One job's iteration on the shared clock.
struct JobAccessTimes {
    JobId job = 0;
    std::string name;
    const Profile* profile = nullptr;
    size_t firstTensor = 0;       // its profile's tensor 0 in TensorAccessSequence::tensors
    std::vector<Nanoseconds> kernelStart;
    std::vector<Nanoseconds> kernelEnd;
    Nanoseconds windowStart = 0;  // first kernel start
    Nanoseconds windowEnd = 0;    // last kernel end
    bool endsInOrder = true;      // kernelEnd never decreases (lets anchors binary-search)
    double maxSwapRatio = 1.0;
    int completedIterations = 0;
};

struct TensorAccessSequence {
    std::vector<JobAccessTimes> jobs;
    std::vector<AccessTensor> tensors;  // job by job, each in profile tensor order
    Nanoseconds start = 0;              // earliest window start
    Nanoseconds end = 0;                // latest window end
};

// Kernel times come from the views (kernelStart, kernelDuration); a view with both empty is
// laid out back to back from 0 with the profile's durations. Throws std::invalid_argument naming
// the job and the field when a view has no profile, the time vectors do not match its kernels,
// or a duration is negative.
TensorAccessSequence buildTensorAccessSequence(const std::vector<JobIterationView>& jobs);

}  // namespace spillway::tensile
