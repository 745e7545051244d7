#pragma once
// Hand-made profiles for tests, a line per tensor and per kernel, so a fixture reads like the
// table in its comment. Ids are the caller's; kernels are appended in program order.
#include "core/trace/profile.h"

#include <string>
#include <utility>
#include <vector>

namespace spillway::testing {

class ProfileBuilder {
public:
    explicit ProfileBuilder(std::string model) {
        profile_.metadata.model = std::move(model);
        profile_.jobs = {{0, "job"}};
    }

    ProfileBuilder& tensor(TensorId id, std::string name, Bytes bytes, TensorKind kind, bool persistent) {
        Tensor t;
        t.id = id;
        t.name = std::move(name);
        t.bytes = bytes;
        t.kind = kind;
        t.persistent = persistent;
        profile_.tensors.push_back(std::move(t));
        return *this;
    }

    ProfileBuilder& kernel(KernelId id, std::string name, KernelPhase phase, Nanoseconds duration,
                           std::vector<TensorId> inputs, std::vector<TensorId> outputs, Bytes workspace = 0) {
        Kernel k;
        k.id = id;
        k.name = std::move(name);
        k.phase = phase;
        k.duration = duration;
        k.inputs = std::move(inputs);
        k.outputs = std::move(outputs);
        k.workspaceBytes = workspace;
        profile_.kernels.push_back(std::move(k));
        return *this;
    }

    Profile build() const { return profile_; }

private:
    Profile profile_;
};

}  // namespace spillway::testing
