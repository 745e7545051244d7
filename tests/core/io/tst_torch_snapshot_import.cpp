// importTorchSnapshot on snapshots with the exact structure torch 2.1+, 2.0 and 1.13 write
// (tests/fixtures/snapshots/make_snapshots.py). Expected numbers come from two independent
// places: the simulated program (<name>.expected.json, computed in Python) and the raw trace
// entries read here, never from the importer itself.
#include "core/analysis/liveness.h"
#include "core/analysis/peak.h"
#include "core/io/base/file_text.h"
#include "core/io/base/import_error.h"
#include "core/io/torch_snapshot/pickle_reader.h"
#include "core/io/profile_loader.h"
#include "core/io/torch_snapshot/torch_snapshot_import.h"
#include "core/trace/validate.h"

#include <nlohmann/json.hpp>

#include <QtTest>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>

using namespace spillway;
using Kind = PickleValue::Kind;

namespace {

std::string fixture(const std::string& name) {
    return std::string(SPILLWAY_SOURCE_DIR) + "/tests/fixtures/snapshots/" + name;
}

nlohmann::json expected(const std::string& name) {
    return nlohmann::json::parse(readFileText(fixture(name + ".expected.json")));
}

Bytes totalBytes(const Profile& p) {
    Bytes sum = 0;
    for (const auto& t : p.tensors) sum += t.bytes;
    return sum;
}

// Live bytes where each step sits, computed from the raw trace alone: walk back from the bytes
// live at the end (ground truth from the simulation) to get the bytes live before the first
// event, then take the curve at every point where a run of allocations meets a free.
std::vector<Bytes> curveAtSteps(const PickleValue& trace, Bytes liveAtEnd) {
    Bytes live = liveAtEnd;
    for (auto it = trace.items().rbegin(); it != trace.items().rend(); ++it) {
        const auto& action = it->find("action")->asString();
        if (action == "alloc") live -= it->find("size")->asInt();
        if (action == "free_completed") live += it->find("size")->asInt();
    }
    std::vector<Bytes> points;
    bool lastWasAlloc = false, any = false;
    for (const auto& e : trace.items()) {
        const auto& action = e.find("action")->asString();
        if (action == "alloc") {
            live += e.find("size")->asInt();
            lastWasAlloc = any = true;
        } else if (action == "free_completed") {
            if (lastWasAlloc || !any) points.push_back(live);
            live -= e.find("size")->asInt();
            lastWasAlloc = false;
            any = true;
        }
    }
    if (lastWasAlloc) points.push_back(live);
    return points;
}

}  // namespace

// The whole trace as one profile, as the expected numbers of make_snapshots.py count it.
ImportOptions wholeTrace() {
    ImportOptions o;
    o.iteration = ImportOptions::kAllIterations;
    return o;
}

class TestTorchSnapshotImport : public QObject {
    Q_OBJECT
private slots:
    void torch21MatchesTheSimulatedProgram_data() {
        QTest::addColumn<int>("protocol");
        for (int p = 2; p <= 5; ++p) QTest::newRow(qPrintable(QString("protocol %1").arg(p))) << p;
    }

    void torch21MatchesTheSimulatedProgram() {
        QFETCH(int, protocol);
        const auto exp = expected("torch21_mlp");
        const auto path = fixture("torch21_mlp_p" + std::to_string(protocol) + ".pickle");
        const auto profile = importTorchSnapshot(path, wholeTrace());

        const auto problems = validateProfile(profile);
        QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().message.c_str());
        QCOMPARE(profile.metadata.source, std::string("torch-snapshot"));
        QCOMPARE(profile.metadata.device, std::string("cuda:0"));
        QCOMPARE(static_cast<std::int64_t>(profile.tensors.size()), exp["allocations"].get<std::int64_t>());
        QCOMPARE(totalBytes(profile), exp["total_bytes"].get<Bytes>());
        QCOMPARE(static_cast<std::int64_t>(profile.kernels.size()), exp["steps"].get<std::int64_t>());
        const auto persistent = std::count_if(profile.tensors.begin(), profile.tensors.end(),
                                              [](const Tensor& t) { return t.persistent; });
        QCOMPARE(static_cast<std::int64_t>(persistent), exp["persistent"].get<std::int64_t>());
        const auto liveAtEnd = std::count_if(profile.tensors.begin(), profile.tensors.end(),
                                             [](const Tensor& t) { return !t.freeTime; });
        QCOMPARE(static_cast<std::int64_t>(liveAtEnd), exp["live_allocations_at_end"].get<std::int64_t>());

        // The theoretical peak of the formed steps is the snapshot's allocated-bytes peak.
        const auto peak = theoreticalPeak(profile, computeLiveness(profile));
        QCOMPARE(peak.peakBytes, exp["peak_live_bytes"].get<Bytes>());
        QCOMPARE(profile.metadata.notes.at("snapshot_layout").find("2.1+") != std::string::npos, true);
        QCOMPARE(profile.metadata.notes.at("allocator.max_split_size"), std::string("-1"));
        QCOMPARE(profile.metadata.notes.at("time_origin_us"), std::to_string(exp["first_time_us"].get<std::int64_t>()));

        // Times: relative to the first event, in ns, within the recorded span.
        const auto spanNs = (exp["last_time_us"].get<std::int64_t>() - exp["first_time_us"].get<std::int64_t>()) * 1000;
        for (const auto& t : profile.tensors) {
            if (t.allocTime) QVERIFY(*t.allocTime >= 0 && *t.allocTime <= spanNs);
            if (t.freeTime) QVERIFY(*t.freeTime >= 0 && *t.freeTime <= spanNs);
            if (t.allocTime && t.freeTime) QVERIFY(*t.allocTime <= *t.freeTime);
            QVERIFY(t.address.has_value());
        }
        Nanoseconds steps = 0;
        for (const auto& k : profile.kernels) steps += k.duration;
        QVERIFY(steps > 0 && steps <= spanNs);
    }

    void allocationsAreTheTraceEntriesExactly() {
        // Every "alloc" entry of the raw trace is one tensor with its address, size and time.
        const auto path = fixture("torch21_mlp_p4.pickle");
        const auto root = readPickleFile(path);
        const auto& trace = root.find("device_traces")->items()[0];
        const auto origin = std::stoll(importTorchSnapshot(path, wholeTrace()).metadata.notes.at("time_origin_us"));
        std::multiset<std::tuple<std::uint64_t, Bytes, Nanoseconds>> fromTrace, fromProfile;
        for (const auto& e : trace.items())
            if (e.find("action")->asString() == "alloc")
                fromTrace.emplace(static_cast<std::uint64_t>(e.find("addr")->asInt()), e.find("size")->asInt(),
                                  (e.find("time_us")->asInt() - origin) * 1000);
        const auto profile = importTorchSnapshot(path, wholeTrace());
        for (const auto& t : profile.tensors)
            if (t.allocTime) fromProfile.emplace(*t.address, t.bytes, *t.allocTime);
        QCOMPARE(fromProfile.size(), fromTrace.size());
        QVERIFY(fromProfile == fromTrace);
    }

    void stepLiveBytesFollowTheTraceCurve() {
        const auto path = fixture("torch21_mlp_p4.pickle");
        const auto root = readPickleFile(path);
        const auto curve = curveAtSteps(root.find("device_traces")->items()[0],
                                        expected("torch21_mlp")["live_bytes_at_end"].get<Bytes>());
        const auto profile = importTorchSnapshot(path, wholeTrace());
        const auto peak = theoreticalPeak(profile, computeLiveness(profile));
        QCOMPARE(peak.liveBytes.size(), curve.size());
        for (size_t k = 0; k < curve.size(); ++k) QCOMPARE(peak.liveBytes[k], curve[k]);
    }

    void protocolsGiveTheSameProfile() {
        auto load = [](int p) {
            auto profile = importTorchSnapshot(fixture("torch21_mlp_p" + std::to_string(p) + ".pickle"));
            profile.metadata.sourcePath.clear();
            return profile;
        };
        const auto p2 = load(2);
        QVERIFY(!p2.tensors.empty());
        for (int p = 3; p <= 5; ++p) QVERIFY(load(p) == p2);
    }

    // The fixture's MLP trains three iterations with Adam; the first also creates Adam's state,
    // so only the last two repeat. The steady-state iteration (the second of those) is read.
    void kindsComeFromTheIterationShape() {
        const auto profile = importTorchSnapshot(fixture("torch21_mlp_p4.pickle"));
        QCOMPARE(profile.metadata.notes.at("iterations.found"), std::string("2"));
        QCOMPARE(profile.metadata.notes.at("iterations.imported"), std::string("2"));
        int optimizerState = 0, weights = 0, gradients = 0, withFrames = 0;
        for (const auto& t : profile.tensors) {
            if (t.kind == TensorKind::OptimizerState) ++optimizerState;
            if (t.kind == TensorKind::Weight) ++weights;
            if (t.kind == TensorKind::Gradient) ++gradients;
            if (t.frames.empty()) continue;
            ++withFrames;
            // Innermost first, as PyTorch records them: the allocator, then up to the script.
            QCOMPARE(t.frames.front(), std::string("/opt/pytorch/c10/cuda/CUDACachingAllocator.cpp:1283:"
                                                   "c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::malloc"));
            QCOMPARE(t.frames.back(), std::string("/home/ada/mlp/train.py:92:<module>"));
        }
        QCOMPARE(optimizerState, 12);  // Adam's exp_avg and exp_avg_sq for 6 parameters
        QCOMPARE(weights, 6);          // allocated before recording, one per gradient of its size
        QCOMPARE(gradients, 6);        // made in backward, kept to the next zero_grad
        QVERIFY(withFrames > 0);
        // Names follow the memory_viz convention b<hex address>_<reuse>.
        QVERIFY(profile.tensors.front().name.starts_with("b7f3a"));
    }

    void iterationChoice() {
        const auto path = fixture("torch21_mlp_p4.pickle");
        ImportOptions first;
        first.iteration = 1;
        const auto one = importTorchSnapshot(path, first);
        QCOMPARE(one.metadata.notes.at("iterations.imported"), std::string("1"));
        QVERIFY(one.kernels.size() < importTorchSnapshot(path, wholeTrace()).kernels.size());
        ImportOptions past;
        past.iteration = 3;
        try {
            importTorchSnapshot(path, past);
            QFAIL("an iteration past the last one was accepted");
        } catch (const ImportError& e) {
            const std::string what = e.what();
            QVERIFY2(what.find("torch21_mlp_p4.pickle") != std::string::npos, e.what());
            QVERIFY2(what.find("2 complete iterations") != std::string::npos, e.what());
        }
    }

    void torch20HistoryLayout() {
        const auto exp = expected("torch20_mlp");
        const auto profile = importTorchSnapshot(fixture("torch20_mlp_p2.pickle"), wholeTrace());
        QVERIFY(validateProfile(profile).empty());
        QVERIFY(profile.metadata.notes.at("snapshot_layout").find("2.0") != std::string::npos);
        QCOMPARE(static_cast<std::int64_t>(profile.tensors.size()), exp["allocations"].get<std::int64_t>());
        QCOMPARE(totalBytes(profile), exp["total_bytes"].get<Bytes>());
        QCOMPARE(static_cast<std::int64_t>(profile.kernels.size()), exp["steps"].get<std::int64_t>());
        QCOMPARE(theoreticalPeak(profile, computeLiveness(profile)).peakBytes, exp["peak_live_bytes"].get<Bytes>());
        // No times in a 2.0 trace: none invented.
        for (const auto& t : profile.tensors) QVERIFY(!t.allocTime && !t.freeTime);
        for (const auto& k : profile.kernels) QCOMPARE(k.duration, Nanoseconds{1000});
    }

    void torch113SegmentList() {
        const auto exp = expected("torch113_mlp");
        const auto profile = importTorchSnapshot(fixture("torch113_mlp_p4.pickle"));
        QVERIFY(validateProfile(profile).empty());
        QVERIFY(profile.metadata.notes.at("snapshot_layout").find("1.13") != std::string::npos);
        QCOMPARE(static_cast<std::int64_t>(profile.tensors.size()), exp["allocations"].get<std::int64_t>());
        QCOMPARE(totalBytes(profile), exp["total_bytes"].get<Bytes>());
        QCOMPARE(profile.kernels.size(), size_t{1});
        for (const auto& t : profile.tensors) QVERIFY(t.persistent);
        QCOMPARE(theoreticalPeak(profile, computeLiveness(profile)).peakBytes, exp["peak_live_bytes"].get<Bytes>());
        QCOMPARE(profile.metadata.notes.at("pending_free_blocks_skipped"), std::string("1"));
    }

    void loaderDetectsSnapshots() {
        const auto path = fixture("torch21_mlp_p5.pickle");
        QCOMPARE(detectProfileFormat(path), std::string("torch-snapshot"));
        QVERIFY(loadProfile(path) == importTorchSnapshot(path));
    }
};

QTEST_GUILESS_MAIN(TestTorchSnapshotImport)
#include "tst_torch_snapshot_import.moc"
