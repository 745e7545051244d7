// The baselines TENSILE compares with, as multi-job planners: vDNN's directive set on the
// eight-kernel training step (worked out from its table), and Capuchin's passive first iteration.
#include "core/policy/tensile/multi_job_planners.h"
#include "tests/core/policy/tensile_fixtures.h"
#include "tests/core/policy/training_step_8.h"

#include <QtTest>

using namespace spillway;
using spillway::testing::backToBack;

namespace {

QStringList describeAll(const Profile& p, const Plan& plan) {
    QStringList out;
    for (const auto& d : plan.directives) {
        QString name = "?";
        for (const auto& t : p.tensors)
            if (t.id == d.tensor) name = QString::fromStdString(t.name);
        out << QStringLiteral("%1 %2 %3 %4")
                   .arg(d.kernelPos)
                   .arg(d.afterKernel ? "after" : "before")
                   .arg(QString::fromUtf8(toString(d.kind).data(), qsizetype(toString(d.kind).size())))
                   .arg(name);
    }
    return out;
}

HardwareConfig pcie(Bytes capacity) {
    HardwareConfig hw;
    hw.gpuCapacity = capacity;
    hw.hostToGpu = {12'000'000'000, 10'000};
    hw.gpuToHost = {12'000'000'000, 10'000};
    return hw;
}

Bytes note(const Plan& plan, const std::string& key) { return std::stoll(plan.notes.at(key)); }

}  // namespace

class TestTensileBaselines : public QObject {
    Q_OBJECT

private slots:
    void vdnnOffloadsForwardInputsAndPrefetchesOneLayerAhead() {
        // Forward layers read X (f1), A1 (f2), A2 (f3); backward reads them again in b1, b2, b3.
        // T is f3's output, not an input: it stays. Offloads are issued as their last forward
        // reader starts: X at 0, A1 at 1, A2 at 2. Backward layers reading them: b3 (4), b2 (5),
        // b1 (6); each map comes back as the layer before starts: A2 at the backward start
        // (loss, 3), A1 at 4, X at 5. Frees follow the last uses.
        const Profile p = testing::trainingStep8();
        MultiJobPlanInput input;
        input.jobs = {backToBack(p, 0)};
        input.hardware = pcie(kGiB);
        const auto plans = planVdnn(input);
        QCOMPARE(plans.size(), size_t(1));
        QCOMPARE(describeAll(p, plans[0]),
                 QStringList({"0 before pre-evict X", "1 before pre-evict A1", "2 before pre-evict A2",
                              "3 before prefetch A2", "3 after free T", "4 before prefetch A1", "4 after free A2",
                              "4 after free L", "5 before prefetch X", "5 after free A1", "5 after free G2",
                              "6 after free X", "7 after free G1"}));
        QCOMPARE(plans[0].notes.at("offloaded_tensors"), std::string("3"));
        QCOMPARE(note(plans[0], "offloaded_bytes"), 18 * kMiB);
        QVERIFY(note(plans[0], "predicted_peak_after_bytes") < note(plans[0], "predicted_peak_before_bytes"));
    }

    void vdnnConvolutionsOnly() {
        // vDNN_conv: only f2 is a convolution, so only its input A1 moves.
        Profile p = testing::trainingStep8();
        p.kernels[1].op = "aten::convolution";
        MultiJobPlanInput input;
        input.jobs = {backToBack(p, 0)};
        input.hardware = pcie(kGiB);
        const auto plans = planVdnn(input, VdnnOptions{.convolutionsOnly = true});
        QStringList moves;
        for (const auto& line : describeAll(p, plans[0]))
            if (!line.contains("free")) moves << line;
        QCOMPARE(moves, QStringList({"1 before pre-evict A1", "4 before prefetch A1"}));
    }

    void capuchinIsPassiveOnTheFirstIteration() {
        // Job 0 has finished no iteration: empty plan. Job 1 has: with memory for less than the
        // vanilla peak it evicts something, and the predicted peak drops.
        const Profile p = testing::trainingStep8();
        MultiJobPlanInput input;
        input.jobs = {backToBack(p, 0, 0, 1.0, 0), backToBack(p, 0, 1, 1.0, 1)};
        input.hardware = pcie(0);
        const auto probe = planCapuchin(input);
        const Bytes vanilla = note(probe[0], "predicted_peak_before_bytes");
        input.hardware.gpuCapacity = vanilla - 8 * kMiB;
        const auto plans = planCapuchin(input);
        QVERIFY(plans[0].directives.empty());
        QVERIFY(plans[0].notes.at("mode").starts_with("passive"));
        QVERIFY(std::any_of(plans[1].directives.begin(), plans[1].directives.end(), [](const Directive& d) {
            return d.kind == DirectiveKind::PreEvict || d.kind == DirectiveKind::Recompute;
        }));
        QVERIFY(note(plans[1], "predicted_peak_after_bytes") < vanilla);
        // Everyone passive: nothing at all.
        input.jobs[1].completedIterations = 0;
        for (const auto& plan : planCapuchin(input)) QVERIFY(plan.directives.empty());
    }

    void capuchinTargetSaving() {
        // As TENSILE's experiment: save a set fraction of the vanilla peak even when it fits.
        const Profile p = testing::trainingStep8();
        MultiJobPlanInput input;
        input.jobs = {backToBack(p, 0)};
        input.hardware = pcie(64 * kGiB);
        QVERIFY(planCapuchin(input)[0].notes.at("predicted_peak_after_bytes") ==
                planCapuchin(input)[0].notes.at("predicted_peak_before_bytes"));
        const auto plans = planCapuchin(input, CapuchinOptions{.targetSavingRatio = 0.2});
        QVERIFY(note(plans[0], "predicted_peak_after_bytes") < note(plans[0], "predicted_peak_before_bytes"));
    }
};

QTEST_APPLESS_MAIN(TestTensileBaselines)
#include "tst_tensile_baselines.moc"
