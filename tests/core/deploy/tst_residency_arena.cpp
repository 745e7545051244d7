// An arena that follows the plan (issue 16): in a plan that may not fault, a tensor's arena
// slot is free while the plan keeps the tensor on the host, so another tensor may use those
// bytes. The spans come from the directives (core/policy residencySpans, anchors before and
// after a kernel, a prefetch at the end of the iteration for the next one); the deployable
// plan lays the arena out on them and the verifier checks overlaps on the same spans, and still
// refuses bytes shared while both tensors are on the GPU. On the small GPT lesson at 0.3 GiB
// (the real replays' machine) the g10 and most plans now fit the GPU with their arena.
#include "../../support/shared_replay_machine.h"
#include "core/deploy/deployable_plan.h"
#include "core/deploy/plan_verifier.h"
#include "core/hardware/hardware_presets.h"
#include "core/io/native/profile_hash.h"
#include "core/io/valid_profile.h"
#include "core/layout/profile_allocation.h"
#include "core/trace/format_units.h"

#include "../../support/profile_builder.h"

#include <QTest>

#include <set>

using namespace spillway;
using spillway::testing::ProfileBuilder;

namespace {

const char* const kSmallGpt = SPILLWAY_SOURCE_DIR "/samples/lessons/small-gpt.profile.json";
constexpr Bytes k4M = 4 * kMiB;


// Five kernels, 4 MiB tensors. W is read at k0 and k4 and V at k1 (both persistent); X lives at
// k1..k2 only; A (activation) is written at k0 and read at k3; B is written by k3, read by k4.
//   k0: W -> A     k1: V -> X     k2: X -> Y     k3: A -> B     k4: W, B -> C
Profile fiveKernels() {
    return ProfileBuilder("five-kernels")
        .tensor(10, "W", k4M, TensorKind::Weight, true)
        .tensor(11, "A", k4M, TensorKind::Activation, false)
        .tensor(12, "X", k4M, TensorKind::Activation, false)
        .tensor(13, "Y", k4M, TensorKind::Activation, false)
        .tensor(14, "B", k4M, TensorKind::Activation, false)
        .tensor(15, "C", k4M, TensorKind::Activation, false)
        .tensor(16, "V", k4M, TensorKind::Weight, true)
        .kernel(100, "k0", KernelPhase::Forward, 1000, {10}, {11})
        .kernel(101, "k1", KernelPhase::Forward, 1000, {16}, {12})
        .kernel(102, "k2", KernelPhase::Forward, 1000, {12}, {13})
        .kernel(103, "k3", KernelPhase::Forward, 1000, {11}, {14})
        .kernel(104, "k4", KernelPhase::Forward, 1000, {10, 14}, {15})
        .build();
}

HardwareConfig unitMachine() {
    HardwareConfig hw;
    hw.id = "unit";
    hw.gpuCapacity = 64 * kMiB;
    hw.hostCapacity = 1 * kGiB;
    hw.hostToGpu = hw.gpuToHost = {1'000'000'000, 0};
    hw.weightsStartOn = Tier::Gpu;
    hw.iterations = 1;
    return hw;
}

ExportedPlan exportedFor(const Profile& profile, const HardwareConfig& hw, const Plan& plan) {
    return ExportedPlan{profile.metadata.model, profileHash(profile), hw, plan};
}

QString listed(const PlanVerification& v) {
    QStringList lines;
    for (const PlanProblem& p : v.problems)
        lines << QString::fromStdString("[" + std::string(toString(p.kind)) + "] " + p.message);
    return lines.join('\n');
}

std::vector<const PlanProblem*> ofKind(const PlanVerification& v, PlanProblemKind kind) {
    std::vector<const PlanProblem*> out;
    for (const auto& p : v.problems)
        if (p.kind == kind) out.push_back(&p);
    return out;
}

// The spans of the tensor's buffer in the problem ([lower, upper) when it has none).
std::vector<TickSpan> spansOf(const AllocationProblem& problem, TensorId id) {
    for (const Buffer& b : problem.buffers)
        if (b.origin.tensor == id) return b.spans.empty() ? std::vector<TickSpan>{{b.lower, b.upper}} : b.spans;
    return {};
}

// A plan that may not fault with a hand-made arena: W at 0, A at 4M, X at `xOffset`, B at 8M,
// Y and C at 12M (Y lives at k2, C at k4), V at 16M.
Plan handPlan(std::vector<Directive> directives, Bytes xOffset) {
    Plan plan;
    plan.allowFaults = false;
    plan.order = {0, 1, 2, 3, 4};
    plan.directives = std::move(directives);
    plan.placement = "by-hand";
    plan.arena = {{10, -1, 0, k4M},      {11, -1, k4M, k4M},     {12, -1, xOffset, k4M},
                  {13, -1, 3 * k4M, k4M}, {14, -1, 2 * k4M, k4M}, {15, -1, 3 * k4M, k4M},
                  {16, -1, 4 * k4M, k4M}};
    plan.arenaBytes = 5 * k4M;
    return plan;
}

}  // namespace

class TestResidencyArena : public QObject {
    Q_OBJECT
    Profile gpt_;

private slots:
    void initTestCase() { gpt_ = loadValidProfile(kSmallGpt); }

    void spansFollowTheAnchors() {
        const Profile profile = fiveKernels();
        Plan plan;
        plan.allowFaults = false;
        // A out after k0 (so away from k1 on), back before k3; W out before k1, back after k3
        // (so on the GPU again from k4). Lifetimes: A [0, 4), W [0, 5).
        plan.directives = {{0, DirectiveKind::PreEvict, 11, Tier::Host, -1, true},
                           {3, DirectiveKind::Prefetch, 11, Tier::Gpu},
                           {1, DirectiveKind::PreEvict, 10, Tier::Host},
                           {3, DirectiveKind::Prefetch, 10, Tier::Gpu, -1, true}};
        const AllocationProblem problem = arenaProblem(profile, unitMachine(), plan);
        QCOMPARE(spansOf(problem, 11), (std::vector<TickSpan>{{0, 1}, {3, 4}}));
        QCOMPARE(spansOf(problem, 10), (std::vector<TickSpan>{{0, 1}, {4, 5}}));
        QCOMPARE(spansOf(problem, 12), (std::vector<TickSpan>{{1, 3}}));  // untouched: its lifetime
        // The same plan allowed to fault lives on its lifetimes, as before.
        plan.allowFaults = true;
        QVERIFY(arenaProblem(profile, unitMachine(), plan) == allocationProblemFromProfile(profile, {}));
    }

    void aPrefetchAtTheEndOfTheIterationHoldsTheSlotFromThere() {
        const Profile profile = fiveKernels();
        Plan plan;
        plan.allowFaults = false;
        // V leaves after k1 and comes back after k4, the last kernel, for k1 of the next
        // iteration: on the GPU at k0 and k1 only.
        plan.directives = {{1, DirectiveKind::PreEvict, 16, Tier::Host, -1, true},
                           {4, DirectiveKind::Prefetch, 16, Tier::Gpu, -1, true}};
        QCOMPARE(spansOf(arenaProblem(profile, unitMachine(), plan), 16), (std::vector<TickSpan>{{0, 2}}));
        // Back before k4 instead: from k4 across the iteration's end, so two spans.
        plan.directives[1].afterKernel = false;
        QCOMPARE(spansOf(arenaProblem(profile, unitMachine(), plan), 16), (std::vector<TickSpan>{{0, 2}, {4, 5}}));
        // In a reordered run the spans are run steps: k1 runs third, so V leaves after step 2.
        plan.order = {0, 3, 1, 2, 4};
        QCOMPARE(spansOf(arenaProblem(profile, unitMachine(), plan), 16), (std::vector<TickSpan>{{0, 3}, {4, 5}}));
    }

    void theVerifierAcceptsBytesSharedWhileOneIsAway() {
        const Profile profile = fiveKernels();
        // A leaves after k0 and is back before k3: X (k1..k2) may take A's bytes.
        const std::vector<Directive> away = {{0, DirectiveKind::PreEvict, 11, Tier::Host, -1, true},
                                             {3, DirectiveKind::Prefetch, 11, Tier::Gpu}};
        const PlanVerification ok = verifyPlan(profile, exportedFor(profile, unitMachine(), handPlan(away, k4M)));
        QVERIFY2(ok.ok(), qPrintable(listed(ok)));
        // The same bytes in a plan that may fault (a managed arena: A keeps its pages) overlap.
        Plan managed = handPlan(away, k4M);
        managed.allowFaults = true;
        const PlanVerification lifetimes = verifyPlan(profile, exportedFor(profile, unitMachine(), managed));
        QCOMPARE(ofKind(lifetimes, PlanProblemKind::Overlap).size(), std::size_t(1));
    }

    void theVerifierStillCatchesBytesSharedWhileBothAreOn() {
        const Profile profile = fiveKernels();
        // A back before k2 (one kernel early): A and X are both on the GPU while k2 runs.
        const std::vector<Directive> early = {{0, DirectiveKind::PreEvict, 11, Tier::Host, -1, true},
                                              {2, DirectiveKind::Prefetch, 11, Tier::Gpu}};
        const PlanVerification v = verifyPlan(profile, exportedFor(profile, unitMachine(), handPlan(early, k4M)));
        const auto overlaps = ofKind(v, PlanProblemKind::Overlap);
        QVERIFY2(overlaps.size() == 1, qPrintable(listed(v)));
        QCOMPARE(overlaps[0]->kernelPos, std::int64_t(2));
        QCOMPARE((std::set<TensorId>{overlaps[0]->tensor, overlaps[0]->otherTensor}), (std::set<TensorId>{11, 12}));
        QVERIFY2(overlaps[0]->message.find("while kernel 2 'k2' runs, where the plan's directives keep both on the GPU") !=
                     std::string::npos,
                 overlaps[0]->message.c_str());
        // A pre-evicted after k1 (not after k0): still there while k1 writes X into its bytes.
        const std::vector<Directive> late = {{1, DirectiveKind::PreEvict, 11, Tier::Host, -1, true},
                                             {3, DirectiveKind::Prefetch, 11, Tier::Gpu}};
        const PlanVerification lateV = verifyPlan(profile, exportedFor(profile, unitMachine(), handPlan(late, k4M)));
        QCOMPARE(ofKind(lateV, PlanProblemKind::Overlap).size(), std::size_t(1));
        QCOMPARE(ofKind(lateV, PlanProblemKind::Overlap)[0]->kernelPos, std::int64_t(1));
    }

    void smallGptFitsPointThreeGiBWithItsArena_data() {
        QTest::addColumn<QString>("policy");
        QTest::newRow("g10") << "g10";
        QTest::newRow("most") << "most";
    }
    void smallGptFitsPointThreeGiBWithItsArena() {
        QFETCH(QString, policy);
        const HardwareConfig hw = test::sharedReplayMachine();
        const DeployablePlan made = makeDeployablePlan(gpt_, hw, test::faultFreeRequest(policy.toStdString()));
        // Lifetimes need 345.48 MiB at least; the residency far less, within 0.3 GiB.
        QVERIFY(made.order.theoreticalPeak > hw.gpuCapacity);
        QVERIFY2(made.plan.arenaBytes <= hw.gpuCapacity,
                 qPrintable(QString::fromStdString(readableBytes(made.plan.arenaBytes))));
        QVERIFY(made.placement.lowerBound <= made.plan.arenaBytes);
        const PlanVerification v = verifyPlan(gpt_, exportedFor(gpt_, hw, made.plan));
        QVERIFY2(v.ok(), qPrintable(listed(v)));
        QVERIFY(v.result.demandFetches.empty());
        qInfo("%s: arena %s (%lld bytes; residency LOAD %lld), lifetime peak %s, replay %lld ns; %s",
              qPrintable(policy), readableBytes(made.plan.arenaBytes).c_str(),
              static_cast<long long>(made.plan.arenaBytes), static_cast<long long>(made.placement.lowerBound),
              readableBytes(made.order.theoreticalPeak).c_str(), static_cast<long long>(v.result.iterationTime),
              made.placement.note.c_str());

        // Verified on lifetimes (as a managed arena would be) the same layout overlaps: the
        // slots are shared while one tensor is away.
        Plan managed = made.plan;
        managed.allowFaults = true;
        QVERIFY(!ofKind(verifyPlan(gpt_, exportedFor(gpt_, hw, managed)), PlanProblemKind::Overlap).empty());

        // A real overlap is caught: two tensors the plan keeps on the GPU at the same kernel,
        // one moved onto the other's bytes.
        const AllocationProblem problem = arenaProblem(gpt_, hw, made.plan);
        Plan broken = made.plan;
        // The last tensor buffer with several spans, and one live with it at some tick.
        std::size_t a = problem.buffers.size(), b = a;
        for (std::size_t j = 0; j < problem.buffers.size(); ++j)
            if (problem.buffers[j].origin.tensor >= 0 && problem.buffers[j].spans.size() > 1) b = j;
        QVERIFY(b < problem.buffers.size());
        for (std::size_t i = 0; i < problem.buffers.size() && a == problem.buffers.size(); ++i)
            if (i != b && problem.buffers[i].origin.tensor >= 0 && liveAtSameTime(problem.buffers[i], problem.buffers[b]))
                a = i;
        QVERIFY(a < problem.buffers.size());
        broken.arena[b].offset = broken.arena[a].offset;  // attachLayout keeps the problem's buffer order
        const PlanVerification refused = verifyPlan(gpt_, exportedFor(gpt_, hw, broken));
        const auto overlaps = ofKind(refused, PlanProblemKind::Overlap);
        QVERIFY2(!overlaps.empty(), qPrintable(listed(refused)));
        // Every overlap involves the moved tensor (the rest of the layout was sound).
        for (const PlanProblem* p : overlaps)
            QVERIFY(p->tensor == problem.buffers[b].origin.tensor || p->otherTensor == problem.buffers[b].origin.tensor);
    }
};

QTEST_MAIN(TestResidencyArena)
#include "tst_residency_arena.moc"
