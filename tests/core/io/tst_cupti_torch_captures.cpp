// spillway-capture profiles read back (core/io/gpu_activity/stored_capture.h): the two real H200
// captures of ../shared/data/h200/captures/ (README there) and hand-made ones. What a person
// checking the models would write down: ResNet-18 under PyTorch's caching allocator is a warm-up
// step and two steady ones whose "tensors" are the allocator's segments; um_training_step.cu is
// one step of 8 layers x 256 MiB with 8 weights, 9 activations and 8 gradients; phases come
// forward, loss, backward, optimizer in that order. Also the NVTX ranges emit_nvtx pushes, from
// CUPTI marker records, and iterations asked for that the capture does not hold.
#include "core/io/base/import_error.h"
#include "core/io/gpu_activity/cupti_records.h"
#include "core/io/gpu_activity/stored_capture.h"
#include "core/io/native/native_json.h"
#include "core/trace/kind_evidence.h"
#include "core/trace/validate.h"

#include <QtTest>

#include <algorithm>
#include <filesystem>

using namespace spillway;

namespace {

const std::string kCaptures = SPILLWAY_SHARED_DATA "/h200/captures/";
const std::string kResNet = kCaptures + "torch-resnet18.profile.json";
const std::string kUmStep = kCaptures + "um-step.profile.json";
const std::string kTwoSteps = SPILLWAY_SOURCE_DIR "/tests/fixtures/capture/torch-two-steps.profile.json";

Profile readBack(const std::string& path, std::int64_t iteration = ImportOptions::kSteadyIteration) {
    ImportOptions options;
    options.iteration = iteration;
    return gpu_activity::rebuildStoredCapture(readNativeProfile(path), path, options);
}

std::size_t countPhase(const Profile& p, KernelPhase phase) {
    return static_cast<std::size_t>(
        std::count_if(p.kernels.begin(), p.kernels.end(), [&](const Kernel& k) { return k.phase == phase; }));
}

std::size_t countKind(const Profile& p, TensorKind kind) {
    return static_cast<std::size_t>(
        std::count_if(p.tensors.begin(), p.tensors.end(), [&](const Tensor& t) { return t.kind == kind; }));
}

QStringList namesOf(const std::vector<KernelPhase>& phases) {
    QStringList out;
    for (const auto ph : phases) out << QString::fromUtf8(toString(ph).data(), qsizetype(toString(ph).size()));
    return out;
}

QStringList phasesOf(const Profile& p) {
    std::vector<KernelPhase> phases;
    for (const auto& k : p.kernels) phases.push_back(k.phase);
    return namesOf(phases);
}

bool contains(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

// Kernels whose name holds `part`, and how many of them are in `phase`.
std::pair<std::size_t, std::size_t> named(const Profile& p, std::string_view part, KernelPhase phase) {
    std::size_t all = 0, inPhase = 0;
    for (const auto& k : p.kernels)
        if (contains(k.name, part)) {
            ++all;
            inPhase += k.phase == phase;
        }
    return {all, inPhase};
}

// Forward, loss, backward, optimizer: never back to an earlier phase within one step.
bool phasesInStepOrder(const Profile& p) {
    auto rank = [](KernelPhase ph) {
        switch (ph) {
        case KernelPhase::Forward: return 0;
        case KernelPhase::Loss: return 1;
        case KernelPhase::Backward: return 2;
        case KernelPhase::Optimizer: return 3;
        case KernelPhase::Other: return 4;
        }
        return 4;
    };
    for (std::size_t i = 1; i < p.kernels.size(); ++i)
        if (rank(p.kernels[i].phase) < rank(p.kernels[i - 1].phase)) return false;
    return true;
}

void expectRefused(const std::function<void()>& load, const std::string& file, std::string_view why) {
    try {
        load();
        QFAIL("expected an ImportError");
    } catch (const ImportError& e) {
        QVERIFY2(contains(e.what(), file), e.what());
        QVERIFY2(contains(e.what(), why), e.what());
    }
}

void requireSharedData() {
    if (!std::filesystem::exists(kResNet) || !std::filesystem::exists(kUmStep))
        QSKIP("../shared/data/h200/captures is not beside the checkout");
}

// CUPTI records of one emit_nvtx training step: five kernels that run on the GPU (at 10,000 ns
// and later) well after the host launched them inside the operator ranges (100 to 800 ns).
cupti::RecordParser emitNvtxStep(bool withLaunchTimes) {
    cupti::RecordParser r;
    const auto kernel = [&](const char* name, std::uint64_t start, std::uint32_t correlation) {
        r.add(cupti::KernelRecord{name, start, start + 50, 0, 7, correlation});
    };
    // Names that say nothing about their phase: only the ranges can.
    kernel("ampere_sgemm_128x64_tn", 10000, 1);
    kernel("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>(int)", 10200, 2);
    kernel("ampere_sgemm_64x64_nn", 10300, 3);
    kernel("void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float>>(int)", 10500, 4);
    kernel("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>(int)", 10700, 5);
    if (withLaunchTimes) {
        for (const auto& [start, correlation] : std::vector<std::pair<std::uint64_t, std::uint32_t>>{
                 {150, 1}, {160, 1}, {220, 2}, {330, 3}, {520, 4}, {700, 5}})
            r.add(cupti::ApiRecord{start, correlation});  // 160: the driver call inside cudaLaunchKernel 1
    }
    std::uint32_t nextId = 1;
    const auto range = [&](const char* name, std::uint64_t start, std::uint64_t end, std::uint32_t thread,
                           bool endKnowsItsId = true) {
        const auto id = nextId++;
        r.add(cupti::MarkerRecord{cupti::kMarkerStart, start, id, thread, name});
        r.add(cupti::MarkerRecord{cupti::kMarkerEnd, end, endKnowsItsId ? id : 0u, thread, ""});
    };
    range("aten::linear, seq = 3, op_id = 5, sizes = [[32, 512], [10, 512], [10]]", 100, 200, 1);
    range("aten::cross_entropy_loss, seq = 4, op_id = 9", 210, 260, 1);
    // The autograd engine's thread: a node inside its evaluate_function, an operator inside the node
    // (whose end record names no id: paired with its thread's innermost open range).
    range("autograd::engine::evaluate_function: AddmmBackward0", 300, 400, 2);
    range("AddmmBackward0, seq = 3", 310, 390, 2);
    range("aten::mm", 320, 350, 2, false);
    range("Optimizer.step#SGD.step", 500, 600, 1);
    range("aten::_foreach_add_", 510, 590, 1);
    r.add(cupti::MarkerRecord{cupti::kMarkerInstantaneous, 650, 99, 1, "a mark"});
    r.add(cupti::MarkerRecord{cupti::kMarkerStart, 800, 100, 1, "Optimizer.zero_grad#SGD.zero_grad"});  // never ended
    return r;
}

}  // namespace

class TestCuptiTorchCaptures : public QObject {
    Q_OBJECT
private slots:
    // 2 steps after a warm-up step, cuDNN choosing other algorithms and SGD making its momentum
    // buffers in the first: 3 iterations of 374, 376, 376 kernels after 2 weight-initialising ones;
    // the third repeats the second's kernels and is imported.
    void resnet18HoldsThreeStepsAndTheThirdIsImported() {
        requireSharedData();
        const Profile p = readBack(kResNet);
        const auto& n = p.metadata.notes;
        QCOMPARE(n.at("iterations.found"), std::string("3"));
        QCOMPARE(n.at("iterations.imported"), std::string("3"));
        QVERIFY2(contains(n.at("iterations.rule"), "kernels per iteration: 374, 376, 376; 2 kernels before"),
                 n.at("iterations.rule").c_str());
        QCOMPARE(p.kernels.size(), size_t(376));
        QCOMPARE(readBack(kResNet, 1).kernels.size(), size_t(374));
        QCOMPARE(readBack(kResNet, 2).kernels.size(), size_t(376));
        const Profile all = readBack(kResNet, ImportOptions::kAllIterations);
        QCOMPARE(all.kernels.size(), size_t(1128));
        QCOMPARE(all.metadata.notes.at("iterations.imported"), std::string("all"));
        QVERIFY(validateProfile(p).empty());
    }

    // One step of ResNet-18: 20 convolutions and 20 batch norms forward, the data gradients of
    // 19 convolutions (not the first: the images need none) and the weight gradients of all 20
    // backward, and SGD's three foreach kernels (momentum scale, add gradient, update).
    void resnet18PhasesAreAStepOfTheModel() {
        requireSharedData();
        const Profile p = readBack(kResNet);
        QCOMPARE(named(p, "fprop_implicit_gemm", KernelPhase::Forward), std::make_pair(size_t(20), size_t(20)));
        QCOMPARE(named(p, "bn_fw_tr", KernelPhase::Forward), std::make_pair(size_t(20), size_t(20)));
        QCOMPARE(named(p, "bn_bw", KernelPhase::Backward), std::make_pair(size_t(20), size_t(20)));
        QCOMPARE(named(p, "dgrad", KernelPhase::Backward), std::make_pair(size_t(19), size_t(19)));
        const auto [wgrad, wgradBackward] = named(p, "wgrad", KernelPhase::Backward);
        QVERIFY(wgrad >= 20);
        QCOMPARE(wgradBackward, wgrad);
        QCOMPARE(named(p, "multi_tensor_apply", KernelPhase::Optimizer), std::make_pair(size_t(3), size_t(3)));
        QCOMPARE(countPhase(p, KernelPhase::Optimizer), size_t(3));
        QCOMPARE(named(p, "nll_loss_forward", KernelPhase::Loss), std::make_pair(size_t(1), size_t(1)));
        QCOMPARE(countPhase(p, KernelPhase::Forward), size_t(141));
        QCOMPARE(countPhase(p, KernelPhase::Backward), size_t(231));
        QCOMPARE(countPhase(p, KernelPhase::Other), size_t(0));
        QVERIFY(phasesInStepOrder(p));
        const auto& note = p.metadata.notes.at("phases");
        QVERIFY2(note.starts_with("from kernel names and neighbours: forward 141, loss 1, backward 231, optimizer 3"),
                 note.c_str());
        QVERIFY2(contains(note, "133 decided by kernel names"), note.c_str());
    }

    // 55 cudaMalloc blocks (1.57 GiB, all but 8 small ones multiples of 2 MiB, none freed) for
    // 1128 kernels: the caching allocator's segments, flagged, and their kinds are no evidence.
    void resnet18WarnsOfTheCachingAllocator() {
        requireSharedData();
        const Profile p = readBack(kResNet);
        const auto& n = p.metadata.notes;
        const auto warnings = warningNotes(n);
        const auto it = std::find_if(warnings.begin(), warnings.end(),
                                     [](const auto& w) { return w.first == "caching_allocator"; });
        QVERIFY(it != warnings.end());
        QVERIFY2(contains(it->second, "47 of 55 cudaMalloc blocks (1.57 GiB of 1.57 GiB)"), it->second.c_str());
        QVERIFY(contains(it->second, "55 allocations for 1128 kernels"));
        QVERIFY(contains(it->second, "PYTORCH_NO_CUDA_MEMORY_CACHING=1 spillway-capture"));
        // The segments were allocated in the warm-up step: weights to the third, by no evidence.
        QVERIFY2(contains(n.at("kind_rule.allocator_segment_weight"), "weight: 55 tensors"),
                 n.at("kind_rule.allocator_segment_weight").c_str());
        QVERIFY2(contains(n.at("kind_rule.static"), "weight: 999 tensors"), n.at("kind_rule.static").c_str());
        QVERIFY(unclassifiedKindShare(n) > 0.99);
        QVERIFY(n.contains("warning.unclassified_kinds"));
        QCOMPARE(countKind(p, TensorKind::Weight), p.tensors.size());
    }

    // The sample: 8 weights of 256 MiB (managed, before the first kernel, never freed); act0 to
    // act8 activations; 8 gradients written by the backward kernels and read by sgd; no PyTorch,
    // no caching allocator, one iteration.
    void umStepIsOneStepOfEightLayers() {
        requireSharedData();
        const Profile p = readBack(kUmStep);
        const auto& n = p.metadata.notes;
        QCOMPARE(n.at("iterations.found"), std::string("1"));
        QCOMPARE(n.at("iterations.imported"), std::string("1"));
        QCOMPARE(p.kernels.size(), size_t(24));
        QCOMPARE(countPhase(p, KernelPhase::Forward), size_t(8));
        QCOMPARE(countPhase(p, KernelPhase::Backward), size_t(8));
        QCOMPARE(countPhase(p, KernelPhase::Optimizer), size_t(8));
        QVERIFY(phasesInStepOrder(p));
        QCOMPARE(p.tensors.size(), size_t(25));
        QCOMPARE(countKind(p, TensorKind::Weight), size_t(8));
        QCOMPARE(countKind(p, TensorKind::Activation), size_t(9));
        QCOMPARE(countKind(p, TensorKind::Gradient), size_t(8));
        for (const auto& t : p.tensors) {
            QCOMPARE(t.bytes, 256 * kMiB);
            QCOMPARE(t.persistent, t.kind == TensorKind::Weight);
        }
        QVERIFY(contains(n.at("kind_rule.persistent"), "weight: 8 tensors, 2147483648 bytes"));
        QVERIFY(contains(n.at("kind_rule.backward_to_optimizer"), "gradient: 8 tensors"));
        QCOMPARE(n.at("kind_rule.unclassified_share"), std::string("0.0000"));
        QVERIFY(!n.contains("warning.caching_allocator"));
        QVERIFY(!n.contains("memory_allocator"));  // no PyTorch kernels
        QVERIFY(validateProfile(p).empty());
    }

    // PYTORCH_NO_CUDA_MEMORY_CACHING=1: one cudaMalloc per tensor (16 for 17 kernels, sizes of
    // tensors, freed when done): no warning; two steps, the second imported; the weights, the
    // weight gradient and the activations told apart.
    void withoutCachingTheBlocksAreTensors() {
        const Profile p = readBack(kTwoSteps);
        const auto& n = p.metadata.notes;
        QVERIFY(!n.contains("warning.caching_allocator"));
        QVERIFY2(contains(n.at("memory_allocator"), "without its caching allocator's signature"),
                 n.at("memory_allocator").c_str());
        QCOMPARE(n.at("iterations.found"), std::string("2"));
        QCOMPARE(n.at("iterations.imported"), std::string("2"));
        QVERIFY(contains(n.at("iterations.rule"), "kernels per iteration: 8, 8; 1 kernels before the first"));
        QCOMPARE(p.kernels.size(), size_t(8));
        // conv, relu | loss | seed fill, loss backward, dgrad, wgrad | sgd
        const std::vector<KernelPhase> expected{KernelPhase::Forward,  KernelPhase::Forward,  KernelPhase::Loss,
                                                KernelPhase::Backward, KernelPhase::Backward, KernelPhase::Backward,
                                                KernelPhase::Backward, KernelPhase::Optimizer};
        QCOMPARE(phasesOf(p), namesOf(expected));
        QCOMPARE(countKind(p, TensorKind::Weight), size_t(2));  // conv weight and bias, from before the step
        QCOMPARE(countKind(p, TensorKind::Gradient), size_t(1));
        const auto gradient = std::find_if(p.tensors.begin(), p.tensors.end(),
                                           [](const Tensor& t) { return t.kind == TensorKind::Gradient; });
        QCOMPARE(gradient->bytes, Bytes(36864));  // the weight's gradient, written by wgrad
        QCOMPARE(countKind(p, TensorKind::Activation), size_t(6));
        QCOMPARE(n.at("kind_rule.unclassified_share"), std::string("0.0000"));
        QVERIFY(validateProfile(p).empty());
    }

    // The same kernels with two segments (20 MiB and 2 MiB, kept to the end) instead: the warning.
    void theSameRunWithSegmentsWarns() {
        Profile stored = readNativeProfile(kTwoSteps);
        stored.tensors = {stored.tensors[0], stored.tensors[1]};
        stored.tensors[0].bytes = 20 * kMiB;
        stored.tensors[1].bytes = 2 * kMiB;
        const Profile p = gpu_activity::rebuildStoredCapture(stored, kTwoSteps, {});
        const auto& n = p.metadata.notes;
        QVERIFY(n.contains("warning.caching_allocator"));
        QVERIFY(contains(n.at("warning.caching_allocator"), "2 allocations for 17 kernels"));
        QVERIFY(contains(n.at("kind_rule.allocator_segment_weight"), "weight: 2 tensors"));
    }

    void iterationsTheCaptureDoesNotHoldAreRefused() {
        expectRefused([] { readBack(kTwoSteps, 3); }, kTwoSteps, "holds 2 iterations (give 1 to 2, or all)");
        expectRefused([] { readBack(kTwoSteps, -2); }, kTwoSteps, "iteration -2 was asked for");
        QCOMPARE(readBack(kTwoSteps, 1).kernels.size(), size_t(8));
        // Imported once, the profile holds one iteration: asking it for another is refused.
        const Profile once = readBack(kTwoSteps);
        QVERIFY(!gpu_activity::isWholeCapture(once));
        QCOMPARE(gpu_activity::rebuildStoredCapture(once, "once.json", {}), once);
        ImportOptions second;
        second.iteration = 2;
        expectRefused([&] { gpu_activity::rebuildStoredCapture(once, "once.json", second); }, "once.json",
                      "holds one iteration");
        if (!std::filesystem::exists(kResNet)) return;
        expectRefused([] { readBack(kResNet, 4); }, kResNet, "holds 3 iterations");
        expectRefused([] { readBack(kUmStep, 2); }, kUmStep, "holds 1 iteration (give 1 to 1, or all)");
    }

    // emit_nvtx: forward operator, loss, autograd node, optimizer step decide the phases at each
    // kernel's launch time; the kernel launched after every range continues the optimizer.
    void emitNvtxRangesGiveThePhases() {
        const auto parser = emitNvtxStep(true);
        const Profile p = parser.finish("step.profile.json", "mlp");
        const std::vector<KernelPhase> expected{KernelPhase::Forward, KernelPhase::Loss, KernelPhase::Backward,
                                                KernelPhase::Optimizer, KernelPhase::Optimizer};
        QCOMPARE(phasesOf(p), namesOf(expected));
        const auto& n = p.metadata.notes;
        QVERIFY2(n.at("phases").starts_with("from NVTX ranges (5 name a phase; looked up at each kernel's launch time)"),
                 n.at("phases").c_str());
        QVERIFY(contains(n.at("phases"), "4 decided by NVTX ranges (80.0%)"));
        QVERIFY2(contains(n.at("nvtx"), "7 NVTX ranges recorded (push/pop and start/end); 1 starts without an end"),
                 n.at("nvtx").c_str());
        QCOMPARE(n.at("launch_times"), std::string("5 of 5 kernels have their launch time (the runtime or driver "
                                                   "API call with their correlation id)"));
        QCOMPARE(n.at("iterations.imported"), std::string("all"));  // the capture tool keeps the whole run

        // Read back, the stored phases stand though the ranges are gone.
        const Profile stored = parseNativeProfile(writeNativeProfile(p), "step.profile.json");
        const Profile back = gpu_activity::rebuildStoredCapture(stored, "step.profile.json", {});
        QCOMPARE(phasesOf(back), namesOf(expected));
        QVERIFY2(contains(back.metadata.notes.at("phases"), "the stored capture's phases"),
                 back.metadata.notes.at("phases").c_str());
    }

    // Without launch times the kernels' GPU start times fall outside every range: the ranges
    // cannot decide, and the names say nothing.
    void withoutLaunchTimesTheRangesCannotDecide() {
        const Profile p = emitNvtxStep(false).finish("step.profile.json", "mlp");
        QCOMPARE(countPhase(p, KernelPhase::Other), p.kernels.size());
        QVERIFY(contains(p.metadata.notes.at("phases"), "no phase evidence"));
        QVERIFY(!p.metadata.notes.contains("launch_times"));
    }
};

QTEST_GUILESS_MAIN(TestCuptiTorchCaptures)
#include "tst_cupti_torch_captures.moc"
