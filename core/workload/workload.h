#pragma once
// A workload: several training jobs that share one GPU (TENSILE's multitasking dynamic
// workloads). Each job replays one profile from its start time for a number of iterations; the
// workload fixes the machine, how the PCIe link is shared, and the re-planning knobs. The file
// format is spillway.workload/1 (docs/formats.md, resources/schemas/spillway.workload-1.schema.json);
// the simulator that runs it is core/sim/workload_sim.h.
#include "core/hardware/hardware.h"
#include "core/trace/profile.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace spillway {

inline constexpr std::string_view kWorkloadFormatId = "spillway.workload/1";

// How transfers of all jobs share the host<->GPU link.
enum class LinkMode {
    Single,  // one transfer at a time, whatever its direction or job (TENSILE's assumption)
    Duplex,  // one FIFO per direction (gpu_to_host, host_to_gpu): the link's real concurrency
};
std::string_view toString(LinkMode mode);

struct WorkloadJob {
    std::string name;
    std::string profilePath;              // as written in the file (relative to it)
    std::filesystem::path resolvedPath;   // where it was read from
    Profile profile;                      // one iteration, program order
    Nanoseconds start = 0;                // on the workload's clock
    int iterations = 1;
    // TENSILE's max swap ratio, the job's priority: at most this fraction of the tensors swapped
    // in the system may be this job's. 1 = no limit.
    double maxSwapRatio = 1.0;
};

struct Workload {
    std::string label;        // the file it came from (for messages), or a test's name
    std::string name;
    HardwareConfig hardware;  // gpuCapacity and the PCIe pair are what the multi-job simulator uses
    LinkMode linkMode = LinkMode::Single;
    // Re-plan when a job's corrected kernel-time estimates differ from those its plan was made
    // with by more than this fraction (sum of |difference| over sum of planned), in millionths.
    std::int64_t replanDriftPpm = 100'000;  // 0.1
    // TENSILE's EWMA weight of the previous estimate, t' = beta t + (1 - beta) measured, in
    // millionths (integers keep the simulation bit-for-bit repeatable).
    std::int64_t ewmaBetaPpm = 500'000;     // 0.5
    // TENSILE's own framework (section 5.1): every operator synchronises the device before the
    // next starts, so an operator ends only when its kernel and every transfer its job had queued
    // by then are done (no transfer overlaps a later operator), and its time is measured on the
    // CPU, host-side work included. false: operators are queued asynchronously (a real framework).
    bool syncEveryOperator = false;
    // With syncEveryOperator: the host-side time of each operator (dispatch, the Python around
    // it), during which the job's GPU stream is idle but its transfers go on. 0 = none.
    Nanoseconds operatorHostTime = 0;
    std::vector<WorkloadJob> jobs;
};

// True when the first bytes of a file look like a workload ("format": "spillway.workload/1").
bool looksLikeWorkload(std::string_view head);
bool isWorkloadFile(const std::filesystem::path& path);

// Parses the JSON only: profiles are not read (profilePath and resolvedPath are set, relative
// paths taken from `baseDir`). Throws ImportError naming `label` and the JSON pointer.
Workload parseWorkloadJson(std::string_view text, const std::string& label, const std::filesystem::path& baseDir);
// Reads the file and every job's profile (any format the profile loader reads). A profile that
// cannot be read is reported at the job's "/jobs/N/profile" with the loader's own message.
Workload loadWorkload(const std::filesystem::path& path);

}  // namespace spillway
