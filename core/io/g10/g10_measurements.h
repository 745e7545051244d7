#pragma once
// G10's per-kernel A100 measurements: cudnn<B>.txt, cudnn<B>PF.txt, cudnn<B>InputPF.txt (ms)
// and cudnn<B>Workspace.txt (bytes), one line "<kernel index> <value> <unit>" per kernel.
#include "core/trace/profile.h"

#include <filesystem>
#include <optional>
#include <vector>

namespace spillway {

struct G10MeasurementFiles {
    std::int64_t batch = 0;
    std::filesystem::path ideal;           // cudnn<B>.txt
    std::filesystem::path allFaulted;      // cudnn<B>PF.txt
    std::filesystem::path outputsFaulted;  // cudnn<B>InputPF.txt
    std::filesystem::path workspace;       // cudnn<B>Workspace.txt
};

// The four files for one batch size in `folder`. With `batch` given, only that batch counts.
// Returns nothing when the folder holds none; throws ImportError when the set is partial (it
// names the missing files) or when, without `batch`, files for several batch sizes are there.
std::optional<G10MeasurementFiles> findG10MeasurementFiles(const std::filesystem::path& folder,
                                                           std::optional<std::int64_t> batch);

// Every measurement file of any batch in `folder` (cudnn<B>.txt, cudnn<B>PF.txt,
// cudnn<B>InputPF.txt, cudnn<B>Workspace.txt), sorted by name; none when it cannot be listed.
std::vector<std::filesystem::path> listG10MeasurementFiles(const std::filesystem::path& folder);

struct G10Measurements {
    G10MeasurementFiles files;
    std::vector<Nanoseconds> ideal;           // everything resident
    std::vector<Nanoseconds> allFaulted;      // every input and output page faults
    std::vector<Nanoseconds> outputsFaulted;  // inputs resident, outputs fault
    std::vector<Bytes> workspace;             // cuDNN workspace, as measured (not page-rounded)
};

// Reads all four; each must have exactly `kernelCount` lines, numbered 0, 1, 2... in order,
// or an ImportError names the file and line. Times: ms -> integer ns (rounded).
G10Measurements readG10Measurements(const G10MeasurementFiles& files, size_t kernelCount);

struct G10MeasurementReport {
    size_t outputsFaultedRaised = 0;  // InputPF below the resident time, raised to it
    size_t allFaultedRaised = 0;      // PF below InputPF, raised to it
};

// What attachG10Measurements does with the Workspace column.
enum class G10WorkspaceColumn {
    Set,          // each kernel's workspaceBytes = the measured workspace (transformer graphs)
    CheckAndSet,  // the same, after checking it against the page-rounded workspace tensor that
                  // kernels.config gave the kernel (folded into workspaceBytes): rounded up to
                  // 4 KiB they must be equal, or an ImportError names the Workspace file and line
    Ignore,       // the workspaces stay tensors of the profile (ImportOptions::g10WorkspacesAsTensors)
};

// Gives each kernel (in order) its measured duration, timeOutputsFaulted (InputPF) and
// timeAllFaulted (PF), and its workspaceBytes as `workspace` says. The fault times are raised
// as G10 does when it loads them, so that ideal <= InputPF <= PF always holds.
G10MeasurementReport attachG10Measurements(Profile& profile, const G10Measurements& m,
                                           G10WorkspaceColumn workspace);

}  // namespace spillway
