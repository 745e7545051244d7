// Bytes by allocating frame on the hand-made stacked profile (stacked_profile.h, numbers worked
// out by hand there), the split of a recorded frame, and the user's first frame.
#include "core/analysis/frame_totals.h"
#include "core/io/profile_loader.h"
#include "stacked_profile.h"

#include <QtTest>

using namespace spillway;
using namespace spillway::testing;

namespace {

const FrameTotal* find(const FrameTotals& totals, const char* frame) {
    for (const auto& f : totals.frames)
        if (f.frame == frame) return &f;
    return nullptr;
}

}  // namespace

class TestFrameTotals : public QObject {
    Q_OBJECT
private slots:
    void totalsOfEveryFrame_data() {
        QTest::addColumn<QString>("frame");
        QTest::addColumn<qint64>("inclusive");
        QTest::addColumn<qint64>("tensors");
        QTest::addColumn<qint64>("self");
        QTest::addColumn<qint64>("selfTensors");
        QTest::addColumn<qint64>("peak");
        QTest::addColumn<qint64>("peakKernel");
        QTest::addColumn<qint64>("largest");
        QTest::addColumn<bool>("torch");
        QTest::newRow("main") << QString(kFrameMain) << qint64(3350) << qint64(4) << qint64(0) << qint64(0) << qint64(2050) << qint64(3) << qint64(4) << false;
        // _call_impl appears twice in a's stack: a counts once.
        QTest::newRow("module") << QString(kFrameM) << qint64(3300) << qint64(3) << qint64(0) << qint64(0) << qint64(2000) << qint64(3) << qint64(4) << true;
        QTest::newRow("linear") << QString(kFrameL) << qint64(3000) << qint64(2) << qint64(3000) << qint64(2) << qint64(2000) << qint64(3) << qint64(4) << true;
        QTest::newRow("step") << QString(kFrameU) << qint64(1350) << qint64(3) << qint64(50) << qint64(1) << qint64(1300) << qint64(1) << qint64(0) << false;
        QTest::newRow("dropout") << QString(kFrameR) << qint64(300) << qint64(1) << qint64(300) << qint64(1) << qint64(300) << qint64(1) << qint64(1) << true;
    }
    void totalsOfEveryFrame() {
        QFETCH(QString, frame);
        QFETCH(qint64, inclusive);
        QFETCH(qint64, tensors);
        QFETCH(qint64, self);
        QFETCH(qint64, selfTensors);
        QFETCH(qint64, peak);
        QFETCH(qint64, peakKernel);
        QFETCH(qint64, largest);
        QFETCH(bool, torch);
        const Profile profile = stackedProfile();
        const Liveness liveness = computeLiveness(profile);
        const FrameTotals totals = computeFrameTotals(profile, &liveness);
        const FrameTotal* f = find(totals, frame.toUtf8().constData());
        QVERIFY(f);
        QCOMPARE(f->inclusiveBytes, inclusive);
        QCOMPARE(f->tensors, tensors);
        QCOMPARE(f->selfBytes, self);
        QCOMPARE(f->selfTensors, selfTensors);
        QCOMPARE(f->peakLiveBytes, peak);
        QCOMPARE(f->peakKernel, peakKernel);
        QCOMPARE(f->largestTensor, largest);
        QCOMPARE(f->torch, torch);
    }

    void sortedByInclusiveBytesAndCountsStackedTensorsOnly() {
        const Profile profile = stackedProfile();
        const FrameTotals totals = computeFrameTotals(profile);
        QCOMPARE(totals.frames.size(), size_t(5));
        const std::vector<std::string> order{kFrameMain, kFrameM, kFrameL, kFrameU, kFrameR};
        for (size_t i = 0; i < order.size(); ++i) QCOMPARE(totals.frames[i].frame, order[i]);
        // w (7 B) has no stack.
        QCOMPARE(totals.tensorsWithStack, 4);
        QCOMPARE(totals.bytesWithStack, 3350);
        // Self bytes add up to the stacked bytes: every stacked tensor has one innermost frame.
        Bytes self = 0;
        for (const auto& f : totals.frames) self += f.selfBytes;
        QCOMPARE(self, totals.bytesWithStack);
        // Without liveness, no peak column.
        QCOMPARE(totals.frames[0].peakLiveBytes, 0);
        QCOMPARE(totals.frames[0].peakKernel, -1);
    }

    void noStacksNoFrames() {
        const Profile profile = loadProfile(SPILLWAY_SOURCE_DIR "/tests/fixtures/profiles/tiny-mlp.profile.json");
        const FrameTotals totals = computeFrameTotals(profile);
        QVERIFY(totals.frames.empty());
        QCOMPARE(totals.tensorsWithStack, 0);
        QCOMPARE(totals.bytesWithStack, 0);
    }

    void splitsRecordedFrames() {
        auto parts = splitStackFrame("/a/b/train.py:12:forward");
        QCOMPARE(parts.file, std::string_view("/a/b/train.py"));
        QCOMPARE(parts.line, 12);
        QCOMPARE(parts.function, std::string_view("forward"));
        // A C++ frame keeps its "::"; the line may be 0.
        parts = splitStackFrame("??:0:at::native::empty_cuda");
        QCOMPARE(parts.file, std::string_view("??"));
        QCOMPARE(parts.line, 0);
        QCOMPARE(parts.function, std::string_view("at::native::empty_cuda"));
        // A drive letter is no line number.
        parts = splitStackFrame("C:\\work\\train.py:7:<module>");
        QCOMPARE(parts.file, std::string_view("C:\\work\\train.py"));
        QCOMPARE(parts.line, 7);
        QCOMPARE(parts.function, std::string_view("<module>"));
        parts = splitStackFrame("c10::Allocator::allocate");
        QCOMPARE(parts.file, std::string_view());
        QCOMPARE(parts.line, -1);
        QCOMPARE(parts.function, std::string_view("c10::Allocator::allocate"));
        QCOMPARE(shortFrameFile("/venv/lib/python3.12/site-packages/torch/nn/functional.py"),
                 std::string_view("torch/nn/functional.py"));
        QCOMPARE(shortFrameFile("/home/me/train.py"), std::string_view("/home/me/train.py"));
    }

    void torchFramesAndTheUsersFirstFrame() {
        QVERIFY(isTorchFrame(kFrameL));
        QVERIFY(isTorchFrame("/usr/lib/python3/dist-packages/torch/_tensor.py:3:f"));
        QVERIFY(!isTorchFrame("/venv/lib/python3.12/site-packages/torchvision/ops.py:3:f"));
        QVERIFY(!isTorchFrame("/venv/lib/python3.12/site-packages/transformers/activations.py:66:forward"));
        QVERIFY(!isTorchFrame(kFrameU));
        // torch's C++ (stacks="all"): a source tree's files, its libraries, its namespaces.
        QVERIFY(isTorchFrame("/opt/pytorch/c10/cuda/CUDACachingAllocator.cpp:1283:c10::cuda::CUDACachingAllocator::malloc"));
        QVERIFY(isTorchFrame("aten/src/ATen/EmptyTensor.cpp:48:at::detail::empty_generic"));
        QVERIFY(isTorchFrame("??:0:at::native::empty_cuda"));
        QVERIFY(isTorchFrame("/venv/lib/python3.12/site-packages/torch/lib/libtorch_cuda.so:0:"));
        QVERIFY(!isTorchFrame("/home/me/ext/my_op.cpp:12:my_op"));
        QVERIFY(!isTorchFrame("/home/me/attention.py:3:forward"));  // "at" in a file name is no namespace
        const Profile profile = stackedProfile();
        QCOMPARE(firstUserFrame(profile.tensors[0]), 2);  // L M [U] M MAIN
        QCOMPARE(firstUserFrame(profile.tensors[1]), 2);  // R M [U] MAIN
        QCOMPARE(firstUserFrame(profile.tensors[2]), 0);  // [U] MAIN
        QCOMPARE(firstUserFrame(profile.tensors[3]), -1); // no stack
        QCOMPARE(firstUserFrame(profile.tensors[4]), 2);  // L M [MAIN]
        // An unsymbolised frame is nobody's code: the user's frame is further out.
        const Profile cxx = parseNativeProfile(
            R"({"format":"spillway.profile/1","metadata":{"model":"","batch":0,"device":"","source":"t","source_path":"t","notes":{}},
                "jobs":[{"id":0,"name":"j"}],"kernels":[],
                "tensors":[{"id":1,"name":"x","bytes":8,"kind":"activation","job":0,"persistent":false,
                            "frames":["??:0:c10::cuda::malloc","??:0:_PyEval_EvalFrameDefault","/home/me/train.py:10:step"]}]})",
            "cxx.profile.json");
        QCOMPARE(firstUserFrame(cxx.tensors[0]), 2);
    }

    // The bundled snapshot fixture records C++ frames under a torch source tree (/opt/pytorch/c10,
    // aten) before the Python ones: the user's frame is the first of train.py.
    void torchCxxFramesOfTheSnapshotFixture() {
        const Profile profile = loadProfile(SPILLWAY_SOURCE_DIR "/tests/fixtures/snapshots/torch21_mlp_p4.pickle");
        int checked = 0;
        for (const auto& t : profile.tensors) {
            const auto user = firstUserFrame(t);
            if (t.frames.empty()) continue;
            QVERIFY(user >= 2);
            const std::string_view frame = t.frames[size_t(user)];
            QVERIFY2(frame.find("/home/ada/mlp/train.py") == 0, std::string(frame).c_str());
            ++checked;
        }
        QVERIFY(checked > 0);
    }

    // The real GPT-2 capture (Python stacks from torch.cuda.memory._record_memory_history):
    // every stacked tensor's self bytes are counted once, and the script's outermost frames hold
    // every stacked byte.
    void gpt2Capture() {
        const std::string path = SPILLWAY_SHARED_DATA "/h200/captures/gpt2-b8.snapshot.pickle";
        if (!QFileInfo::exists(QString::fromStdString(path))) QSKIP("shared data missing: gpt2-b8.snapshot.pickle");
        const Profile profile = loadProfile(path);
        const FrameTotals totals = computeFrameTotals(profile);
        QVERIFY(totals.tensorsWithStack > 0);
        Bytes self = 0;
        for (const auto& f : totals.frames) {
            self += f.selfBytes;
            QVERIFY(f.inclusiveBytes <= totals.bytesWithStack);
            QVERIFY(f.selfBytes <= f.inclusiveBytes);
        }
        QCOMPARE(self, totals.bytesWithStack);
        // The script's outermost frames are in every stack.
        QCOMPARE(totals.frames.front().inclusiveBytes, totals.bytesWithStack);
        QVERIFY(totals.frames.front().frame.find("capture_torch.py") != std::string::npos);
        // The user's frame of the largest stacked tensor is outside torch.
        for (const auto& t : profile.tensors) {
            const auto user = firstUserFrame(t);
            if (user < 0) continue;
            const std::string_view frame = t.frames[size_t(user)];
            QVERIFY(!isTorchFrame(frame));
            for (std::int64_t i = 0; i < user; ++i) QVERIFY(isTorchFrame(t.frames[size_t(i)]));
        }
    }
};

QTEST_APPLESS_MAIN(TestFrameTotals)
#include "tst_frame_totals.moc"
