// The shipped torch.profiler traces (samples/torch/*.trace.json, captured with
// samples/capture/torch_capture.py) against counts taken from the same files here, with Qt's
// own JSON reader, independently of the importer.
#include "core/io/base/import_error.h"
#include "core/io/native/native_json.h"
#include "core/io/profile_loader.h"
#include "core/io/torch_trace/torch_trace_import.h"
#include "core/trace/kind_evidence.h"
#include "core/trace/validate.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

using namespace spillway;

namespace {

// QCOMPARE cannot print the core enums (their toString returns a string_view): compare names.
template <typename Enum>
QString str(Enum value) {
    const auto name = toString(value);
    return QString::fromLatin1(name.data(), qsizetype(name.size()));
}

const QString kSamples = QStringLiteral(SPILLWAY_SOURCE_DIR "/samples/torch/");

QJsonObject readTraceJson(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

struct Interval {
    double start, end;
};

// The phase marks of the iteration (spillway.* but not spillway.setup), in microseconds.
std::vector<Interval> iterationMarks(const QJsonArray& events) {
    std::vector<Interval> marks;
    for (const auto& v : events) {
        const auto e = v.toObject();
        const auto name = e["name"].toString();
        if (e["ph"].toString() == "X" && name.startsWith("spillway.") && name != "spillway.setup")
            marks.push_back({e["ts"].toDouble(), e["ts"].toDouble() + e["dur"].toDouble()});
    }
    return marks;
}

// cpu_op events no other cpu_op encloses, found with a stack per thread (the importer uses a
// different sweep), that start inside a mark: the CPU kernels the trace should give.
QStringList expectedKernelNames(const QJsonArray& events) {
    struct Op {
        double start, end;
        QString name, thread;
    };
    std::vector<Op> ops;
    for (const auto& v : events) {
        const auto e = v.toObject();
        const auto name = e["name"].toString();
        if (e["cat"].toString() != "cpu_op" || name.startsWith("spillway.") ||
            name.startsWith("ProfilerStep#") || name.startsWith("Optimizer."))
            continue;
        const double ts = e["ts"].toDouble();
        ops.push_back({ts, ts + e["dur"].toDouble(), name,
                       e["pid"].toVariant().toString() + "/" + e["tid"].toVariant().toString()});
    }
    std::stable_sort(ops.begin(), ops.end(), [](const Op& a, const Op& b) {
        if (a.thread != b.thread) return a.thread < b.thread;
        if (a.start != b.start) return a.start < b.start;
        return a.end > b.end;
    });
    std::vector<Op> top;
    std::vector<const Op*> open;
    for (const auto& op : ops) {
        while (!open.empty() && (open.back()->thread != op.thread || open.back()->end <= op.start))
            open.pop_back();
        if (open.empty()) top.push_back(op);
        open.push_back(&op);
    }
    std::stable_sort(top.begin(), top.end(), [](const Op& a, const Op& b) { return a.start < b.start; });
    const auto marks = iterationMarks(events);
    QStringList names;
    for (const auto& op : top)
        for (const auto& m : marks)
            if (op.start >= m.start && op.start < m.end) {
                names << op.name;
                break;
            }
    return names;
}

// Bytes of every block the CPU allocator handed out, plus blocks freed that the trace never
// saw allocated (they were live at its start).
qint64 expectedTensorBytes(const QJsonArray& events) {
    qint64 total = 0;
    std::multiset<qint64> live;
    for (const auto& v : events) {
        const auto e = v.toObject();
        if (e["name"].toString() != "[memory]") continue;
        const auto args = e["args"].toObject();
        if (args["Device Type"].toInt() != 0) continue;
        const auto bytes = args["Bytes"].toVariant().toLongLong();
        const auto addr = args["Addr"].toVariant().toLongLong();
        if (bytes > 0) {
            total += bytes;
            live.insert(addr);
        } else if (auto it = live.find(addr); it != live.end()) {
            live.erase(it);
        } else {
            total -= bytes;
        }
    }
    return total;
}

}  // namespace

class TorchTraceSamplesTest : public QObject {
    Q_OBJECT

private slots:
    void samples_data() {
        QTest::addColumn<QString>("stem");
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("batch");
        QTest::newRow("resnet18") << "resnet18-b2-cpu" << "resnet18" << 2;
        QTest::newRow("vit_b_16") << "vit_b_16-b1-cpu" << "vit_b_16" << 1;
        QTest::newRow("vgg16") << "vgg16-b2-cpu" << "vgg16" << 2;
    }

    void samples() {
        QFETCH(QString, stem);
        QFETCH(QString, model);
        QFETCH(int, batch);
        const QString tracePath = kSamples + stem + ".trace.json";
        const auto json = readTraceJson(tracePath);
        const auto events = json["traceEvents"].toArray();
        QVERIFY2(!events.isEmpty(), qPrintable(tracePath));

        const Profile p = importTorchTrace(tracePath.toStdString());

        // Kernels: the outermost CPU ops of the iteration, in order.
        const auto expectedNames = expectedKernelNames(events);
        QVERIFY(!expectedNames.isEmpty());
        QCOMPARE(qsizetype(p.kernels.size()), expectedNames.size());
        for (size_t i = 0; i < p.kernels.size(); ++i)
            QCOMPARE(QString::fromStdString(p.kernels[i].name), expectedNames[qsizetype(i)]);

        // Every phase is there, and the marks put the right ops in them.
        std::map<KernelPhase, int> perPhase;
        for (const auto& k : p.kernels) ++perPhase[k.phase];
        for (auto phase : {KernelPhase::Forward, KernelPhase::Loss, KernelPhase::Backward,
                           KernelPhase::Optimizer})
            QVERIFY2(perPhase[phase] > 0, toString(phase).data());
        QVERIFY(std::any_of(p.kernels.begin(), p.kernels.end(), [](const Kernel& k) {
            return k.phase == KernelPhase::Loss && k.name == "aten::cross_entropy_loss";
        }));
        for (const auto& k : p.kernels)
            if (k.name.starts_with("autograd::engine::evaluate_function"))
                QCOMPARE(str(k.phase), str(KernelPhase::Backward));

        // Tensors: every CPU allocation of the trace, bytes for bytes.
        Bytes tensorBytes = 0;
        for (const auto& t : p.tensors) tensorBytes += t.bytes;
        QCOMPARE(tensorBytes, expectedTensorBytes(events));
        for (const auto& t : p.tensors) {
            QVERIFY(t.address.has_value());
            QVERIFY(t.allocTime || t.freeTime);
            if (t.allocTime && t.freeTime) QVERIFY(*t.allocTime <= *t.freeTime);
            QCOMPARE(t.persistent, !t.freeTime.has_value());
        }

        // SGD with momentum keeps one buffer per parameter, made in the first step and never
        // freed; the gradients it read were freed by zero_grad(set_to_none=True). The weights
        // (parameters plus BatchNorm running statistics) are at least as large.
        std::map<TensorKind, Bytes> perKind;
        for (const auto& t : p.tensors) perKind[t.kind] += t.bytes;
        QVERIFY(perKind[TensorKind::OptimizerState] > 0);
        QVERIFY(perKind[TensorKind::Gradient] >= perKind[TensorKind::OptimizerState]);
        QVERIFY(perKind[TensorKind::Weight] >= perKind[TensorKind::OptimizerState]);

        const auto problems = validateProfile(p);
        for (const auto& problem : problems) qWarning("%s: %s", problem.pointer.c_str(), problem.message.c_str());
        QVERIFY(problems.empty());

        // Every tensor's kind is decided by an evidence rule (the marks name every phase, the
        // model and optimizer are made inside the trace), and the tally covers every byte.
        QCOMPARE(unclassifiedKindShare(p.metadata.notes), 0.0);
        QVERIFY(p.metadata.notes.contains("kind_rule.weight.before_iteration"));
        QVERIFY(p.metadata.notes.contains("kind_rule.optimizer_state.made"));
        QVERIFY(p.metadata.notes.at("persistent_before_trace").starts_with("0 bytes"));

        QCOMPARE(QString::fromStdString(p.metadata.model), model);
        QCOMPARE(p.metadata.batch, std::int64_t(batch));
        QCOMPARE(QString::fromStdString(p.metadata.source), QStringLiteral("torch-trace"));
        QVERIFY(p.metadata.notes.at("memory_device").find("device cpu") != std::string::npos);

        // The loader picks this importer by itself.
        QCOMPARE(QString::fromStdString(detectProfileFormat(tracePath.toStdString())),
                 QStringLiteral("torch-trace"));
    }

    // samples/torch/<stem>.profile.json was written by `spillway-cli convert`; importing the
    // trace again must give the same profile (only the path it was given may differ).
    void convertedSampleMatchesImport_data() { samples_data(); }
    void convertedSampleMatchesImport() {
        QFETCH(QString, stem);
        const auto tracePath = (kSamples + stem + ".trace.json").toStdString();
        Profile imported = importTorchTrace(tracePath);
        const Profile shipped = readNativeProfile((kSamples + stem + ".profile.json").toStdString());
        QVERIFY(QString::fromStdString(shipped.metadata.sourcePath).endsWith(stem + ".trace.json"));
        imported.metadata.sourcePath = shipped.metadata.sourcePath;
        QCOMPARE(imported.kernels.size(), shipped.kernels.size());
        QCOMPARE(imported.tensors.size(), shipped.tensors.size());
        QVERIFY(imported == shipped);
        QCOMPARE(writeNativeProfile(imported), writeNativeProfile(shipped));
    }

    // Cutting a real trace anywhere gives an ImportError with a position, never a crash or a
    // half-read profile.
    void truncatedRealTraceFailsCleanly() {
        QFile f(kSamples + "resnet18-b2-cpu.trace.json");
        QVERIFY(f.open(QIODevice::ReadOnly));
        const std::string text = f.readAll().toStdString();
        const size_t cuts = 40;
        for (size_t i = 1; i <= cuts; ++i) {
            const size_t length = (text.size() - 2) * i / (cuts + 1);
            try {
                parseTorchTrace(std::string_view(text).substr(0, length), "cut.json");
                QFAIL(qPrintable(QString("a trace cut at byte %1 was accepted").arg(length)));
            } catch (const ImportError& e) {
                QCOMPARE(QString::fromStdString(e.location().file), QStringLiteral("cut.json"));
                QVERIFY2(e.location().line > 0 && e.location().byteOffset >= 0, e.what());
            }
        }
    }
};

QTEST_GUILESS_MAIN(TorchTraceSamplesTest)
#include "tst_torch_trace_samples.moc"
