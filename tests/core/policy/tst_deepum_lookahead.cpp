// deepum-lookahead (G10's DeepUM model): before kernel i, prefetch the tensors of kernel
// (i + 8) mod n, and ask eviction to spare them until that kernel has run.
#include "core/io/profile_loader.h"
#include "core/policy/planner.h"
#include "core/policy/planners.h"
#include "directive_checks.h"
#include "training_step_8.h"

#include <QtTest>
#include <set>

using namespace spillway;

namespace {

// Twelve kernels in a chain: kernel k reads tensor k and writes tensor k + 1 (ids 1000 + k),
// except kernel 5, which updates tensor 5 in place (lists it as input and output).
Profile chain12() {
    Profile p;
    p.jobs = {{0, "job"}};
    for (int t = 0; t <= 12; ++t) {
        Tensor tensor;
        tensor.id = 1000 + t;
        tensor.name = "t" + std::to_string(t);
        tensor.bytes = kMiB;
        p.tensors.push_back(tensor);
    }
    for (int k = 0; k < 12; ++k) {
        Kernel kernel;
        kernel.id = k;
        kernel.name = "k" + std::to_string(k);
        kernel.duration = 1000;
        kernel.inputs = {1000 + k};
        kernel.outputs = {k == 5 ? 1005 : 1000 + k + 1};
        p.kernels.push_back(kernel);
    }
    return p;
}

}  // namespace

class TestDeepUmLookahead : public QObject {
    Q_OBJECT
private slots:
    void prefetchesTheKernelEightAhead() {
        const auto p = chain12();
        const auto plan = planDeepUmLookahead(p, HardwareConfig{});
        QStringList want;
        for (int i = 0; i < 12; ++i) {
            // Kernel (i + 8) mod 12 reads t(i+8) and writes t(i+9); kernel 5 (i = 9) only t5.
            const int target = (i + 8) % 12;
            want << QStringLiteral("%1 prefetch t%2 keep %3").arg(i).arg(target).arg(target);
            if (target != 5) want << QStringLiteral("%1 prefetch t%2 keep %3").arg(i).arg(target + 1).arg(target);
        }
        QCOMPARE(testing::describeDirectives(p, plan), want);
        // The last eight kernels prefetch for the first kernels of the next iteration: at 4 the
        // target is kernel 0, so t0 and t1 are prefetched with keepUntil 0 < 4.
        QCOMPARE(want[8], QStringLiteral("4 prefetch t0 keep 0"));
        QCOMPARE(plan.notes.at("lookahead_kernels"), std::string("8"));
    }

    void shortProfilesWrapAroundSeveralTimes() {
        // Eight kernels: (i + 8) mod 8 = i, each kernel prefetches its own tensors.
        const auto p = testing::trainingStep8();
        const auto plan = planDeepUmLookahead(p, HardwareConfig{});
        const QStringList want{"0 prefetch X keep 0",   "0 prefetch W1 keep 0",  "0 prefetch A1 keep 0",
                               "1 prefetch A1 keep 1",  "1 prefetch W2 keep 1",  "1 prefetch A2 keep 1",
                               "2 prefetch A2 keep 2",  "2 prefetch T keep 2",   "3 prefetch T keep 3",
                               "3 prefetch L keep 3",   "4 prefetch L keep 4",   "4 prefetch A2 keep 4",
                               "4 prefetch G2 keep 4",  "5 prefetch G2 keep 5",  "5 prefetch A1 keep 5",
                               "5 prefetch W2 keep 5",  "5 prefetch G1 keep 5",  "6 prefetch G1 keep 6",
                               "6 prefetch X keep 6",   "6 prefetch W1 keep 6",  "7 prefetch W2 keep 7",
                               "7 prefetch G1 keep 7"};
        QCOMPARE(testing::describeDirectives(p, plan), want);
    }

    void emptyProfileGivesEmptyPlan() {
        QVERIFY(planDeepUmLookahead(Profile{}, HardwareConfig{}).directives.empty());
    }

    void realBertProfile() {
        const auto p = loadProfile(SPILLWAY_SHARED_DATA "/g10/derived/BERT_Base_256");
        const auto plan = makePlan("deepum-lookahead", p, HardwareConfig{});
        QCOMPARE(plan.policy, std::string("deepum-lookahead"));
        QVERIFY2(testing::checkWellFormed(p, plan).empty(), testing::checkWellFormed(p, plan).c_str());
        const auto n = static_cast<std::int64_t>(p.kernels.size());
        // Every prefetch serves kernel keepUntil, 8 kernels later (wrapping), which uses it;
        // and every tensor of every kernel is prefetched exactly once for it.
        size_t expected = 0;
        for (const auto& k : p.kernels) {
            std::set<TensorId> distinct(k.inputs.begin(), k.inputs.end());
            distinct.insert(k.outputs.begin(), k.outputs.end());
            expected += distinct.size();
        }
        QCOMPARE(plan.directives.size(), expected);
        for (const auto& d : plan.directives) {
            QVERIFY(d.kind == DirectiveKind::Prefetch);
            QCOMPARE(d.keepUntil, (d.kernelPos + 8) % n);
            QVERIFY(testing::usesTensor(p.kernels[static_cast<size_t>(d.keepUntil)], d.tensor));
        }
        QCOMPARE(makePlan("deepum-lookahead", p, HardwareConfig{}), plan);
    }
};

QTEST_GUILESS_MAIN(TestDeepUmLookahead)
#include "tst_deepum_lookahead.moc"
