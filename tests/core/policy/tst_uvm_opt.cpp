// `uvm-opt`, the UVM Discard paper's baseline (7.1, Listing 6): UVM with a prefetch of every
// non-persistent tensor before each kernel that uses it, weights left to demand paging; on top
// of it `+discard` adds discards only, so `uvm-opt` against `uvm-opt+discard` is discard's gain
// without prefetching's (`uvm` against `uvm+discard` measures both).
#include "core/policy/planner.h"
#include "core/sim/simulator.h"
#include "tests/support/discard_pipeline.h"

#include <QtTest>

#include <algorithm>

using namespace spillway;

namespace {

Profile pipeline() { return test::discardPipeline(); }
HardwareConfig machine(Bytes gpu) { return test::discardPipelineMachine(gpu); }

std::vector<Directive> only(const Plan& plan, DirectiveKind kind) {
    std::vector<Directive> out;
    std::copy_if(plan.directives.begin(), plan.directives.end(), std::back_inserter(out),
                 [&](const Directive& d) { return d.kind == kind; });
    return out;
}

Bytes moved(const SimulationResult& r) {
    return r.traffic[static_cast<int>(LinkId::GpuToHost)] + r.traffic[static_cast<int>(LinkId::HostToGpu)];
}

}  // namespace

class TestUvmOpt : public QObject {
    Q_OBJECT
private slots:
    void prefetchesEveryBufferBeforeEachUse() {
        const auto p = pipeline();
        const Plan plan = makePlan("uvm-opt", p, machine(512 * kMiB));
        QCOMPARE(plan.policy, std::string("uvm-opt"));
        // B0 is used by kernel 0, B16 by kernel 15, every other B(k) by kernels k - 1 and k.
        QCOMPARE(plan.directives.size(), size_t(1 + 15 * 2 + 1));
        QCOMPARE(only(plan, DirectiveKind::Prefetch).size(), plan.directives.size());
        for (const auto& d : plan.directives) {
            QVERIFY(d.tensor != 1);  // the weight is demand-paged
            const auto& k = p.kernels[static_cast<size_t>(d.kernelPos)];
            const bool usedThere = std::count(k.inputs.begin(), k.inputs.end(), d.tensor) +
                                       std::count(k.outputs.begin(), k.outputs.end(), d.tensor) > 0;
            QVERIFY(usedThere);
        }
        QVERIFY(std::is_sorted(plan.directives.begin(), plan.directives.end(),
                               [](const Directive& a, const Directive& b) { return a.kernelPos < b.kernelPos; }));
        QCOMPARE(plan.notes.at("uvm-opt.prefetches"), std::string("32"));
        QCOMPARE(plan.notes.at("uvm-opt.tensors"), std::string("17"));
    }

    void discardOnTopAddsDiscardsOnly() {
        const auto p = pipeline();
        const auto hw = machine(512 * kMiB);
        const Plan base = makePlan("uvm-opt", p, hw);
        const Plan withDiscard = makePlan("uvm-opt+discard", p, hw);
        // The same prefetches, in the same order; the modifier adds none of its own.
        const auto prefetches = only(withDiscard, DirectiveKind::Prefetch);
        QCOMPARE(prefetches.size(), base.directives.size());
        QVERIFY(std::equal(prefetches.begin(), prefetches.end(), base.directives.begin()));
        QCOMPARE(withDiscard.notes.at("discard.prefetches_added"), std::string("0"));
        // B0 .. B14 are discarded after their last use; B15 and B16, last used by the final
        // kernel, have no later position to be discarded at.
        QCOMPARE(only(withDiscard, DirectiveKind::Discard).size(), size_t(15));
        QCOMPARE(withDiscard.directives.size(), prefetches.size() + 15);
    }

    void uvmOptAgainstDiscardIsDiscardsGain() {
        const auto p = pipeline();
        // 512 MiB for 1152 MiB: oversubscribed; dead buffers are written back and copied in again
        // under uvm-opt, not once discarded.
        const auto hw = machine(512 * kMiB);
        const auto opt = simulate(p, makePlan("uvm-opt", p, hw), hw);
        const auto discard = simulate(p, makePlan("uvm-opt+discard", p, hw), hw);
        qInfo("uvm-opt %lld us, %lld MiB moved; uvm-opt+discard %lld us, %lld MiB moved, saved %lld MiB",
              static_cast<long long>(opt.iterationTime / 1000), static_cast<long long>(moved(opt) / kMiB),
              static_cast<long long>(discard.iterationTime / 1000), static_cast<long long>(moved(discard) / kMiB),
              static_cast<long long>(discard.discardSavedBytes / kMiB));
        QVERIFY(moved(discard) < moved(opt));
        QVERIFY(discard.discardSavedBytes > 0);
        QVERIFY(discard.iterationTime < opt.iterationTime);
        // When everything fits neither moves anything: the same traffic (the paper's "<100%").
        const auto roomy = machine(4 * kGiB);
        const auto optFits = simulate(p, makePlan("uvm-opt", p, roomy), roomy);
        const auto discardFits = simulate(p, makePlan("uvm-opt+discard", p, roomy), roomy);
        QCOMPARE(moved(discardFits), moved(optFits));
    }
};

QTEST_GUILESS_MAIN(TestUvmOpt)
#include "tst_uvm_opt.moc"
