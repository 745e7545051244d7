// Planners that plan per GPU (docs/simulator.md, "Several GPUs over NVLink"): with gpu_count N
// every planner is handed the home GPU's view of the profile, each kernel taking its share of
// the compute plus the NVLink scatter of its inputs and reduce of its outputs, and the machine's
// per-GPU capacity; on one GPU the profile itself.
#include "core/hardware/gpu_split.h"
#include "core/hardware/hardware_presets.h"
#include "core/policy/planner.h"
#include "core/trace/bert_training_graph.h"

#include <QTest>

using namespace spillway;

namespace {
const Profile& bert() {
    static const Profile profile = [] {
        BertConfig config;
        config.batch = 256;
        return bertTrainingGraph(config);
    }();
    return profile;
}

HardwareConfig machine(int gpus) {
    HardwareConfig hw = hardwarePreset("most-rtx4090");
    hw.gpuCount = gpus;
    return hw;
}
}  // namespace

class TestPerGpuView : public QObject {
    Q_OBJECT
private slots:
    void oneGpuSeesTheProfile() { QVERIFY(perGpuProfile(bert(), machine(1)) == bert()); }

    // A kernel of 1001 ns reading 4 MiB and writing 2 MiB, on 4 GPUs over a 2 B/ns NVLink
    // with 100 ns latency: ceil(1001 / 4) = 251 of compute, 3 MiB scattered (1572864 ns + 100),
    // 1.5 MiB reduced (786432 ns + 100).
    void aKernelTakesItsShareAndTheNvlinkPhases() {
        Profile p;
        p.tensors = {Tensor{}, Tensor{}};
        p.tensors[0].id = 10;
        p.tensors[0].bytes = 4 * kMiB;
        p.tensors[1].id = 11;
        p.tensors[1].bytes = 2 * kMiB;
        Kernel k;
        k.duration = 1001;
        k.inputs = {10, 10};  // listed twice, counted once
        k.outputs = {11};
        p.kernels = {k};
        HardwareConfig hw = machine(4);
        hw.nvlink = {2'000'000'000, 100};
        const Profile view = perGpuProfile(p, hw);
        QCOMPARE(view.kernels[0].duration, Nanoseconds(251 + (3 * kMiB / 2 + 100) + (3 * kMiB / 4 + 100)));
        QCOMPARE(view.kernels[0].inputs, p.kernels[0].inputs);
        QVERIFY(view.tensors == p.tensors);
    }

    // makePlan hands every planner the per-GPU view: its plan on N GPUs is the plan it makes for
    // one GPU whose kernels are the view's; and the view changes what MOST and G10 plan.
    void plannersPlanForTheHomeGpu_data() {
        QTest::addColumn<QString>("policy");
        for (const char* policy : {"uvm", "deepum", "g10", "most"}) QTest::newRow(policy) << QString(policy);
    }
    void plannersPlanForTheHomeGpu() {
        QFETCH(QString, policy);
        const std::string id = policy.toStdString();
        for (int gpus : {2, 4}) {
            const Plan perGpu = makePlan(id, bert(), machine(gpus));
            QVERIFY(perGpu == makePlan(id, perGpuProfile(bert(), machine(gpus)), machine(1)));
            if (id == "g10" || id == "most") QVERIFY(perGpu != makePlan(id, bert(), machine(1)));
        }
    }
};

QTEST_GUILESS_MAIN(TestPerGpuView)
#include "tst_per_gpu_view.moc"
