// Our g10 plan against the plan G10's own planner wrote for the same workloads
// (derived/<workload>/prefetch_guide.config). G10's file also lists every tensor's allocation
// ("To: In_gpu" at or before its birth) and free ("Not_present"), which Spillway's simulator does
// by itself; the migrations are the pre-evictions ("In_cpu" / "In_ssd") and the "In_gpu" entries
// of pre-evicted tensors that are not their allocation.
//
// Metric: a pre-eviction matches when tensor, kernel and target tier are all equal; a prefetch
// matches when tensor and kernel are equal. We report overlap = matches / max(ours, theirs), which
// is low when either side has extra or missing directives.
#include "core/io/base/import_error.h"
#include "core/io/profile_loader.h"
#include "core/plan/plan.h"
#include "core/policy/planners.h"
#include "planner_test_support.h"

#include <QtTest>

#include <fstream>
#include <map>
#include <regex>
#include <cstdlib>
#include <set>
#include <tuple>

using namespace spillway;

namespace {

// The configuration of G10's published runs (data README): 40 GiB GPU, PCIe 15.754 GB/s, SSD
// 3.2 GB/s (G10 means 2^30 bytes by GB), 45 us fault handling, 20 us SSD latency, 128 GB of host
// memory, 0.000000814 us per byte allocation, safety margin 0.5.
HardwareConfig g10Machine() {
    HardwareConfig hw;
    hw.id = "g10-a100 (test copy)";
    hw.gpuCapacity = 40 * kGiB;
    hw.hostCapacity = 128 * kGiB;
    hw.ssdCapacity = 2048 * kGiB;
    const std::int64_t pcie = static_cast<std::int64_t>(15.754 * kGiB);
    const std::int64_t ssd = static_cast<std::int64_t>(3.2 * kGiB);
    hw.hostToGpu = {pcie, 0};
    hw.gpuToHost = {pcie, 0};
    hw.ssdToGpu = {ssd, 20'000};
    hw.gpuToSsd = {ssd, 20'000};
    hw.faultLatency = 45'000;
    hw.allocFemtosecondsPerByte = 814;
    hw.plannerSafetyPermille = 500;
    return hw;
}

struct G10Migrations {
    std::set<std::tuple<std::int64_t, TensorId, Tier>> preEvictions;  // kernel, tensor, tier
    std::set<std::pair<std::int64_t, TensorId>> prefetches;           // kernel, tensor
};

G10Migrations readPrefetchGuide(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path);
    const std::regex line(R"(Issued Time: (\d+) Tensor: (\d+) G:(\w) From: \w+, To: (\w+))");
    std::map<TensorId, std::vector<std::int64_t>> toGpu;
    std::set<TensorId> globals;
    G10Migrations out;
    std::string text;
    while (std::getline(in, text)) {
        std::smatch m;
        if (!std::regex_search(text, m, line)) continue;
        const std::int64_t kernel = std::stoll(m[1]);
        const TensorId tensor = std::stoll(m[2]);
        if (m[3] == "o") globals.insert(tensor);
        const auto to = m[4].str();
        if (to == "In_cpu") out.preEvictions.insert({kernel, tensor, Tier::Host});
        if (to == "In_ssd") out.preEvictions.insert({kernel, tensor, Tier::Ssd});
        if (to == "In_gpu") toGpu[tensor].push_back(kernel);
    }
    std::set<TensorId> evicted;
    for (const auto& e : out.preEvictions) evicted.insert(std::get<1>(e));
    for (auto& [tensor, kernels] : toGpu) {
        if (!evicted.count(tensor)) continue;
        std::sort(kernels.begin(), kernels.end());
        // A local tensor's first "In_gpu" is its allocation.
        for (size_t i = globals.count(tensor) ? 0 : 1; i < kernels.size(); ++i)
            out.prefetches.insert({kernels[i], tensor});
    }
    return out;
}

G10Migrations migrationsOf(const Profile& profile, const Plan& plan) {
    G10Migrations out;
    for (const auto& d : test::migrations(profile, plan)) {
        if (d.kind == DirectiveKind::PreEvict) out.preEvictions.insert({d.kernelPos, d.tensor, d.target});
        if (d.kind == DirectiveKind::Prefetch) out.prefetches.insert({d.kernelPos, d.tensor});
    }
    return out;
}

// Prefetches of the same tensor at most `window` kernels apart: G10 moves each prefetch as early as
// its own memory estimate allows, so small differences in that estimate shift it by a few kernels.
size_t nearPrefetches(const G10Migrations& ours, const G10Migrations& theirs, std::int64_t window) {
    size_t n = 0;
    for (const auto& [kernel, tensor] : ours.prefetches)
        for (const auto& [k2, t2] : theirs.prefetches)
            if (t2 == tensor && std::abs(k2 - kernel) <= window) { ++n; break; }
    return n;
}

template <typename Set>
size_t common(const Set& a, const Set& b) {
    size_t n = 0;
    for (const auto& x : a) n += b.count(x);
    return n;
}

double overlap(size_t matches, size_t ours, size_t theirs) {
    const auto denominator = std::max(ours, theirs);
    return denominator == 0 ? 1.0 : static_cast<double>(matches) / static_cast<double>(denominator);
}

}  // namespace

class TestG10PlannerVsArtifact : public QObject {
    Q_OBJECT
private slots:
    void matchesG10sOwnPlan_data() {
        QTest::addColumn<QString>("workload");
        QTest::addColumn<double>("minPreEvictOverlap");
        QTest::addColumn<double>("minPrefetchOverlap");
        QTest::newRow("BERT_Base_256") << "BERT_Base_256" << 0.9 << 0.55;
        QTest::newRow("VIT_1280") << "VIT_1280" << 0.65 << 0.3;
    }
    void matchesG10sOwnPlan() {
        QFETCH(QString, workload);
        QFETCH(double, minPreEvictOverlap);
        QFETCH(double, minPrefetchOverlap);
        const std::string folder = SPILLWAY_SHARED_DATA "/g10/derived/" + workload.toStdString();
        const Profile profile = loadProfile(folder);
        const auto theirs = readPrefetchGuide(folder + "/prefetch_guide.config");
        const auto ours = migrationsOf(profile, planG10(profile, g10Machine()));

        const auto evictMatches = common(ours.preEvictions, theirs.preEvictions);
        const auto fetchMatches = nearPrefetches(ours, theirs, 16);
        const double evictOverlap = overlap(evictMatches, ours.preEvictions.size(), theirs.preEvictions.size());
        const double fetchOverlap = overlap(fetchMatches, ours.prefetches.size(), theirs.prefetches.size());
        auto count = [](const auto& set, Tier tier) {
            return std::count_if(set.begin(), set.end(), [&](const auto& e) { return std::get<2>(e) == tier; });
        };
        qInfo("%s: pre-evictions ours %zu (host %ld, ssd %ld), G10 %zu (host %ld, ssd %ld), matching %zu "
              "(overlap %.3f); prefetches ours %zu, G10 %zu, same tensor within 16 kernels %zu (overlap %.3f), exact %zu",
              qPrintable(workload), ours.preEvictions.size(), long(count(ours.preEvictions, Tier::Host)),
              long(count(ours.preEvictions, Tier::Ssd)), theirs.preEvictions.size(),
              long(count(theirs.preEvictions, Tier::Host)), long(count(theirs.preEvictions, Tier::Ssd)),
              evictMatches, evictOverlap, ours.prefetches.size(), theirs.prefetches.size(), fetchMatches,
              fetchOverlap, common(ours.prefetches, theirs.prefetches));
        QVERIFY(!theirs.preEvictions.empty());
        if (workload == "VIT_1280")
            QEXPECT_FAIL("", "G10's ViT plan keeps evicting after our memory estimate has nothing left above the "
                         "GPU (its estimate must stay higher there); we stop as G10's sort does when nothing "
                         "relieves a kernel (docs/policies.md, docs/validation.md change 13)", Continue);
        QVERIFY2(evictOverlap >= minPreEvictOverlap, qPrintable(QString::number(evictOverlap)));
        QVERIFY2(fetchOverlap >= minPrefetchOverlap, qPrintable(QString::number(fetchOverlap)));
    }
};

QTEST_GUILESS_MAIN(TestG10PlannerVsArtifact)
#include "tst_g10_planner_vs_artifact.moc"
