// DeepUM correlation prefetching: the tables recorded from the previous iteration and the
// sliding prefetch window built from them, on the eight-kernel step (training_step_8.h, tensor
// positions W1 0, W2 1, X 2, A1 3, A2 4, L 5, G2 6, G1 7, T 8), then properties on BERT.
#include "core/io/profile_loader.h"
#include "core/policy/deepum_correlation.h"
#include "core/policy/planner.h"
#include "core/policy/planners.h"
#include "directive_checks.h"
#include "training_step_8.h"

#include <QtTest>

using namespace spillway;

namespace {

HardwareConfig gpuOf(Bytes capacity) {
    HardwareConfig hw;
    hw.gpuCapacity = capacity;
    hw.plannerSafetyPermille = 500;
    return hw;
}

// The plan's prefetches alone (pre-evictions are tst_deepum_pre_eviction's subject).
Plan prefetchesOf(Plan plan) {
    std::erase_if(plan.directives, [](const Directive& d) { return d.kind != DirectiveKind::Prefetch; });
    return plan;
}

QList<QList<qint64>> faultedLists(const DeepUmTables& tables) {
    QList<QList<qint64>> out;
    for (const auto& f : tables.faulted) out << QList<qint64>(f.begin(), f.end());
    return out;
}

}  // namespace

class TestDeepUm : public QObject {
    Q_OBJECT
private slots:
    void executionIdsAndSuccessors() {
        const auto tables = recordDeepUmTables(testing::trainingStep8(), gpuOf(kGiB));
        // Eight different kernels: eight execution IDs in launch order; each is followed by the
        // next, and the last by the first of the next iteration.
        QCOMPARE(tables.executionIdOfKernel, (std::vector<std::int64_t>{0, 1, 2, 3, 4, 5, 6, 7}));
        QCOMPARE(tables.successor, (std::vector<std::int64_t>{1, 2, 3, 4, 5, 6, 7, 0}));
    }

    void sameKernelOnSameTensorsSharesAnId() {
        auto p = testing::trainingStep8();
        p.kernels[7] = p.kernels[3];  // the loss kernel launched again with the same arguments
        p.kernels[7].id = 999;        // (kernel ids are not arguments)
        const auto tables = recordDeepUmTables(p, gpuOf(kGiB));
        QCOMPARE(tables.executionIdOfKernel, (std::vector<std::int64_t>{0, 1, 2, 3, 4, 5, 6, 3}));
        // ID 3 is followed by 4 at kernel 3, then by kernel 0 (wrapping) at kernel 7: the most
        // recent successor wins. ID 6 is followed by kernel 7, whose ID is 3.
        QCOMPARE(tables.successor, (std::vector<std::int64_t>{1, 2, 3, 0, 5, 6, 3}));
    }

    void nothingFaultsWhenEverythingFits() {
        // 1 GiB holds all 46 MiB: the warm-up pass brings everything in, the recorded pass
        // faults on nothing, and DeepUM has nothing to prefetch.
        const auto p = testing::trainingStep8();
        const auto tables = recordDeepUmTables(p, gpuOf(kGiB));
        QCOMPARE(faultedLists(tables), (QList<QList<qint64>>{{}, {}, {}, {}, {}, {}, {}, {}}));
        const auto plan = planDeepUm(p, gpuOf(kGiB));
        QVERIFY(plan.directives.empty());
        QCOMPARE(plan.notes.at("recorded_faults"), std::string("0"));
    }

    void faultsUnderLruPressure() {
        // 20 MiB, LRU at tensor granularity, dead tensors stay until evicted. The recorded pass,
        // resident set before each kernel (least recent first) and what it faults on:
        //   f1   {X, W1, W2, G1}   A1 evicts W2 and G1                      -> A1
        //   f2   {X, W1, A1}       W2 fits (18); A2 evicts X and W1          -> W2, A2
        //   f3   {A1, W2, A2}      T evicts A1                               -> T
        //   loss {W2, A2, T}       L fits (16)                               -> L
        //   b3   {W2, T, L, A2}    G2 evicts W2                              -> G2
        //   b2   {T, L, A2, G2}    A1 evicts T, L, A2; W2 fits; G1 overflows
        //                          (all four are running)                    -> A1, W2, G1
        //   b1   {G2, A1, W2, G1}  X evicts G2 and A1; W1 fits (18)          -> X, W1
        //   opt  {W2, G1, X, W1}   nothing                                   -> none
        const auto tables = recordDeepUmTables(testing::trainingStep8(), gpuOf(20 * kMiB));
        QCOMPARE(faultedLists(tables),
                 (QList<QList<qint64>>{{3}, {1, 4}, {8}, {5}, {6}, {3, 1, 7}, {2, 0}, {}}));
    }

    void windowFollowsTheChainWithinBudget() {
        // Budget: 500 permille of 20 MiB = 10 MiB. The window from each launch (its own faults
        // always; a further launch only if the total stays within 10 MiB) reaches:
        //   0: A1 (8)          + f2's 12 -> over       reaches 0
        //   1: W2, A2 (12)     + T -> over             reaches 1
        //   2: T, L (4)        + G2 -> 12, over        reaches 3
        //   3: L, G2 (10)      + b2's 20 -> over       reaches 4
        //   4: G2 (8)                                  reaches 4
        //   5: A1, W2, G1 (20)                         reaches 5
        //   6: X, W1 (6), opt (0), f1's A1 -> 14 over  reaches 7
        //   7: opt (0), f1's A1 (8), f2's -> over      reaches 8 = kernel 0 of the next iteration
        // Each fault is prefetched before the first launch whose window reaches it: A1 for f1
        // at 7 (the iteration before), L for the loss at 2, G2 for b3 at 3, and so on.
        const auto p = testing::trainingStep8();
        const auto plan = prefetchesOf(planDeepUm(p, gpuOf(20 * kMiB)));
        const QStringList want{"1 prefetch W2 keep 1", "1 prefetch A2 keep 1", "2 prefetch T keep 2",
                               "2 prefetch L keep 3",  "3 prefetch G2 keep 4", "5 prefetch A1 keep 5",
                               "5 prefetch W2 keep 5", "5 prefetch G1 keep 5", "6 prefetch X keep 6",
                               "6 prefetch W1 keep 6", "7 prefetch A1 keep 0"};
        QCOMPARE(testing::describeDirectives(p, plan), want);
        QCOMPARE(plan.notes.at("execution_ids"), std::string("8"));
        QCOMPARE(plan.notes.at("recorded_faults"), std::string("11"));
        // Reaches 1, 1, 2, 2, 1, 1, 2, 2 launches: 1.5 on average.
        QCOMPARE(plan.notes.at("mean_window_reach_x100"), std::string("150"));
    }

    void aLargerBudgetPrefetchesEarlier() {
        // Same faults, budget 1000 permille (20 MiB): every window is longer, so no prefetch is
        // issued later than with 500, and some earlier (counted backwards from the use served).
        const auto p = testing::trainingStep8();
        auto wide = gpuOf(20 * kMiB);
        wide.plannerSafetyPermille = 1000;
        const auto narrowPlan = prefetchesOf(planDeepUm(p, gpuOf(20 * kMiB)));
        const auto widePlan = prefetchesOf(planDeepUm(p, wide));
        QCOMPARE(widePlan.directives.size(), narrowPlan.directives.size());
        auto lead = [&](const Directive& d) { return (d.keepUntil - d.kernelPos + 8) % 8; };
        std::int64_t narrowLead = 0, wideLead = 0;
        for (const auto& d : narrowPlan.directives) narrowLead += lead(d);
        for (const auto& d : widePlan.directives) wideLead += lead(d);
        QVERIFY2(wideLead > narrowLead, qPrintable(QStringLiteral("%1 vs %2").arg(wideLead).arg(narrowLead)));
    }

    void realBertProfile() {
        const auto p = loadProfile(SPILLWAY_SHARED_DATA "/g10/derived/BERT_Base_256");
        HardwareConfig hw = gpuOf(40 * kGiB);  // G10's A100 configuration
        const auto plan = makePlan("deepum", p, hw);
        QVERIFY2(testing::checkWellFormed(p, plan).empty(), testing::checkWellFormed(p, plan).c_str());
        QVERIFY(!plan.directives.empty());
        // BERT's launches are all distinct, so the chain predicts exactly: each prefetch names a
        // tensor that the kernel it is kept for really uses, and that kernel is reached within
        // the window (64 launches) counting forward from the prefetch, wrapping.
        const auto n = static_cast<std::int64_t>(p.kernels.size());
        for (const auto& d : plan.directives) {
            if (d.kind == DirectiveKind::PreEvict) {  // never what the kernel it precedes uses
                QVERIFY(!testing::usesTensor(p.kernels[static_cast<size_t>(d.kernelPos)], d.tensor));
                continue;
            }
            QVERIFY(d.kind == DirectiveKind::Prefetch);
            QVERIFY(testing::usesTensor(p.kernels[static_cast<size_t>(d.keepUntil)], d.tensor));
            const auto ahead = (d.keepUntil - d.kernelPos + n) % n;
            QVERIFY2(ahead < 64, testing::describe(d).c_str());
        }
        QCOMPARE(makePlan("deepum", p, hw), plan);
    }
};

QTEST_GUILESS_MAIN(TestDeepUm)
#include "tst_deepum.moc"
