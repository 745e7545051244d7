// The discard and discard-lazy modifiers on the eight-kernel step (training_step_8.h), alone
// and on top of other plans, then properties on BERT with every base planner of this group.
//
// Non-persistent tensors, their uses, and what the modifier adds (discard right after the last
// use; prefetch before the first use, where the next iteration repurposes the buffer):
//   X  0, 6      discard at 7, prefetch at 0
//   A1 0, 1, 5   discard at 6, prefetch at 0
//   A2 1, 2, 4   discard at 5, prefetch at 1
//   L  3, 4      discard at 5, prefetch at 3
//   G2 4, 5      discard at 6, prefetch at 4
//   G1 5, 6, 7   last used by the last kernel: nothing
//   T  2, 3      discard at 4, prefetch at 2
// W1 and W2 are persistent: never dead.
#include "core/io/profile_loader.h"
#include "core/policy/planner.h"
#include "core/policy/planners.h"
#include "directive_checks.h"
#include "training_step_8.h"

#include <QtTest>
#include <algorithm>
#include <map>

using namespace spillway;

class TestDiscardModifier : public QObject {
    Q_OBJECT
private slots:
    void eagerOnAnEmptyPlan() {
        const auto p = testing::trainingStep8();
        const auto plan = makePlan("uvm+discard", p, HardwareConfig{});
        QCOMPARE(plan.policy, std::string("uvm+discard"));
        // Sorted by position; at one position, in tensor order (G2's prefetch before T's discard).
        QCOMPARE(testing::describeDirectives(p, plan),
                 (QStringList{"0 prefetch X", "0 prefetch A1", "1 prefetch A2", "2 prefetch T", "3 prefetch L",
                              "4 prefetch G2", "4 discard T", "5 discard A2", "5 discard L", "6 discard A1",
                              "6 discard G2", "7 discard X"}));
        QCOMPARE(plan.notes.at("discard.tensors"), std::string("6"));
        QCOMPARE(plan.notes.at("discard.bytes"), std::to_string(30 * kMiB));  // 2+8+8+2+8+2
    }

    void lazyMarksTheSameTensors() {
        const auto p = testing::trainingStep8();
        auto eager = makePlan("uvm+discard", p, HardwareConfig{});
        const auto lazy = makePlan("uvm+discard-lazy", p, HardwareConfig{});
        for (auto& d : eager.directives)
            if (d.kind == DirectiveKind::Discard) d.kind = DirectiveKind::DiscardLazy;
        QCOMPARE(lazy.directives, eager.directives);
    }

    void theBasePlanWins() {
        // A base plan that still wants X after its last use (prefetch at 7, for the next
        // iteration), pre-evicts A2 at 5, frees L at 5, and already prefetches T at 2 for its
        // first use. X, A2 and L are left alone; T is discarded but needs no extra prefetch.
        const auto p = testing::trainingStep8();
        Plan base;
        base.policy = "hand";
        base.directives = {{2, DirectiveKind::Prefetch, 9, Tier::Gpu},
                           {5, DirectiveKind::PreEvict, 5, Tier::Host},
                           {5, DirectiveKind::Free, 6, Tier::Gpu},
                           {7, DirectiveKind::Prefetch, 3, Tier::Gpu}};
        auto plan = base;
        applyDiscard(p, HardwareConfig{}, plan);
        QCOMPARE(testing::describeDirectives(p, plan),
                 (QStringList{"0 prefetch A1", "2 prefetch T", "4 prefetch G2", "4 discard T", "5 pre-evict A2 host",
                              "5 free L", "6 discard A1", "6 discard G2", "7 prefetch X"}));
    }

    void applyingTwiceAddsNothing() {
        const auto p = testing::trainingStep8();
        auto plan = makePlan("uvm+discard", p, HardwareConfig{});
        const auto once = plan.directives;
        applyDiscard(p, HardwareConfig{}, plan);
        QCOMPARE(plan.directives, once);
        applyDiscardLazy(p, HardwareConfig{}, plan);  // nor does the other variant contradict it
        QCOMPARE(plan.directives, once);
    }

    void followsThePlanOrder() {
        // Run order 0 1 2 3 4 6 5 7 (b1 before b2). In run order X's last use (6) runs sixth,
        // so X is discarded before kernel 5; A2 and L (last used at 4) before kernel 6, which
        // now follows 4; A1 and G2 (last used at 5, now seventh) before 7. G1's last use (7)
        // is still the last kernel. Directives are sorted in run order: 6 before 5.
        const auto p = testing::trainingStep8();
        Plan plan;
        plan.order = {0, 1, 2, 3, 4, 6, 5, 7};
        applyDiscard(p, HardwareConfig{}, plan);
        QCOMPARE(testing::describeDirectives(p, plan),
                 (QStringList{"0 prefetch X", "0 prefetch A1", "1 prefetch A2", "2 prefetch T", "3 prefetch L",
                              "4 prefetch G2", "4 discard T", "6 discard A2", "6 discard L", "5 discard X",
                              "7 discard A1", "7 discard G2"}));
    }

    void realBertProfileOnEveryBase() {
        const auto p = loadProfile(SPILLWAY_SHARED_DATA "/g10/derived/BERT_Base_256");
        HardwareConfig hw;
        hw.gpuCapacity = 40 * kGiB;
        hw.gpuToSsd = hw.ssdToGpu = {3'200'000'000, 20'000};
        hw.gpuToHost = hw.hostToGpu = {15'754'000'000, 0};
        const auto liveness = computeLiveness(p);
        const ProfileIndex index(p);
        for (const char* policy : {"uvm+discard", "uvm+discard-lazy", "deepum-lookahead+discard",
                                   "deepum+discard-lazy", "flashneuron+discard"}) {
            const auto plan = makePlan(policy, p, hw);
            QVERIFY2(testing::checkWellFormed(p, plan).empty(), testing::checkWellFormed(p, plan).c_str());
            QVERIFY2(testing::checkDiscardsAfterLastUse(p, plan).empty(),
                     testing::checkDiscardsAfterLastUse(p, plan).c_str());
            // Never a discard for a tensor that the plan prefetches or releases later.
            std::map<TensorId, std::int64_t> discardAt;
            for (const auto& d : plan.directives)
                if (d.kind == DirectiveKind::Discard || d.kind == DirectiveKind::DiscardLazy) {
                    QVERIFY2(!discardAt.count(d.tensor), policy);  // at most one per tensor
                    discardAt[d.tensor] = d.kernelPos;
                }
            // FlashNeuron already frees every dead tensor: the base plan wins, nothing to add.
            QVERIFY2(discardAt.empty() == (std::string(policy).rfind("flashneuron", 0) == 0), policy);
            for (const auto& d : plan.directives) {
                const auto it = discardAt.find(d.tensor);
                if (it == discardAt.end() || d.kind == DirectiveKind::Discard || d.kind == DirectiveKind::DiscardLazy)
                    continue;
                QVERIFY2(d.kernelPos < it->second, (std::string(policy) + ": " + testing::describe(d)).c_str());
            }
            // Every discarded tensor is prefetched by its first use (the reuse next iteration).
            for (const auto& [tensor, at] : discardAt) {
                const auto first = liveness.tensors[static_cast<size_t>(index.tensorPos(tensor))].firstUse;
                const bool prefetched = std::any_of(plan.directives.begin(), plan.directives.end(), [&](const Directive& d) {
                    return d.kind == DirectiveKind::Prefetch && d.tensor == tensor && d.kernelPos <= first;
                });
                QVERIFY2(prefetched, policy);
            }
            QCOMPARE(makePlan(policy, p, hw), plan);
        }
    }
};

QTEST_GUILESS_MAIN(TestDiscardModifier)
#include "tst_discard_modifier.moc"
