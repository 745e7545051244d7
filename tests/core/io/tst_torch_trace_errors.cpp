// Broken and unusual torch.profiler traces (tests/fixtures/torch/): each either fails with an
// ImportError that names the file and the place in it, or is read by the documented rule.
#include "core/io/base/import_error.h"
#include "core/io/profile_loader.h"
#include "core/io/torch_trace/torch_trace_import.h"
#include "core/trace/validate.h"

#include <QtTest>

#include <algorithm>

using namespace spillway;

namespace {

// QCOMPARE cannot print the core enums (their toString returns a string_view): compare names.
template <typename Enum>
QString str(Enum value) {
    const auto name = toString(value);
    return QString::fromLatin1(name.data(), qsizetype(name.size()));
}

std::string fixture(const char* name) {
    return std::string(SPILLWAY_SOURCE_DIR "/tests/fixtures/torch/") + name;
}

const Tensor* tensorAt(const Profile& p, std::uint64_t address) {
    auto it = std::find_if(p.tensors.begin(), p.tensors.end(),
                           [&](const Tensor& t) { return t.address == address; });
    return it == p.tensors.end() ? nullptr : &*it;
}

bool contains(const std::vector<TensorId>& ids, TensorId id) {
    return std::find(ids.begin(), ids.end(), id) != ids.end();
}

}  // namespace

class TorchTraceErrorsTest : public QObject {
    Q_OBJECT

private slots:
    void rejected_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("pointer");   // expected JSON pointer, or empty
        QTest::addColumn<int>("line");          // expected line, or 0
        QTest::addColumn<QString>("message");   // a part of the message
        QTest::newRow("empty") << "empty.trace.json" << "" << 0 << "file is empty";
        QTest::newRow("truncated") << "truncated.trace.json" << "" << 9 << "invalid JSON";
        QTest::newRow("corrupted") << "corrupted.trace.json" << "" << 9 << "invalid JSON";
        QTest::newRow("no traceEvents") << "no-trace-events.json" << "/" << 0
                                        << "missing required field \"traceEvents\"";
        QTest::newRow("legacy layout") << "legacy-array.trace.json" << "/" << 0 << "legacy";
        QTest::newRow("negative duration") << "negative-duration.trace.json"
                                           << "/traceEvents/6/dur" << 0 << "negative duration";
        QTest::newRow("free size mismatch") << "free-size-mismatch.trace.json" << "/traceEvents/11"
                                            << 0 << "has 512 bytes";
        QTest::newRow("double allocation") << "double-alloc.trace.json" << "/traceEvents/5" << 0
                                           << "allocated again";
        QTest::newRow("address not a number") << "bad-address.trace.json"
                                              << "/traceEvents/5/args/Addr" << 0
                                              << "non-negative integer address";
    }

    void rejected() {
        QFETCH(QString, file);
        QFETCH(QString, pointer);
        QFETCH(int, line);
        QFETCH(QString, message);
        const auto path = fixture(file.toUtf8().constData());
        try {
            importTorchTrace(path);
            QFAIL("accepted a broken trace");
        } catch (const ImportError& e) {
            QCOMPARE(QString::fromStdString(e.location().file), QString::fromStdString(path));
            QCOMPARE(QString::fromStdString(e.location().jsonPointer), pointer);
            QCOMPARE(e.location().line, std::int64_t(line));
            if (line > 0) QVERIFY(e.location().byteOffset > 0);
            QVERIFY2(QString::fromStdString(e.message()).contains(message), e.what());
        }
    }

    // The loader recognises the legacy layout as a torch trace, so the user gets the reason.
    void legacyLayoutIsDetected() {
        QCOMPARE(QString::fromStdString(detectProfileFormat(fixture("legacy-array.trace.json"))),
                 QStringLiteral("torch-trace"));
    }

    void g10FileIsNotATrace() {
        const std::string path = SPILLWAY_SHARED_DATA "/g10/derived/BERT_Base_256/kernels.config";
        if (!QFile::exists(QString::fromStdString(path))) QSKIP("shared G10 data not present");
        try {
            importTorchTrace(path);
            QFAIL("accepted a G10 kernels.config as a torch trace");
        } catch (const ImportError& e) {
            QCOMPARE(e.location().line, std::int64_t(1));
            QCOMPARE(e.location().byteOffset, std::int64_t(0));
            QVERIFY(QString::fromStdString(e.message()).contains("traceEvents"));
        }
    }

    void minimalTrace() {
        const Profile p = importTorchTrace(fixture("minimal.trace.json"));
        QCOMPARE(p.kernels.size(), size_t(5));
        // aten::addmm runs inside aten::linear: one kernel, the outer op.
        QCOMPARE(QString::fromStdString(p.kernels[0].name), QStringLiteral("aten::linear"));
        QCOMPARE(p.kernels[0].duration, Nanoseconds(10000));
        QCOMPARE(p.kernels[0].capturedStart, std::optional<Nanoseconds>(21000));
        QCOMPARE(str(p.kernels[1].phase), str(KernelPhase::Forward));
        QCOMPARE(str(p.kernels[2].phase), str(KernelPhase::Loss));
        QCOMPARE(p.kernels[2].duration, Nanoseconds(1));  // 0.4 ns in the trace, raised to 1
        QVERIFY(p.metadata.notes.contains("zero_durations"));
        QCOMPARE(QString::fromStdString(p.kernels[3].op), QStringLiteral("AddmmBackward0"));
        QCOMPARE(str(p.kernels[3].phase), str(KernelPhase::Backward));
        QCOMPARE(str(p.kernels[4].phase), str(KernelPhase::Optimizer));
        QCOMPARE(p.kernels[4].duration, Nanoseconds(2500));

        // Allocated in setup and never freed: a persistent weight nobody writes in the trace.
        const Tensor* weight = tensorAt(p, 1000);
        QVERIFY(weight);
        QCOMPARE(str(weight->kind), str(TensorKind::Weight));
        QVERIFY(weight->persistent);
        QCOMPARE(weight->bytes, Bytes(4096));
        QVERIFY(!weight->freeTime);
        // Allocated inside aten::linear, freed inside the backward node.
        const Tensor* act = tensorAt(p, 2000);
        QVERIFY(act);
        QCOMPARE(str(act->kind), str(TensorKind::Activation));
        QVERIFY(!act->persistent);
        QCOMPARE(act->allocTime, std::optional<Nanoseconds>(23000));
        QCOMPARE(act->freeTime, std::optional<Nanoseconds>(62000));
        QVERIFY(contains(p.kernels[0].outputs, act->id));
        QVERIFY(contains(p.kernels[3].inputs, act->id));

        QCOMPARE(QString::fromStdString(p.metadata.model), QStringLiteral("tiny"));
        QCOMPARE(p.metadata.batch, std::int64_t(4));
        QVERIFY(validateProfile(p).empty());
    }

    // Some exports end the event list with "},]": read as if the comma were not there.
    void trailingCommaIsTolerated() {
        const Profile relaxed = importTorchTrace(fixture("trailing-comma.trace.json"));
        Profile strict = importTorchTrace(fixture("minimal.trace.json"));
        strict.metadata.sourcePath = relaxed.metadata.sourcePath;
        QVERIFY(relaxed == strict);
    }

    // A free with no allocation before it: the block predates the trace. It becomes a tensor
    // without alloc_time, read by the kernel that freed it, and the notes count it.
    void freeWithoutAllocation() {
        const Profile p = importTorchTrace(fixture("unpaired-free.trace.json"));
        const Tensor* early = tensorAt(p, 7000);
        QVERIFY(early);
        QCOMPARE(early->bytes, Bytes(128));
        QVERIFY(!early->allocTime);
        QCOMPARE(early->freeTime, std::optional<Nanoseconds>(62000));
        QVERIFY(!early->persistent);
        QVERIFY(contains(p.kernels[3].inputs, early->id));
        QVERIFY(p.metadata.notes.at("memory_before_trace").starts_with("1 blocks"));
        // The block allocated in forward and never freed survives the iteration.
        const Tensor* kept = tensorAt(p, 3000);
        QVERIFY(kept && kept->persistent && kept->kind == TensorKind::Activation);
        QVERIFY(validateProfile(p).empty());
    }

    // No spillway.* marks: phases from torch's own span names.
    void phasesWithoutMarks() {
        const Profile p = importTorchTrace(fixture("no-marks.trace.json"));
        QCOMPARE(p.kernels.size(), size_t(5));
        QCOMPARE(str(p.kernels[0].phase), str(KernelPhase::Forward));
        QCOMPARE(str(p.kernels[1].phase), str(KernelPhase::Forward));
        QCOMPARE(str(p.kernels[2].phase), str(KernelPhase::Loss));
        QCOMPARE(str(p.kernels[3].phase), str(KernelPhase::Backward));
        QCOMPARE(str(p.kernels[4].phase), str(KernelPhase::Optimizer));
        QVERIFY(p.metadata.notes.at("phases").starts_with("inferred"));
        QCOMPARE(QString::fromStdString(p.metadata.model), QStringLiteral("no-marks.trace.json"));
    }

    // GPU kernels present: they are the kernels, attached by their launch calls; only CUDA
    // memory is kept.
    void gpuKernels() {
        const Profile p = importTorchTrace(fixture("gpu-kernels.trace.json"));
        QCOMPARE(p.kernels.size(), size_t(3));
        QCOMPARE(QString::fromStdString(p.kernels[0].name), QStringLiteral("implicit_convolve_sgemm"));
        QCOMPARE(QString::fromStdString(p.kernels[0].op), QStringLiteral("aten::conv2d"));
        QCOMPARE(p.kernels[0].duration, Nanoseconds(15250));
        QCOMPARE(QString::fromStdString(p.kernels[1].op), QStringLiteral("ConvolutionBackward0"));
        QCOMPARE(str(p.kernels[1].phase), str(KernelPhase::Backward));
        QCOMPARE(str(p.kernels[2].phase), str(KernelPhase::Optimizer));
        QCOMPARE(p.tensors.size(), size_t(1));
        const auto& t = p.tensors[0];
        QCOMPARE(t.bytes, Bytes(1048576));
        QCOMPARE(t.address, std::optional<std::uint64_t>(139637976727552ull));
        QCOMPARE(str(t.kind), str(TensorKind::Activation));
        QVERIFY(contains(p.kernels[0].outputs, t.id));
        QVERIFY(contains(p.kernels[1].inputs, t.id));
        QVERIFY(p.metadata.notes.at("memory_device").find("device cuda") != std::string::npos);
        QVERIFY(p.metadata.notes.at("memory_device").find("1 events of other devices") != std::string::npos);
        QVERIFY(p.metadata.notes.contains("skipped.gpu_memcpy"));
        QCOMPARE(QString::fromStdString(p.metadata.device), QStringLiteral("NVIDIA Test GPU"));
        QVERIFY(validateProfile(p).empty());
    }
};

QTEST_GUILESS_MAIN(TorchTraceErrorsTest)
#include "tst_torch_trace_errors.moc"
