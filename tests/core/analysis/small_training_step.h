#pragma once
// A hand-made five-kernel training step shared by the analysis suites. Every expected value in
// those suites is worked out by hand from this table.
//
//  tensor pos  id  name  bytes  persistent  used by kernel positions
//       0      10   W     100     yes       1 (read), 4 (read + write: the weight update)
//       1      11   X      10     no        0 (read; no kernel writes it: an input)
//       2      12   A      40     no        0 (write), 1 (read), 3 (read)
//       3      13   B      20     no        1 (write), 2 (read)
//       4      14   L       5     no        2 (write), 3 (read)
//       5      15   G     100     no        3 (write), 4 (read)
//       6      16   U       7     no        never
//       7      17   S      50     yes       4 (read + write: optimizer state)
//       8      18   E      60     yes       1 (read), 2 (read); nobody writes it
//       9      19   T       4     no        0 (write), 1 (read), 3 (write after its last read)
//
//  kernel pos  id   duration  workspace  inputs         outputs
//       0      100     10         0      X              A, T
//       1      101     20        30      A, W, T, E     B
//       2      102      5         0      B, E           L
//       3      103     15         0      L, A           G, T
//       4      104     40         8      W, G, S        W, S
#include "core/trace/profile.h"

namespace spillway::testing {

inline Profile smallTrainingStep() {
    Profile p;
    p.metadata.model = "small training step";
    p.jobs = {{0, "job"}};
    auto tensor = [&](TensorId id, const char* name, Bytes bytes, TensorKind kind, bool persistent) {
        Tensor t;
        t.id = id;
        t.name = name;
        t.bytes = bytes;
        t.kind = kind;
        t.persistent = persistent;
        p.tensors.push_back(t);
    };
    tensor(10, "W", 100, TensorKind::Weight, true);
    tensor(11, "X", 10, TensorKind::Input, false);
    tensor(12, "A", 40, TensorKind::Activation, false);
    tensor(13, "B", 20, TensorKind::Activation, false);
    tensor(14, "L", 5, TensorKind::Activation, false);
    tensor(15, "G", 100, TensorKind::Gradient, false);
    tensor(16, "U", 7, TensorKind::Temporary, false);
    tensor(17, "S", 50, TensorKind::OptimizerState, true);
    tensor(18, "E", 60, TensorKind::Weight, true);
    tensor(19, "T", 4, TensorKind::Temporary, false);
    auto kernel = [&](KernelId id, const char* name, Nanoseconds duration, Bytes workspace,
                      std::vector<TensorId> inputs, std::vector<TensorId> outputs, KernelPhase phase) {
        Kernel k;
        k.id = id;
        k.name = name;
        k.duration = duration;
        k.workspaceBytes = workspace;
        k.inputs = std::move(inputs);
        k.outputs = std::move(outputs);
        k.phase = phase;
        p.kernels.push_back(k);
    };
    kernel(100, "fwd1", 10, 0, {11}, {12, 19}, KernelPhase::Forward);
    kernel(101, "fwd2", 20, 30, {12, 10, 19, 18}, {13}, KernelPhase::Forward);
    kernel(102, "loss", 5, 0, {13, 18}, {14}, KernelPhase::Loss);
    kernel(103, "bwd", 15, 0, {14, 12}, {15, 19}, KernelPhase::Backward);
    kernel(104, "update", 40, 8, {10, 15, 17}, {10, 17}, KernelPhase::Optimizer);
    return p;
}

}  // namespace spillway::testing
