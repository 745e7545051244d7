// The replay model (runtime/replay/model_backend.h) and ordered slot reuse
// (replay_slot_order.h), worked out by hand on the chain profile of replay_test_support.h:
// four 300 us kernels; a1 and a3 share the same arena bytes.
#include "replay_test_support.h"

#include "core/deploy/measured_comparison.h"
#include "runtime/replay/model_backend.h"
#include "runtime/replay/replay_call.h"
#include "runtime/replay/replay_program_builder.h"
#include "runtime/replay/replay_runner.h"

#include <QtTest>

#include <algorithm>

using namespace spillway;
using namespace replay_test;

namespace {

// Tensors at planned offsets: w at 0, w2 at 4 MiB, a1 at 8 MiB and a3 half a page later (their
// lifetimes do not overlap: a1 dies at k1, a3 is born at k2), a2 and out after.
ExportedPlan sharedSlotPlan(const Profile& profile, std::vector<Directive> directives) {
    ExportedPlan plan = exported(profile, std::move(directives));
    const Bytes mib = kMiB;
    plan.plan.arena = {{10, -1, 0, kWeightBytes},       {15, -1, 4 * mib, kWeightBytes}, {11, -1, 8 * mib, 4096},
                       {13, -1, 8 * mib + 2048, 4096},          {12, -1, 9 * mib, 4096},         {14, -1, 10 * mib, 4096}};
    plan.plan.arenaBytes = 11 * mib;
    return plan;
}

// A machine whose pinned copies take 1 ms per MB (1 GB/s) with a 5 us floor, managed
// prefetches 0.5 GB/s without overlap of the two directions, faults 0.25 GB/s, and 10 us per
// kernel.
HardwareConfig measuredMachine() {
    HardwareConfig hw = slowLinks();
    hw.id = "model-test";
    hw.kernelLaunch = 10'000;
    auto& m = hw.measured;
    m.curve(TransferDirection::ToGpu, TransferMechanism::PinnedCopy) = {{{1'000'000, 1'000'000'000}}, 5'000};
    m.curve(TransferDirection::ToHost, TransferMechanism::PinnedCopy) = {{{1'000'000, 1'000'000'000}}, 5'000};
    m.curve(TransferDirection::ToGpu, TransferMechanism::ManagedPrefetch) = {{{1'000'000, 500'000'000}}, 0};
    m.curve(TransferDirection::ToHost, TransferMechanism::ManagedPrefetch) = {{{1'000'000, 500'000'000}}, 0};
    m.curve(TransferDirection::ToGpu, TransferMechanism::FaultMigration) = {{{1'000'000, 250'000'000}}, 0};
    m.duplex[static_cast<std::size_t>(TransferMechanism::ManagedPrefetch)] = false;
    return hw;
}

// w freed after k0 and prefetched again before k2, in a device arena.
replay::ReplayProgram freedAndPrefetchedInADeviceArena() {
    const Profile profile = chainProfile();
    replay::ReplayOptions device;
    device.arena = replay::ArenaChoice::Device;
    return replay::buildReplayProgram(profile,
                                      sharedSlotPlan(profile, {directive(DirectiveKind::Free, 0, 10, Tier::Gpu, true),
                                                               directive(DirectiveKind::Prefetch, 2, 10)}),
                                      device);
}

MeasuredTimeline modelled(const replay::ReplayProgram& program, int iterations = 1,
                          const HardwareConfig& machine = measuredMachine()) {
    replay::ModelBackend model(machine);
    return replay::runReplay(program, model, iterations);
}

}  // namespace

class TestReplayModel : public QObject {
    Q_OBJECT
private slots:
    void deviceArenaCopiesCostThePinnedCurve() {
        const Profile profile = chainProfile();
        replay::ReplayOptions device;
        device.arena = replay::ArenaChoice::Device;
        const auto program = replay::buildReplayProgram(
            profile, sharedSlotPlan(profile, {directive(DirectiveKind::Prefetch, 0, 10)}), device);
        const MeasuredTimeline t = modelled(program);
        const auto& it = t.iterations[0];
        // 2 MB at 1 GB/s = 2 ms, issued at the origin; k0 waits for it, then 300 us + 10 us.
        QCOMPARE(it.transfers[0].call, std::string("cudaMemcpyAsync host->device"));
        QCOMPARE(it.transfers[0].endNs - it.transfers[0].startNs, Nanoseconds(2'000'000));
        QCOMPARE(it.kernels[0].startNs, Nanoseconds(2'000'000));
        QCOMPARE(it.kernels[0].endNs, Nanoseconds(2'000'000 + 310'000));
        QCOMPARE(it.kernels[3].endNs - it.kernels[1].readyNs, Nanoseconds(3 * 310'000));
    }

    void deviceArenaPrefetchAfterADropCopiesNothing() {
        const auto program = freedAndPrefetchedInADeviceArena();
        const MeasuredTimeline t = modelled(program);
        const auto& prefetch = t.iterations[0].transfers[1];
        QCOMPARE(prefetch.kind, std::string("prefetch"));
        QCOMPARE(prefetch.call, std::string("nothing (device memory: dropped contents need no copy)"));
        QCOMPARE(prefetch.endNs, prefetch.startNs);
    }

    void managedKernelsFaultWhatIsOnTheHost() {
        const Profile profile = chainProfile();
        replay::ReplayOptions managed;
        managed.arena = replay::ArenaChoice::Managed;
        // w is pre-evicted after k0 (2 MB at 10 GB/s: done before k2) and not brought back: k2
        // faults its 2 MB in at 0.25 GB/s.
        HardwareConfig hw = measuredMachine();
        hw.measured.curve(TransferDirection::ToHost, TransferMechanism::ManagedPrefetch) = {{{1'000'000, 10'000'000'000}}, 0};
        const auto program = replay::buildReplayProgram(
            profile, sharedSlotPlan(profile, {directive(DirectiveKind::PreEvict, 0, 10, Tier::Host, true)}), managed);
        const MeasuredTimeline t = modelled(program, 1, hw);
        const auto& it = t.iterations[0];
        const auto& k2 = it.kernels[2];
        QCOMPARE(it.transfers[0].call, std::string("cudaMemPrefetchAsync to host"));
        QVERIFY(it.transfers[0].endNs < k2.startNs);
        // w's 2 MB, and the half of a3's second page no kernel had touched (2048 B: 8192 ns)
        QCOMPARE(k2.endNs - k2.startNs, Nanoseconds(310'000 + 8'000'000 + 8'192));
        // k1 touches nothing on the host; it only populates its new output a2 (4 KiB: 16 384 ns).
        QCOMPARE(it.kernels[1].endNs - it.kernels[1].startNs, Nanoseconds(310'000 + 16'384));
    }

    void oppositeManagedPrefetchesDoNotOverlap() {
        const Profile profile = chainProfile();
        replay::ReplayOptions managed;
        managed.arena = replay::ArenaChoice::Managed;
        // Both issued before k1: w2 in (2 MB) and w out (2 MB), 4 ms each at 0.5 GB/s.
        const auto program = replay::buildReplayProgram(
            profile,
            sharedSlotPlan(profile, {directive(DirectiveKind::PreEvict, 1, 10, Tier::Host),
                                     directive(DirectiveKind::Prefetch, 1, 15)}),
            managed);
        const MeasuredTimeline t = modelled(program, 2);
        const auto& tr = t.iterations[1].transfers;
        QCOMPARE(tr[0].kind, std::string("pre-evict"));
        QVERIFY(tr[1].startNs >= tr[0].endNs);  // serialised: the link does not run both ways
    }

    void followedCallsReplaceTheRuntimesOwn() {
        const auto program = freedAndPrefetchedInADeviceArena();
        // A replay measured before issue 16 copied the dropped tensor in anyway.
        MeasuredTimeline past = modelled(program);
        past.iterations[0].transfers[1].call = "cudaMemcpyAsync host->device";
        replay::ModelBackend model(measuredMachine());
        model.followCalls(program, past);
        const MeasuredTimeline t = replay::runReplay(program, model, 1);
        QCOMPARE(t.iterations[0].transfers[1].endNs - t.iterations[0].transfers[1].startNs, Nanoseconds(2'000'000));
        const MeasuredComparison c = compareWithModel(past, t);
        QCOMPARE(c.kernels.size(), std::size_t(4));

        past.iterations[0].transfers.pop_back();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, model.followCalls(program, past));
    }

    void slotReuseMovesThePrefetchAndWaitsForTheDrop() {
        const Profile profile = chainProfile();
        // a3 shares a1's bytes; its prefetch is planned before k0, a1 is freed after k1.
        const ExportedPlan plan = sharedSlotPlan(profile, {directive(DirectiveKind::Prefetch, 0, 13),
                                                           directive(DirectiveKind::Free, 1, 11, Tier::Gpu, true)});
        replay::ReplayOptions managed;
        managed.arena = replay::ArenaChoice::Managed;
        const auto ordered = replay::buildReplayProgram(profile, plan, managed);
        QVERIFY(ordered.slotsOrdered);
        const auto& prefetch = ordered.directives[1];
        QVERIFY(prefetch.action == replay::ReplayAction::Prefetch);
        QCOMPARE(prefetch.anchorRunIndex, std::int64_t(1));  // after k1, the last user of a1
        QVERIFY(prefetch.afterKernel);
        const auto& free = ordered.directives[0];
        QVERIFY(free.action == replay::ReplayAction::Free);
        // issued after a1's free at the same anchor, and waits for it
        QCOMPARE(prefetch.slotWaits.size(), std::size_t(1));
        QCOMPARE(prefetch.slotWaits[0].directive, std::size_t(0));
        QVERIFY(!prefetch.slotWaits[0].previousIteration);
        // k2 (first user of a3) waits for a1's free.
        bool waits = false;
        for (const auto& dep : ordered.kernels[2].waitsFor) waits = waits || (dep.directive == 0 && !dep.previousIteration);
        QVERIFY(waits);

        managed.orderSlots = false;
        const auto unordered = replay::buildReplayProgram(profile, plan, managed);
        QVERIFY(!unordered.slotsOrdered);
        QCOMPARE(unordered.directives[0].anchorRunIndex, std::int64_t(0));
        QVERIFY(!unordered.directives[0].afterKernel);
    }

    // A prefetch never runs beside the drop of a tensor sharing its bytes (CUDA leaves a discard
    // simultaneous with a prefetch of the same range undefined): planned at the same anchor
    // before the drop, it is issued after it; the drop planned later, before the tensor's use,
    // the prefetch moves there. Either way it waits for the drop.
    void aPrefetchIsIssuedAfterTheDropOfItsSlotsPreviousTensor() {
        const Profile profile = chainProfile();
        replay::ReplayOptions managed;
        managed.arena = replay::ArenaChoice::Managed;
        const auto waitsFor = [](const replay::ReplayDirective& d, std::size_t j) {
            return std::any_of(d.slotWaits.begin(), d.slotWaits.end(),
                               [&](const replay::ReplayDependency& w) { return w.directive == j && !w.previousIteration; });
        };
        // a3's prefetch and a1's free, both after k1, the prefetch first in the plan.
        const auto sameAnchor = replay::buildReplayProgram(
            profile,
            sharedSlotPlan(profile, {directive(DirectiveKind::Prefetch, 1, 13, Tier::Gpu, true),
                                     directive(DirectiveKind::Free, 1, 11, Tier::Gpu, true)}),
            managed);
        QVERIFY(sameAnchor.directives[0].action == replay::ReplayAction::Free);
        QVERIFY(sameAnchor.directives[1].action == replay::ReplayAction::Prefetch);
        QCOMPARE(sameAnchor.directives[1].anchorRunIndex, std::int64_t(1));
        QVERIFY(waitsFor(sameAnchor.directives[1], 0));
        QVERIFY(std::any_of(sameAnchor.notes.begin(), sameAnchor.notes.end(), [](const auto& note) {
            return note.second.find("1 prefetch(es) issued after the drop of another tensor") != std::string::npos;
        }));
        // a1 freed lazily before k2, the first user of a3: the prefetch moves there.
        const auto laterDrop = replay::buildReplayProgram(
            profile,
            sharedSlotPlan(profile, {directive(DirectiveKind::Prefetch, 1, 13, Tier::Gpu, true),
                                     directive(DirectiveKind::Free, 2, 11, Tier::Gpu, false)}),
            managed);
        QVERIFY(laterDrop.directives[1].action == replay::ReplayAction::Prefetch);
        QCOMPARE(laterDrop.directives[1].anchorRunIndex, std::int64_t(2));
        QVERIFY(!laterDrop.directives[1].afterKernel);
        QVERIFY(waitsFor(laterDrop.directives[1], 0));
        // A drop after the tensor's use does not move it (it waits only for last iteration's).
        const auto afterUse = replay::buildReplayProgram(
            profile,
            sharedSlotPlan(profile, {directive(DirectiveKind::Prefetch, 1, 13, Tier::Gpu, true),
                                     directive(DirectiveKind::Free, 2, 11, Tier::Gpu, true)}),
            managed);
        QVERIFY(afterUse.directives[0].action == replay::ReplayAction::Prefetch);
        QCOMPARE(afterUse.directives[0].anchorRunIndex, std::int64_t(1));
        QVERIFY(!waitsFor(afterUse.directives[0], 1));
    }

    // Pages a discard dropped fault back at the discarded_fault curve (without one, at the
    // fault-migration curve as any fault); only pages wholly inside the discarded range drop.
    void discardedPagesFaultBackAtTheirOwnCurve() {
        const Profile profile = chainProfile();
        replay::ReplayOptions managed;
        managed.arena = replay::ArenaChoice::Managed;
        // a1's one page (8 MiB, aligned) freed after k1; k2 writes a3: 2048 bytes in that page,
        // 2048 in the next, never touched.
        const auto program = replay::buildReplayProgram(
            profile, sharedSlotPlan(profile, {directive(DirectiveKind::Free, 1, 11, Tier::Gpu, true)}), managed);
        HardwareConfig slow = measuredMachine();
        slow.measured.curve(TransferDirection::ToGpu, TransferMechanism::DiscardedFault) = {{{1'000'000, 1'000'000}}, 0};
        const auto k2 = [](const MeasuredTimeline& t) { return t.iterations[0].kernels[2].endNs - t.iterations[0].kernels[2].startNs; };
        const Nanoseconds plain = k2(modelled(program));
        const Nanoseconds priced = k2(modelled(program, 1, slow));
        // without the curve: 4096 bytes at 250 MB/s; with it: 2048 at 250 MB/s + 2048 at 1 MB/s
        QCOMPARE(priced - plain, Nanoseconds(8'192 + 2'048'000 - 16'384));
        // a1 moved half a page on: no page lies wholly inside it, nothing is dropped.
        ExportedPlan unaligned = sharedSlotPlan(profile, {directive(DirectiveKind::Free, 1, 11, Tier::Gpu, true)});
        for (ArenaSlot& slot : unaligned.plan.arena)
            if (slot.tensor == 11) slot.offset += 1024;
        const auto shifted = replay::buildReplayProgram(profile, unaligned, managed);
        QCOMPARE(k2(modelled(shifted, 1, slow)), k2(modelled(shifted)));
    }

    // A drop --discards leaves out is not issued: the model charges it nothing and its pages stay.
    void dropsLeftOutAreNotIssued() {
        const Profile profile = chainProfile();
        const auto plan = sharedSlotPlan(profile, {directive(DirectiveKind::Free, 1, 11, Tier::Gpu, true),
                                                   directive(DirectiveKind::Free, 3, 13, Tier::Gpu, true)});
        HardwareConfig slow = measuredMachine();
        slow.measured.curve(TransferDirection::ToGpu, TransferMechanism::DiscardedFault) = {{{1'000'000, 1'000'000}}, 0};
        const auto run = [&](const char* selection) {
            replay::ReplayOptions managed;
            managed.arena = replay::ArenaChoice::Managed;
            managed.discards = replay::DiscardSelection::parse(selection);
            return modelled(replay::buildReplayProgram(profile, plan, managed), 1, slow).iterations[0];
        };
        const auto k2 = [](const MeasuredIteration& i) { return i.kernels[2].endNs - i.kernels[2].startNs; };
        const MeasuredIteration all = run("all"), none = run("none"), second = run("1"), first = run("except:1");
        QCOMPARE(all.transfers[0].call, std::string("cudaMemDiscardBatchAsync"));
        QVERIFY(none.transfers[0].call.rfind("nothing", 0) == 0 && none.transfers[1].call.rfind("nothing", 0) == 0);
        QVERIFY(second.transfers[0].call.rfind("nothing", 0) == 0);
        QCOMPARE(second.transfers[1].call, std::string("cudaMemDiscardBatchAsync"));
        QCOMPARE(first.transfers[0].call, std::string("cudaMemDiscardBatchAsync"));
        QVERIFY(first.transfers[1].call.rfind("nothing", 0) == 0);
        // k2 writes into a1's dropped page only when a1's drop (directive 0) is issued
        QVERIFY(k2(all) > k2(none));
        QCOMPARE(k2(first), k2(all));
        QCOMPARE(k2(second), k2(none));
    }

    // --fence-discards: each issued drop is followed by a one-page prefetch; the model charges it
    // the managed prefetch's smallest transfer on top of the discard, pages as before; a drop left
    // out stays unissued; the recorded name reads back as the fenced call, which discards pages.
    void aFencedDiscardCostsThePrefetchFloorMore() {
        const Profile profile = chainProfile();
        const auto plan = sharedSlotPlan(profile, {directive(DirectiveKind::Free, 1, 11, Tier::Gpu, true),
                                                   directive(DirectiveKind::Free, 3, 13, Tier::Gpu, true)});
        HardwareConfig hw = measuredMachine();
        hw.measured.curve(TransferDirection::ToGpu, TransferMechanism::ManagedPrefetch) = {{{1'000'000, 500'000'000}}, 40'000};
        const auto run = [&](bool fence, const char* selection) {
            replay::ReplayOptions managed;
            managed.arena = replay::ArenaChoice::Managed;
            managed.fenceDiscards = fence;
            managed.discards = replay::DiscardSelection::parse(selection);
            return modelled(replay::buildReplayProgram(profile, plan, managed), 1, hw).iterations[0];
        };
        const auto span = [](const MeasuredTransfer& t) { return t.endNs - t.startNs; };
        const MeasuredIteration plain = run(false, "all"), fenced = run(true, "all"), one = run(true, "1");
        QCOMPARE(fenced.transfers[0].call, std::string("cudaMemDiscardBatchAsync, then a fence prefetch"));
        QCOMPARE(span(fenced.transfers[0]) - span(plain.transfers[0]), Nanoseconds(40'000));
        QVERIFY(one.transfers[0].call.rfind("nothing", 0) == 0);
        QCOMPARE(one.transfers[1].call, fenced.transfers[1].call);
        // k2 writes into a1's dropped page either way: the fence orders the discard, it does not undo it
        const auto k2 = [](const MeasuredIteration& i) { return i.kernels[2].endNs - i.kernels[2].startNs; };
        QCOMPARE(k2(fenced), k2(plain));
        QCOMPARE(replay::replayCallNamed(fenced.transfers[0].call), std::optional(replay::ReplayCall::FencedDiscard));
        QVERIFY(replay::discardsPages(fenced.transfers[0].call));
        replay::ReplayOptions device;
        device.arena = replay::ArenaChoice::Device;
        device.fenceDiscards = true;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, replay::buildReplayProgram(profile, plan, device));
    }

    void modelNamesKernelsWhoseSlotWasWipedUnderThem() {
        const Profile profile = chainProfile();
        // Unordered: a1's free after k1 waits on the out stream behind a pre-evict of w after k0
        // (2 MB at 5 GB/s, 400 us), so it lands while k2 writes a3, half of whose page is a1's.
        HardwareConfig hw = measuredMachine();
        hw.measured.curve(TransferDirection::ToHost, TransferMechanism::ManagedPrefetch) = {{{1'000'000, 5'000'000'000}}, 0};
        hw.measured.curve(TransferDirection::ToGpu, TransferMechanism::FaultMigration) = {{{1'000'000, 100'000'000'000}}, 0};
        const ExportedPlan plan = sharedSlotPlan(profile, {directive(DirectiveKind::PreEvict, 0, 10, Tier::Host, true),
                                                           directive(DirectiveKind::Free, 1, 11, Tier::Gpu, true)});
        replay::ReplayOptions managed;
        managed.arena = replay::ArenaChoice::Managed;
        managed.orderSlots = false;
        const auto program = replay::buildReplayProgram(profile, plan, managed);
        replay::ModelBackend model(hw);
        replay::runReplay(program, model, 1);
        QCOMPARE(model.slotRaces().size(), std::size_t(1));
        QCOMPARE(model.slotRaces()[0].kernel, std::size_t(2));
        managed.orderSlots = true;
        replay::ModelBackend ordered(hw);
        replay::runReplay(replay::buildReplayProgram(profile, plan, managed), ordered, 1);
        QVERIFY(ordered.slotRaces().empty());
    }
};

QTEST_GUILESS_MAIN(TestReplayModel)
#include "tst_replay_model.moc"
