#pragma once
#include "core/trace/kernel.h"
#include "core/trace/tensor.h"

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace spillway {

struct Job {
    JobId id = 0;
    std::string name;
    bool operator==(const Job&) const = default;
};

struct ProfileMetadata {
    std::string model;
    std::int64_t batch = 0;   // 0 = unknown
    std::string device;
    std::string source;       // which importer made it: "g10-graph", "torch-profiler", ...
    std::string sourcePath;   // file or folder it was read from, as given
    // Free-form facts an importer wants to keep (units of the source, inferred rules...).
    std::map<std::string, std::string> notes;
    bool operator==(const ProfileMetadata&) const = default;
};

// One training iteration of one or more jobs: kernels in captured (program) order and the
// tensors they read and write. Planners and the simulator read only this.
struct Profile {
    ProfileMetadata metadata;
    std::vector<Job> jobs;
    std::vector<Tensor> tensors;
    std::vector<Kernel> kernels;

    bool operator==(const Profile&) const = default;

    Bytes totalTensorBytes() const;
    Nanoseconds totalDuration() const;
};

// Id -> position lookups, built once per profile. Ids need not be dense.
class ProfileIndex {
public:
    explicit ProfileIndex(const Profile& profile);
    // -1 when unknown.
    std::int64_t tensorPos(TensorId id) const;
    std::int64_t kernelPos(KernelId id) const;

private:
    std::unordered_map<TensorId, std::int64_t> tensors_;
    std::unordered_map<KernelId, std::int64_t> kernels_;
};

}  // namespace spillway
