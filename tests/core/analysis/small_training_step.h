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
#include "tests/support/profile_builder.h"

namespace spillway::testing {

inline Profile smallTrainingStep() {
    using K = TensorKind;
    using P = KernelPhase;
    return ProfileBuilder("small training step")
        .tensor(10, "W", 100, K::Weight, true)
        .tensor(11, "X", 10, K::Input, false)
        .tensor(12, "A", 40, K::Activation, false)
        .tensor(13, "B", 20, K::Activation, false)
        .tensor(14, "L", 5, K::Activation, false)
        .tensor(15, "G", 100, K::Gradient, false)
        .tensor(16, "U", 7, K::Temporary, false)
        .tensor(17, "S", 50, K::OptimizerState, true)
        .tensor(18, "E", 60, K::Weight, true)
        .tensor(19, "T", 4, K::Temporary, false)
        .kernel(100, "fwd1", P::Forward, 10, {11}, {12, 19})
        .kernel(101, "fwd2", P::Forward, 20, {12, 10, 19, 18}, {13}, 30)
        .kernel(102, "loss", P::Loss, 5, {13, 18}, {14})
        .kernel(103, "bwd", P::Backward, 15, {14, 12}, {15, 19})
        .kernel(104, "update", P::Optimizer, 40, {10, 15, 17}, {10, 17}, 8)
        .build();
}

}  // namespace spillway::testing
