// The plan verifier on hand-made profiles: a good plan passes; a tensor used while on the host
// in a plan that may not fault, overlapping offsets, an arena too big for the GPU, another
// profile's hash, an order against the data flow, bad directives and an impossible run are each
// caught and named with their kernel (position and name) and tensor (id and name); several
// problems come back together.
#include "core/io/native/profile_hash.h"
#include "core/deploy/plan_verifier.h"

#include "../../support/profile_builder.h"

#include <QTest>

using namespace spillway;
using spillway::testing::ProfileBuilder;

namespace {

constexpr Bytes k4M = 4 * kMiB;

// W (weight) feeds 'embed' -> A and 'mid' -> B; 'head' reads A and B and writes C.
//   kernel 0 'embed': W -> A      A lives 0..2
//   kernel 1 'mid'  : W -> B      B lives 1..2
//   kernel 2 'head' : A, B -> C   C lives 2..2
// 'mid' does not touch A, so A can be pre-evicted before it and must come back for 'head'.
Profile threeKernels() {
    return ProfileBuilder("three-kernels")
        .tensor(10, "W", k4M, TensorKind::Weight, true)
        .tensor(11, "A", k4M, TensorKind::Activation, false)
        .tensor(12, "B", k4M, TensorKind::Activation, false)
        .tensor(13, "C", k4M, TensorKind::Activation, false)
        .kernel(100, "embed", KernelPhase::Forward, 1000, {10}, {11})
        .kernel(101, "mid", KernelPhase::Forward, 1000, {10}, {12})
        .kernel(102, "head", KernelPhase::Forward, 1000, {11, 12}, {13})
        .build();
}

// 1 B/ns PCIe, everything starts on the GPU, one iteration: what the plan moves is all that moves.
HardwareConfig machine(Bytes gpu) {
    HardwareConfig hw;
    hw.id = "unit";
    hw.gpuCapacity = gpu;
    hw.hostCapacity = 1 * kGiB;
    hw.hostToGpu = hw.gpuToHost = {1'000'000'000, 0};
    hw.faultBatchPages = 256;
    hw.faultLatency = 1000;
    hw.weightsStartOn = Tier::Gpu;
    hw.iterations = 1;
    return hw;
}

// A valid arena by hand: W [0, 4M) all along, A [4M, 8M), B [8M, 12M), C [0+12M, 16M).
void addArena(Plan& plan) {
    plan.placement = "by-hand";
    plan.arena = {{10, -1, 0, k4M}, {11, -1, k4M, k4M}, {12, -1, 2 * k4M, k4M}, {13, -1, 3 * k4M, k4M}};
    plan.arenaBytes = 4 * k4M;
}

ExportedPlan exportedFor(const Profile& profile, Plan plan, Bytes gpu = 64 * kMiB) {
    if (plan.order.empty()) plan.order = {0, 1, 2};
    return ExportedPlan{profile.metadata.model, profileHash(profile), machine(gpu), plan};
}

std::vector<const PlanProblem*> ofKind(const PlanVerification& v, PlanProblemKind kind) {
    std::vector<const PlanProblem*> out;
    for (const auto& p : v.problems)
        if (p.kind == kind) out.push_back(&p);
    return out;
}

QString listed(const PlanVerification& v) {
    QString s;
    for (const auto& p : v.problems) s += QString::fromStdString(std::string(toString(p.kind)) + ": " + p.message + "\n");
    return s;
}

}  // namespace

class TestPlanVerifier : public QObject {
    Q_OBJECT
private slots:
    void goodPlanPasses() {
        const Profile profile = threeKernels();
        Plan plan;
        plan.allowFaults = false;
        addArena(plan);
        // Out before 'mid', back before 'head': 'head' waits for it (a late prefetch), never faults.
        plan.directives = {{1, DirectiveKind::PreEvict, 11, Tier::Host}, {2, DirectiveKind::Prefetch, 11, Tier::Gpu}};
        const PlanVerification v = verifyPlan(profile, exportedFor(profile, plan));
        QVERIFY2(v.ok(), qPrintable(listed(v)));
        QVERIFY(v.replayed);
        QCOMPARE(v.result.kernels.size(), std::size_t(3));
        QVERIFY(v.result.demandFetches.empty());
        // A moved out and back: 4 MiB each way at 1 B/ns.
        QCOMPARE(v.result.traffic[static_cast<int>(LinkId::GpuToHost)], k4M);
        QCOMPARE(v.result.traffic[static_cast<int>(LinkId::HostToGpu)], k4M);
    }

    void useWhileAbsentIsCaughtWithKernelAndTensor() {
        const Profile profile = threeKernels();
        Plan plan;
        plan.allowFaults = false;
        plan.directives = {{1, DirectiveKind::PreEvict, 11, Tier::Host}};  // and never brought back
        const PlanVerification v = verifyPlan(profile, exportedFor(profile, plan));
        const auto absent = ofKind(v, PlanProblemKind::UsedWhileAbsent);
        QCOMPARE(absent.size(), std::size_t(1));
        QCOMPARE(v.problems.size(), std::size_t(1));
        QCOMPARE(absent[0]->kernelPos, std::int64_t(2));
        QCOMPARE(absent[0]->tensor, TensorId(11));
        QVERIFY2(absent[0]->message.find("kernel 2 'head'") != std::string::npos, absent[0]->message.c_str());
        QVERIFY2(absent[0]->message.find("tensor 11 'A'") != std::string::npos, absent[0]->message.c_str());
        QVERIFY(absent[0]->message.find("host") != std::string::npos);
    }

    void theSamePlanMayFaultUnderUnifiedMemory() {
        const Profile profile = threeKernels();
        Plan plan;  // allowFaults by default
        plan.directives = {{1, DirectiveKind::PreEvict, 11, Tier::Host}};
        const PlanVerification v = verifyPlan(profile, exportedFor(profile, plan));
        QVERIFY2(v.ok(), qPrintable(listed(v)));
        // The fault is still there, only allowed.
        QCOMPARE(v.result.demandFetches.size(), std::size_t(1));
    }

    void afterKernelIsBeforeTheNextOne() {
        const Profile profile = threeKernels();
        Plan plan;
        plan.allowFaults = false;
        // After 'embed' is before 'mid': the same eviction, and the same fault at 'head'.
        plan.directives = {{0, DirectiveKind::PreEvict, 11, Tier::Host, -1, true}};
        const PlanVerification v = verifyPlan(profile, exportedFor(profile, plan));
        const auto absent = ofKind(v, PlanProblemKind::UsedWhileAbsent);
        QCOMPARE(absent.size(), std::size_t(1));
        QCOMPARE(absent[0]->kernelPos, std::int64_t(2));
    }

    void contiguousPlansMayNotFault() {
        Profile profile = threeKernels();
        profile.kernels[1].duration = 10'000'000;  // A's 4 MiB copy-out (4.2 ms) ends while 'mid' runs
        Plan plan;  // allowFaults is true, but device memory managed by the framework cannot fault
        plan.memoryModel = MemoryModel::ContiguousFirstFit;
        plan.directives = {{1, DirectiveKind::PreEvict, 11, Tier::Host}};
        const PlanVerification v = verifyPlan(profile, exportedFor(profile, plan));
        const auto absent = ofKind(v, PlanProblemKind::UsedWhileAbsent);
        QVERIFY2(absent.size() == 1, qPrintable(listed(v)));
        QCOMPARE(absent[0]->tensor, TensorId(11));
        QVERIFY(absent[0]->message.find("contiguous-first-fit") != std::string::npos);
    }

    void overlappingOffsetsAreCaught() {
        const Profile profile = threeKernels();
        Plan plan;
        addArena(plan);
        plan.arena[2].offset = k4M + k4M / 2;  // B at [6M, 10M) over A's [4M, 8M); both live at 'mid' and 'head'
        const PlanVerification v = verifyPlan(profile, exportedFor(profile, plan));
        const auto overlaps = ofKind(v, PlanProblemKind::Overlap);
        QVERIFY2(overlaps.size() == 1, qPrintable(listed(v)));
        // B starts at 'mid' (tick 1), where A is already placed.
        QCOMPARE(overlaps[0]->kernelPos, std::int64_t(1));
        const std::set<TensorId> pair{overlaps[0]->tensor, overlaps[0]->otherTensor};
        QCOMPARE(pair, (std::set<TensorId>{11, 12}));
        QVERIFY2(overlaps[0]->message.find("kernel 1 'mid'") != std::string::npos, overlaps[0]->message.c_str());
        QVERIFY(overlaps[0]->message.find("tensor 11 'A'") != std::string::npos);
        QVERIFY(overlaps[0]->message.find("tensor 12 'B'") != std::string::npos);
    }

    void disjointLifetimesMayShareBytes() {
        // x lives at k0..k1, z at k2 only: z may take x's bytes.
        const Profile chain = ProfileBuilder("chain")
                                  .tensor(1, "x", k4M, TensorKind::Activation, false)
                                  .tensor(2, "y", k4M, TensorKind::Activation, false)
                                  .tensor(3, "z", k4M, TensorKind::Activation, false)
                                  .kernel(0, "k0", KernelPhase::Forward, 10, {}, {1})
                                  .kernel(1, "k1", KernelPhase::Forward, 10, {1}, {2})
                                  .kernel(2, "k2", KernelPhase::Forward, 10, {2}, {3})
                                  .build();
        Plan reuse;
        reuse.placement = "by-hand";
        reuse.arena = {{1, -1, 0, k4M}, {2, -1, k4M, k4M}, {3, -1, 0, k4M}};  // z reuses x's bytes: x died at k1
        reuse.arenaBytes = 2 * k4M;
        const PlanVerification v = verifyPlan(chain, exportedFor(chain, reuse));
        QVERIFY2(v.ok(), qPrintable(listed(v)));
    }

    void tooBigArenaIsCaught() {
        const Profile profile = threeKernels();
        Plan plan;
        plan.allowFaults = false;
        addArena(plan);  // 16 MiB
        const PlanVerification v = verifyPlan(profile, exportedFor(profile, plan, 12 * kMiB));
        const auto big = ofKind(v, PlanProblemKind::DoesNotFit);
        QVERIFY2(!big.empty(), qPrintable(listed(v)));
        QVERIFY(big[0]->message.find("16.00 MiB") != std::string::npos);
        QVERIFY(big[0]->message.find("12.00 MiB") != std::string::npos);
        // Under unified memory the same arena may oversubscribe the GPU: W, A, B, C page.
        plan.allowFaults = true;
        const PlanVerification managed = verifyPlan(profile, exportedFor(profile, plan, 12 * kMiB));
        QVERIFY2(managed.ok(), qPrintable(listed(managed)));
    }

    void arenaSlotsMustCoverEveryBuffer() {
        const Profile profile = threeKernels();
        Plan plan;
        addArena(plan);
        plan.arena.pop_back();            // C has no slot
        plan.arena[0].bytes = 1024;       // W's slot is too small
        const PlanVerification v = verifyPlan(profile, exportedFor(profile, plan));
        const auto bad = ofKind(v, PlanProblemKind::BadArena);
        QVERIFY2(bad.size() == 2, qPrintable(listed(v)));
        QString all = listed(v);
        QVERIFY(all.contains("tensor 13 'C'") && all.contains("no slot"));
        QVERIFY(all.contains("tensor 10 'W'") && all.contains("1024 bytes"));
    }

    void hashMismatchShowsBothHashes() {
        const Profile profile = threeKernels();
        Profile other = profile;
        other.kernels[0].duration += 1;
        const ExportedPlan plan = exportedFor(other, Plan{});
        const PlanVerification v = verifyPlan(profile, plan);
        const auto mismatch = ofKind(v, PlanProblemKind::ProfileMismatch);
        QCOMPARE(mismatch.size(), std::size_t(1));
        QVERIFY(mismatch[0]->message.find(profileHash(profile)) != std::string::npos);
        QVERIFY(mismatch[0]->message.find(profileHash(other)) != std::string::npos);
        QVERIFY(!v.replayed);  // a plan for another profile is not replayed
    }

    void orderAgainstTheDataFlowIsCaught() {
        const Profile profile = threeKernels();
        Plan plan;
        plan.order = {2, 0, 1};  // 'head' before the two kernels whose outputs it reads
        const PlanVerification v = verifyPlan(profile, exportedFor(profile, plan));
        const auto order = ofKind(v, PlanProblemKind::BadOrder);
        QVERIFY2(order.size() == 2, qPrintable(listed(v)));
        QVERIFY(order[0]->message.find("kernel 2 'head'") != std::string::npos);
        QVERIFY(listed(v).contains("kernel 0 'embed'") && listed(v).contains("kernel 1 'mid'"));
        plan.order = {0, 0, 2};
        const PlanVerification repeated = verifyPlan(profile, exportedFor(profile, plan));
        QVERIFY(listed(repeated).contains("kernel 0 'embed' appears twice"));
        QVERIFY(!repeated.replayed);
    }

    void badDirectivesAreEachNamed() {
        const Profile profile = threeKernels();
        Plan plan;
        plan.directives = {{7, DirectiveKind::Prefetch, 11, Tier::Gpu},
                           {0, DirectiveKind::Prefetch, 99, Tier::Gpu},
                           {0, DirectiveKind::Prefetch, 11, Tier::Ssd},
                           {0, DirectiveKind::Recompute, 10, Tier::Gpu},
                           {0, DirectiveKind::Advise, 11, Tier::Gpu}};  // no advice
        const PlanVerification v = verifyPlan(profile, exportedFor(profile, plan));
        const auto bad = ofKind(v, PlanProblemKind::BadDirective);
        QVERIFY2(bad.size() == 5, qPrintable(listed(v)));
        for (std::size_t i = 0; i < bad.size(); ++i) QCOMPARE(bad[i]->directive, std::int64_t(i));
        QVERIFY(bad[0]->message.find("kernel position 7") != std::string::npos);
        QVERIFY(bad[1]->message.find("tensor id 99") != std::string::npos);
        QVERIFY(bad[2]->message.find("target must be gpu") != std::string::npos);
        QVERIFY(bad[3]->message.find("tensor 10 'W'") != std::string::npos);
        QVERIFY(!v.replayed);
    }

    void impossibleRunIsCaught() {
        const Profile profile = threeKernels();
        // 'head' needs A, B and C at once: 12 MiB on an 8 MiB GPU. Managed memory lets it run,
        // streaming 4 MiB of its own out while it runs (docs/simulator.md); G10's batcher replay
        // cannot, so there the replay is refused and the verifier says which kernel.
        ExportedPlan streams = exportedFor(profile, Plan{}, 8 * kMiB);
        const PlanVerification ran = verifyPlan(profile, streams);
        QVERIFY2(ran.ok() && ran.replayed, qPrintable(listed(ran)));
        ExportedPlan refused = streams;
        refused.hardware.faultModel = FaultModel::G10Calibrated;
        const PlanVerification v = verifyPlan(profile, refused);
        const auto fit = ofKind(v, PlanProblemKind::DoesNotFit);
        QVERIFY2(fit.size() == 1, qPrintable(listed(v)));
        QVERIFY(fit[0]->message.find("head") != std::string::npos);
    }

    void aPlanForAnotherModelStopsAtTheMismatch() {
        const Profile profile = threeKernels();
        const Profile other = ProfileBuilder("other")
                                  .tensor(1, "x", k4M, TensorKind::Activation, false)
                                  .kernel(0, "k0", KernelPhase::Forward, 10, {}, {1})
                                  .build();
        Plan plan;
        plan.directives = {{0, DirectiveKind::Prefetch, 11, Tier::Gpu}};  // A: not in 'other'
        const PlanVerification v = verifyPlan(other, exportedFor(profile, plan));
        QCOMPARE(v.problems.size(), std::size_t(1));
        QVERIFY(v.problems[0].kind == PlanProblemKind::ProfileMismatch);
        QVERIFY(v.problems[0].message.find("nothing else was checked") != std::string::npos);
    }

    void everyProblemComesBackNotJustTheFirst() {
        const Profile profile = threeKernels();
        Profile other = profile;
        other.metadata.model = "another";  // re-captured: same kernels and tensors, other hash
        Plan plan;
        addArena(plan);
        plan.arena[1].offset = 0;  // A over W
        plan.directives = {{0, DirectiveKind::PreEvict, 11, Tier::Gpu}};
        const PlanVerification v = verifyPlan(profile, exportedFor(other, plan));
        QVERIFY(!ofKind(v, PlanProblemKind::ProfileMismatch).empty());
        QVERIFY(!ofKind(v, PlanProblemKind::Overlap).empty());
        QVERIFY(!ofKind(v, PlanProblemKind::BadDirective).empty());
    }
};

QTEST_APPLESS_MAIN(TestPlanVerifier)
#include "tst_plan_verifier.moc"
