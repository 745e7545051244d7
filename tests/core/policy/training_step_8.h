#pragma once
// A hand-made eight-kernel training step for the DeepUM, FlashNeuron and discard suites. Every
// expected directive in those suites is worked out by hand from this table. Sizes are whole
// 2 MiB blocks and durations whole milliseconds so transfer times come out exact.
//
//  tensor pos  id  name  MiB  persistent  used by kernel positions
//       0       1  W1     4     yes       0, 6 (6 writes it: the update)
//       1       2  W2     4     yes       1, 5, 7 (7 writes it)
//       2       3  X      2     no        0, 6            (the input batch)
//       3       4  A1     8     no        0 (write), 1, 5
//       4       5  A2     8     no        1 (write), 2, 4
//       5       6  L      2     no        3 (write), 4
//       6       7  G2     8     no        4 (write), 5
//       7       8  G1     8     no        5 (write), 6, 7
//       8       9  T      2     no        2 (write), 3
//
//  kernel pos  name   phase     ms  inputs        outputs   starts at (ms, all resident)
//       0      f1     forward   10  X, W1         A1         0
//       1      f2     forward   10  A1, W2        A2        10
//       2      f3     forward   10  A2            T         20
//       3      loss   loss       5  T             L         30
//       4      b3     backward  10  L, A2         G2        35
//       5      b2     backward  10  G2, A1, W2    G1        45
//       6      b1     backward  10  G1, X, W1     W1        55
//       7      opt    optimizer  5  W2, G1        W2        65   (iteration ends at 70)
#include "core/plan/plan.h"
#include "tests/support/profile_builder.h"

#include <QStringList>
#include <string_view>

namespace spillway::testing {

inline Profile trainingStep8() {
    using K = TensorKind;
    using P = KernelPhase;
    constexpr Nanoseconds ms = 1'000'000;
    return ProfileBuilder("eight-kernel training step")
        .tensor(1, "W1", 4 * kMiB, K::Weight, true)
        .tensor(2, "W2", 4 * kMiB, K::Weight, true)
        .tensor(3, "X", 2 * kMiB, K::Input, false)
        .tensor(4, "A1", 8 * kMiB, K::Activation, false)
        .tensor(5, "A2", 8 * kMiB, K::Activation, false)
        .tensor(6, "L", 2 * kMiB, K::Activation, false)
        .tensor(7, "G2", 8 * kMiB, K::Gradient, false)
        .tensor(8, "G1", 8 * kMiB, K::Gradient, false)
        .tensor(9, "T", 2 * kMiB, K::Temporary, false)
        .kernel(100, "f1", P::Forward, 10 * ms, {3, 1}, {4})
        .kernel(101, "f2", P::Forward, 10 * ms, {4, 2}, {5})
        .kernel(102, "f3", P::Forward, 10 * ms, {5}, {9})
        .kernel(103, "loss", P::Loss, 5 * ms, {9}, {6})
        .kernel(104, "b3", P::Backward, 10 * ms, {6, 5}, {7})
        .kernel(105, "b2", P::Backward, 10 * ms, {7, 4, 2}, {8})
        .kernel(106, "b1", P::Backward, 10 * ms, {8, 3, 1}, {1})
        .kernel(107, "opt", P::Optimizer, 5 * ms, {2, 8}, {2})
        .build();
}

// Readable directives for QCOMPARE: "5 prefetch A1 keep 5", "1 pre-evict X ssd", "7 discard X".
inline QStringList describeDirectives(const Profile& profile, const Plan& plan) {
    QStringList out;
    for (const auto& d : plan.directives) {
        QString name = QStringLiteral("?%1").arg(d.tensor);
        for (const auto& t : profile.tensors)
            if (t.id == d.tensor) name = QString::fromStdString(t.name);
        auto text = [](std::string_view v) { return QString::fromUtf8(v.data(), qsizetype(v.size())); };
        QString line = QStringLiteral("%1 %2 %3").arg(d.kernelPos).arg(text(toString(d.kind))).arg(name);
        if (d.kind == DirectiveKind::PreEvict) line += QStringLiteral(" ") + text(toString(d.target));
        if (d.keepUntil >= 0) line += QStringLiteral(" keep %1").arg(d.keepUntil);
        out << line;
    }
    return out;
}

}  // namespace spillway::testing
