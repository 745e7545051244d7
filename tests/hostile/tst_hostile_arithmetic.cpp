// Issue 15, finding 2 (the arithmetic half): sums and products of sizes and times that do not fit
// in 64 bits are errors, never negative footprints or wrapped offsets; a minimalloc CSV is
// bounded where it is read, so an overlapping layout is never "valid"; a plan's arena slot
// beyond the bounds is refused by `verify`; and the simulator refuses a profile that cannot fit
// the machine before it allocates anything per block (a 32 TiB tensor used 2.4 GB first).
#include "tests/hostile/hostile_support.h"
#include "tests/support/profile_builder.h"

#include "core/analysis/peak.h"
#include "core/analysis/profile_summary.h"
#include "core/analysis/working_set.h"
#include "core/deploy/plan_verifier.h"
#include "core/io/base/import_error.h"
#include "core/io/native/profile_hash.h"
#include "core/layout/layout_verifier.h"
#include "core/layout/minimalloc_csv.h"
#include "core/layout/placement.h"
#include "core/sim/simulator.h"
#include "core/trace/number_limits.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <fstream>
#include <limits>

using namespace spillway;
using namespace spillway::hostile;
using spillway::testing::ProfileBuilder;

namespace {

constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
constexpr Bytes k2To62 = Bytes{1} << 62;
const QString kTinyMlp = QStringLiteral(SPILLWAY_SOURCE_DIR "/tests/fixtures/profiles/tiny-mlp.profile.json");

// a on bytes [2^62, 2^62 + 2^62 + 2^61) and b inside it, both live on [0, 2): a's end does not
// fit in 64 bits; wrapped, it is negative and b seems to sit above it.
constexpr const char* kOverlapPastTwoTo63 =
    "id,lower,upper,size,offset\n"
    "a,0,2,6917529027641081856,4611686018427387904\n"
    "b,0,2,16,5764607523034234880\n";

// Three buffers of 2^62 bytes live together: stacked, the third starts at 2^63.
constexpr const char* kThreeOfTwoTo62 =
    "id,lower,upper,size\n"
    "a,0,2,4611686018427387904\n"
    "b,0,2,4611686018427387904\n"
    "c,0,2,4611686018427387904\n";

// A native profile with one tensor of `bytes` named 'huge'. `used`: kernel 'fill' writes it and
// 'read' reads it (and writes 'small'); otherwise they write and read 'small' and no kernel
// touches 'huge'.
QByteArray profileWithOneTensor(Bytes bytes, bool used) {
    nlohmann::json p = {
        {"format", "spillway.profile/1"},
        {"metadata", {{"model", "one-huge-tensor"}, {"batch", 1}, {"device", "d"}, {"source", "hand"},
                      {"source_path", "x"}, {"notes", nlohmann::json::object()}}},
        {"jobs", {{{"id", 0}, {"name", "j"}}}},
        {"tensors",
         {{{"id", 0}, {"name", "huge"}, {"bytes", bytes}, {"kind", "activation"}, {"job", 0}, {"persistent", false}},
          {{"id", 1}, {"name", "small"}, {"bytes", 4096}, {"kind", "activation"}, {"job", 0}, {"persistent", false}}}},
        {"kernels",
         {{{"id", 0}, {"name", "fill"}, {"op", "op"}, {"phase", "forward"}, {"job", 0}, {"duration_ns", 1000},
           {"inputs", nlohmann::json::array()}, {"outputs", {used ? 0 : 1}}},
          {{"id", 1}, {"name", "read"}, {"op", "op"}, {"phase", "forward"}, {"job", 0}, {"duration_ns", 1000},
           {"inputs", {used ? 0 : 1}}, {"outputs", used ? nlohmann::json{1} : nlohmann::json::array()}}}}};
    return QByteArray::fromStdString(p.dump());
}

// 2^14 tensors of 2^50 bytes (2^64 together), each written by its own kernel.
Profile sixteenThousandPebibytes() {
    ProfileBuilder b("sixteen-thousand-pebibytes");
    for (TensorId t = 0; t < (1 << 14); ++t) {
        b.tensor(t, "t" + std::to_string(t), kMaxBytes, TensorKind::Activation, false);
        b.kernel(t, "k" + std::to_string(t), KernelPhase::Forward, 1000, {}, {t});
    }
    return b.build();
}

// A machine where one block holds a pebibyte tensor, so an unfixed build does not allocate per
// 2 MiB before it goes wrong.
HardwareConfig pebibyteMachine() {
    HardwareConfig hw;
    hw.id = "pebibyte";
    hw.gpuCapacity = kMaxBytes;
    hw.hostCapacity = kMaxBytes;
    hw.ssdCapacity = 0;  // no limit
    hw.hostToGpu = hw.gpuToHost = hw.ssdToGpu = hw.gpuToSsd = {1'000'000'000'000, 0};
    hw.blockSize = kMaxBytes;
    hw.iterations = 1;
    return hw;
}

}  // namespace

class TestHostileArithmetic : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // ---- minimalloc CSV ------------------------------------------------------------------------

    void csvSizeNearTwoTo63IsAnImportError() {
        try {
            parseMinimallocCsv(kOverlapPastTwoTo63, "big.csv");
            QFAIL("a size of 2^62 + 2^61 bytes was accepted");
        } catch (const ImportError& e) {
            QCOMPARE(e.location().file, std::string("big.csv"));
            QCOMPARE(e.location().line, std::int64_t{2});
            QVERIFY2(std::string(e.what()).find("size") != std::string::npos, e.what());
            QVERIFY2(std::string(e.what()).find("1 PiB") != std::string::npos, e.what());
        }
    }

    void csvOffsetNearTwoTo63IsAnImportError() {
        try {
            parseMinimallocCsv("id,lower,upper,size,offset\na,0,2,16,9223372036854775800\n", "far.csv");
            QFAIL("an offset of 2^63 - 8 was accepted");
        } catch (const ImportError& e) {
            QCOMPARE(e.location().line, std::int64_t{2});
            QVERIFY2(std::string(e.what()).find("offset") != std::string::npos, e.what());
        }
    }

    void csvOverlapPastTwoTo63IsNeverValid() {
        const QString csv = dir_.filePath("overlap-past-2-63.csv");
        QVERIFY(writeBytes(csv, kOverlapPastTwoTo63));
        const CliRun r = runCli({"layout", "--csv", csv});
        QCOMPARE(r.code, 2);
        QVERIFY2(!r.out.contains("valid"), r.out.constData());
        QVERIFY2(r.err.contains("overlap-past-2-63.csv:2:") && r.err.contains("size"), r.err.constData());
    }

    void csvWhoseStackedSizesPassTwoTo63IsRefusedBeforePlacing() {
        const QString csv = dir_.filePath("three-of-2-62.csv");
        QVERIFY(writeBytes(csv, kThreeOfTwoTo62));
        const CliRun r = runCli({"layout", "--csv", csv, "--solver", "greedy-by-size", "--json"});
        QCOMPARE(r.code, 2);
        QVERIFY2(!r.out.contains("\"verified\": true"), r.out.constData());
        QVERIFY2(r.err.contains("three-of-2-62.csv:2:"), r.err.constData());
    }

    // The verifier stands on its own: a layout made in process, whatever its numbers, is checked
    // without wrapping.
    void verifierReportsAnEndPastTwoTo63() {
        AllocationProblem problem;
        problem.buffers = {{"a", 0, 2, k2To62 + (k2To62 >> 1), {}}, {"b", 0, 2, 16, {}}};
        const Layout layout{{k2To62, k2To62 + (k2To62 >> 2)}};
        const auto violations = verifyLayout(problem, layout);
        QVERIFY(!violations.empty());
        QVERIFY2(violations.front().message.find("'a'") != std::string::npos, violations.front().message.c_str());
    }

    void lowerBoundPastTwoTo63IsAnOverflowNotANegativeNumber() {
        AllocationProblem problem;
        for (int i = 0; i < 3; ++i) problem.buffers.push_back({"b" + std::to_string(i), 0, 2, k2To62, {}});
        QVERIFY_THROWS_EXCEPTION(NumberOverflow, loadLowerBound(problem));
        QVERIFY_THROWS_EXCEPTION(NumberOverflow, place("greedy-by-size", problem, {}));
    }

    // ---- plans -----------------------------------------------------------------------------------

    void planArenaSlotOfInt64MaxIsRefusedByVerify() {
        const QString good = dir_.filePath("tiny.plan.json");
        const CliRun exported = runCli({"plan", kTinyMlp, "--policy", "uvm", "--export", good});
        QVERIFY2(exported.code == 0, exported.err.constData());
        nlohmann::json plan = nlohmann::json::parse(readBytes(good).toStdString());
        // The slot highest in the arena: its end is what the wrapped sum would hide.
        std::size_t top = 0;
        for (std::size_t i = 0; i < plan["arena"].size(); ++i)
            if (plan["arena"][i]["offset"].get<std::int64_t>() > plan["arena"][top]["offset"].get<std::int64_t>()) top = i;
        QVERIFY(plan["arena"][top]["offset"].get<std::int64_t>() > 0);
        plan["arena"][top]["bytes"] = kInt64Max;
        const QString bad = dir_.filePath("slot-int64-max.plan.json");
        QVERIFY(writeBytes(bad, QByteArray::fromStdString(plan.dump(1))));
        const CliRun r = runCli({"verify", bad, kTinyMlp});
        QCOMPARE(r.code, 2);
        const QByteArray pointer = QByteArray("/arena/") + QByteArray::number(qulonglong(top)) + "/bytes";
        QVERIFY2(r.err.contains(pointer) && r.err.contains("1 PiB"), r.err.constData());
    }

    void planDelayOfInt64MaxIsRefused() {
        const QString good = dir_.filePath("tiny.plan.json");
        if (!QFile::exists(good)) QSKIP("needs the plan of planArenaSlotOfInt64MaxIsRefusedByVerify");
        nlohmann::json plan = nlohmann::json::parse(readBytes(good).toStdString());
        plan["directives"] = {{{"at", 0}, {"kind", "prefetch"}, {"tensor", 0}, {"target", "gpu"}, {"delay_ns", kInt64Max}}};
        const QString bad = dir_.filePath("delay-int64-max.plan.json");
        QVERIFY(writeBytes(bad, QByteArray::fromStdString(plan.dump(1))));
        const CliRun r = runCli({"verify", bad, kTinyMlp});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("/directives/0/delay_ns") && r.err.contains("2^50"), r.err.constData());
    }

    // A plan made in process is not read through the bounds: the verifier checks its slots itself.
    void verifierRefusesASlotOfInt64MaxMadeInProcess() {
        const Profile profile = ProfileBuilder("two")
                                    .tensor(0, "A", kMiB, TensorKind::Activation, false)
                                    .tensor(1, "B", kMiB, TensorKind::Activation, false)
                                    .kernel(0, "make", KernelPhase::Forward, 1000, {}, {0})
                                    .kernel(1, "use", KernelPhase::Forward, 1000, {0}, {1})
                                    .build();
        HardwareConfig hw;
        hw.id = "unit";
        hw.gpuCapacity = kGiB;
        hw.hostCapacity = kGiB;
        hw.hostToGpu = hw.gpuToHost = {1'000'000'000, 0};
        Plan plan;
        plan.policy = "uvm";
        plan.order = {0, 1};
        plan.placement = "by-hand";
        plan.arena = {{0, -1, 0, kMiB}, {1, -1, kMiB, kInt64Max}};
        plan.arenaBytes = 2 * kMiB;
        const PlanVerification v = verifyPlan(profile, ExportedPlan{"two", profileHash(profile), hw, plan});
        QVERIFY(!v.ok());
        bool named = false;
        for (const PlanProblem& p : v.problems) named = named || (p.kind == PlanProblemKind::BadArena && p.tensor == 1);
        QVERIFY(named);
    }

    // ---- simulator capacity ----------------------------------------------------------------------

    void simulateOfA32TiBTensorSaysItDoesNotFit_data() {
        QTest::addColumn<bool>("used");
        QTest::newRow("used by its kernels") << true;
        QTest::newRow("used by no kernel") << false;
    }

    // 2^45 bytes is within the importers' bounds; G10's A100 holds 40 GiB + 128 GiB + 16 TB.
    // (Peak memory, measured by hand: docs/hostile-input.md.)
    void simulateOfA32TiBTensorSaysItDoesNotFit() {
        QFETCH(bool, used);
        const QString path = dir_.filePath(used ? "huge-used.json" : "huge-unused.json");
        QVERIFY(writeBytes(path, profileWithOneTensor(Bytes{1} << 45, used)));
        const CliRun r = runCli({"simulate", path, "--hw", "g10-a100"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("does not fit") && r.err.contains("'huge'") && r.err.contains("35184372088832"),
                 r.err.constData());
    }

    // With no SSD limit nothing bounds the footprint but the simulator's block table.
    void simulateOfA32TiBTensorOnAnUnlimitedSsdNamesTheBlockLimit() {
        const QString path = dir_.filePath("huge-unused.json");
        QVERIFY(writeBytes(path, profileWithOneTensor(Bytes{1} << 45, false)));
        const CliRun r = runCli({"simulate", path, "--hw", "discard-3080ti-pcie4"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("blocks") && r.err.contains("block_size"), r.err.constData());
    }

    // ---- sums past INT64_MAX made in process -----------------------------------------------------

    void tensorsSummingPastInt64MaxAreAnErrorInAnalysis() {
        const Profile profile = sixteenThousandPebibytes();
        QVERIFY_THROWS_EXCEPTION(NumberOverflow, summarizeProfile(profile));
        QVERIFY_THROWS_EXCEPTION(NumberOverflow, theoreticalPeak(profile, computeLiveness(profile)));
        QVERIFY_THROWS_EXCEPTION(NumberOverflow, computeWorkingSets(profile));
    }

    void tensorsSummingPastInt64MaxAreAnErrorInSimulate() {
        const Profile profile = sixteenThousandPebibytes();
        Plan plan;
        plan.policy = "uvm";
        QVERIFY_THROWS_EXCEPTION(NumberOverflow, simulate(profile, plan, pebibyteMachine()));
    }

    void durationsSummingPastInt64MaxAreAnError() {
        ProfileBuilder b("long");
        b.tensor(0, "x", 4096, TensorKind::Activation, false);
        for (KernelId k = 0; k < (1 << 14); ++k)
            b.kernel(k, "k" + std::to_string(k), KernelPhase::Forward, kMaxDurationNs, {}, {0});
        const Profile profile = b.build();
        QVERIFY_THROWS_EXCEPTION(NumberOverflow, summarizeProfile(profile));
        Plan plan;
        plan.policy = "uvm";
        QVERIFY_THROWS_EXCEPTION(NumberOverflow, simulate(profile, plan, pebibyteMachine()));
    }

    // One number beyond the bounds, made in process (no importer saw it): refused by name, not
    // summed into a negative footprint.
    void aTensorOfInt64MaxMadeInProcessIsRefused() {
        const Profile profile = ProfileBuilder("max")
                                    .tensor(0, "max", kInt64Max, TensorKind::Activation, false)
                                    .kernel(0, "k", KernelPhase::Forward, 1000, {}, {0}, 4096)
                                    .build();
        try {
            summarizeProfile(profile);
            QFAIL("a tensor of 2^63-1 bytes was summed");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find("'max'") != std::string::npos, e.what());
        }
        Plan plan;
        plan.policy = "uvm";
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, simulate(profile, plan, pebibyteMachine()));
    }
};

QTEST_GUILESS_MAIN(TestHostileArithmetic)
#include "tst_hostile_arithmetic.moc"
