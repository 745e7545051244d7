// The Chrome trace export: written, read back with nlohmann, and checked against the result it
// came from. A hand-made result fixes every number (ts/dur in microseconds, tracks, counters,
// NVLink's two directions split into lanes); a real simulation of the eight-kernel training step
// on a GPU too small for it checks the invariants Perfetto relies on.
#include "core/policy/planner.h"
#include "core/sim/chrome_trace.h"
#include "core/sim/chrome_trace_counters.h"
#include "core/io/base/json_dump.h"
#include "core/sim/simulator.h"
#include "core/io/base/file_text.h"
#include "sim_test_support.h"
#include "tests/core/policy/training_step_8.h"

#include <QTemporaryDir>
#include <QTest>

#include <map>

using namespace spillway;
using json = nlohmann::json;

namespace {

std::vector<json> eventsWith(const json& trace, const std::string& ph, const std::string& cat = {}) {
    std::vector<json> out;
    for (const json& e : trace.at("traceEvents"))
        if (e.at("ph") == ph && (cat.empty() || e.value("cat", "") == cat)) out.push_back(e);
    return out;
}

std::map<int, std::string> threadNames(const json& trace) {
    std::map<int, std::string> names;
    for (const json& e : eventsWith(trace, "M"))
        if (e.at("name") == "thread_name") names[e.at("tid").get<int>()] = e.at("args").at("name").get<std::string>();
    return names;
}

// ts/dur are microseconds; the writer keeps nanoseconds as the fraction.
Nanoseconds nanos(const json& us) { return static_cast<Nanoseconds>(std::llround(us.get<double>() * 1000.0)); }

// Perfetto's rule for complete events: on one track two slices either nest or are disjoint.
void checkNoPartialOverlap(const json& trace) {
    std::map<int, std::vector<std::pair<Nanoseconds, Nanoseconds>>> byTrack;
    for (const json& e : eventsWith(trace, "X"))
        byTrack[e.at("tid").get<int>()].emplace_back(nanos(e.at("ts")), nanos(e.at("ts")) + nanos(e.at("dur")));
    for (auto& [tid, slices] : byTrack) {
        std::sort(slices.begin(), slices.end());
        for (size_t i = 1; i < slices.size(); ++i) {
            const auto [s0, e0] = slices[i - 1];
            const auto [s1, e1] = slices[i];
            const bool disjoint = s1 >= e0;
            const bool nested = s1 >= s0 && e1 <= e0;
            QVERIFY2(disjoint || nested, qPrintable(QString("track %1: [%2,%3) and [%4,%5) partially overlap")
                                                        .arg(tid).arg(s0).arg(e0).arg(s1).arg(e1)));
        }
    }
}

std::vector<json> namedCounters(const json& trace, const std::string& name) {
    std::vector<json> out;
    for (const json& e : eventsWith(trace, "C"))
        if (e.at("name") == name) out.push_back(e);
    return out;
}

// Flow events come in pairs: an "s" and an "f" (bound to the enclosing slice) with one id.
std::map<std::int64_t, std::pair<json, json>> flowPairs(const json& trace) {
    std::map<std::int64_t, std::pair<json, json>> pairs;
    for (const json& e : eventsWith(trace, "s")) pairs[e.at("id").get<std::int64_t>()].first = e;
    for (const json& e : eventsWith(trace, "f")) pairs[e.at("id").get<std::int64_t>()].second = e;
    return pairs;
}

// The X slice on `tid` that contains `ts` (microseconds), or null.
json sliceAt(const json& trace, int tid, double ts) {
    for (const json& e : eventsWith(trace, "X"))
        if (e.at("tid").get<int>() == tid && e.at("ts").get<double>() <= ts &&
            ts < e.at("ts").get<double>() + e.at("dur").get<double>())
            return e;
    return nullptr;
}

}  // namespace

class TestChromeTrace : public QObject {
    Q_OBJECT
private slots:
    // Two kernels at 1000..3500 ns and 3500..6000 ns of simulator time, three transfers
    // (one host->GPU, two on NVLink overlapping: the scatter and the reduce port), two samples.
    void handMadeResultMapsExactly() {
        Profile profile = testing::trainingStep8();
        Plan plan;
        plan.order = {1, 0};  // run order differs from profile order: names go through it
        SimulationResult r;
        r.policy = "uvm";
        r.hardware = "unit";
        r.kernels.resize(2);
        r.kernels[0] = {1000, 3500, 2000, 500, 0, 0, 0, 100, 4096};
        r.kernels[1] = {3500, 6000, 2500, 0, 0, 0, 0, 0, 0};
        r.transfers = {{LinkId::HostToGpu, 1200, 1700, 500},
                       {LinkId::NvLink, 2000, 4000, 64},
                       {LinkId::NvLink, 3000, 3600, 32}};
        r.residency = {{1000, 100, 200, 0, 0}, {1700, 600, 0, 300, 50}};
        r.gpus.resize(2);
        const json trace = chromeTraceJson(profile, plan, r);
        QCOMPARE(trace.at("displayTimeUnit").get<std::string>(), std::string("ns"));
        QCOMPARE(trace.at("otherData").at("origin_ns").get<Nanoseconds>(), Nanoseconds(1000));

        const auto kernels = eventsWith(trace, "X", "kernel");
        QCOMPARE(kernels.size(), size_t(2));
        QCOMPARE(kernels[0].at("name").get<std::string>(), std::string("f2"));  // plan.order[0] = position 1
        QCOMPARE(kernels[0].at("ts").get<double>(), 0.0);
        QCOMPARE(kernels[0].at("dur").get<double>(), 2.5);  // 2500 ns
        QCOMPARE(kernels[0].at("args").at("fault_stall_ns").get<Nanoseconds>(), Nanoseconds(500));
        QCOMPARE(kernels[1].at("name").get<std::string>(), std::string("f1"));
        QCOMPARE(kernels[1].at("ts").get<double>(), 2.5);
        QCOMPARE(kernels[1].at("tid").get<int>(), kChromeTraceComputeTid);

        const auto names = threadNames(trace);
        QCOMPARE(names.at(kChromeTraceComputeTid), std::string("compute stream"));
        const auto transfers = eventsWith(trace, "X", "transfer");
        QCOMPARE(transfers.size(), size_t(3));
        QCOMPARE(names.at(transfers[0].at("tid").get<int>()), std::string("host->GPU (PCIe)"));
        QCOMPARE(transfers[0].at("ts").get<double>(), 0.2);
        QCOMPARE(transfers[0].at("dur").get<double>(), 0.5);
        QCOMPARE(transfers[0].at("args").at("bytes").get<Bytes>(), Bytes(500));
        QCOMPARE(transfers[0].at("args").at("during_kernel").get<int>(), 0);
        // The second NVLink transfer starts before the first ends: it gets its own lane.
        QCOMPARE(names.at(transfers[1].at("tid").get<int>()), std::string("NVLink"));
        QCOMPARE(names.at(transfers[2].at("tid").get<int>()), std::string("NVLink #2"));
        QCOMPARE(transfers[2].at("args").at("during_kernel").get<int>(), 0);  // 3000 ns: still kernel 0
        checkNoPartialOverlap(trace);

        const auto counters = namedCounters(trace, "resident bytes");
        QCOMPARE(counters.size(), size_t(2));
        QCOMPARE(counters[1].at("ts").get<double>(), 0.7);
        QCOMPARE(counters[1].at("args").at("GPU").get<Bytes>(), Bytes(600));
        QCOMPARE(counters[1].at("args").at("SSD").get<Bytes>(), Bytes(300));
        QCOMPARE(counters[1].at("args").at("in flight").get<Bytes>(), Bytes(50));
    }

    // The real simulator, UVM on 30 MiB of GPU for a 36 MiB peak: faults and evictions.
    void simulatedRunRoundTrips() {
        const Profile profile = testing::trainingStep8();
        HardwareConfig hw = testing::unitMachine(30 * kMiB);
        hw.iterations = 2;
        const Plan plan = makePlan("uvm", profile, hw);
        const SimulationResult r = simulate(profile, plan, hw);
        QVERIFY(!r.transfers.empty());
        QVERIFY(!r.residency.empty());

        QTemporaryDir dir;
        const std::string path = dir.filePath("run.trace.json").toStdString();
        writeChromeTrace(profile, plan, r, path);
        const json trace = json::parse(readFileText(path));
        const Nanoseconds origin = trace.at("otherData").at("origin_ns").get<Nanoseconds>();
        QVERIFY(origin <= r.kernels.front().start);

        // Every kernel once, at its own start and duration.
        const auto kernels = eventsWith(trace, "X", "kernel");
        QCOMPARE(kernels.size(), r.kernels.size());
        for (size_t i = 0; i < kernels.size(); ++i) {
            const auto& e = kernels[i];
            const auto index = e.at("args").at("run_index").get<size_t>();
            QCOMPARE(index, i);
            QCOMPARE(nanos(e.at("ts")) + origin, r.kernels[i].start);
            QCOMPARE(nanos(e.at("dur")), r.kernels[i].end - r.kernels[i].start);
            QCOMPARE(e.at("name").get<std::string>(), profile.kernels[static_cast<size_t>(plan.order.empty() ? i : plan.order[i])].name);
        }
        // Every transfer on its link's track, with its bytes; per link the bytes add up to the traffic.
        const auto names = threadNames(trace);
        const auto transfers = eventsWith(trace, "X", "transfer");
        QCOMPARE(transfers.size(), r.transfers.size());
        std::map<std::string, Bytes> bytesPerTrack;
        for (size_t i = 0; i < transfers.size(); ++i) {
            const auto& e = transfers[i];
            // Its link's track, or one of that link's overflow lanes ("host->GPU (PCIe) #2").
            const std::string track = names.at(e.at("tid").get<int>());
            const std::string base = chromeTraceTrackName(r.transfers[i].link);
            QVERIFY2(track == base || track.rfind(base + " #", 0) == 0, track.c_str());
            QCOMPARE(nanos(e.at("ts")) + origin, r.transfers[i].start);
            QCOMPARE(nanos(e.at("dur")), r.transfers[i].end - r.transfers[i].start);
            bytesPerTrack[base] += e.at("args").at("bytes").get<Bytes>();
        }
        for (int l = 0; l < kLinkCount; ++l)
            if (r.traffic[l] > 0) QCOMPARE(bytesPerTrack[chromeTraceTrackName(static_cast<LinkId>(l))], r.traffic[l]);
        checkNoPartialOverlap(trace);

        // The counters are the residency series, sample by sample.
        const auto counters = namedCounters(trace, "resident bytes");
        QCOMPARE(counters.size(), r.residency.size());
        for (size_t i = 0; i < counters.size(); ++i) {
            QCOMPARE(nanos(counters[i].at("ts")) + origin, r.residency[i].time);
            QCOMPARE(counters[i].at("args").at("GPU").get<Bytes>(), r.residency[i].gpu);
            QCOMPARE(counters[i].at("args").at("host").get<Bytes>(), r.residency[i].host);
            QCOMPARE(counters[i].at("args").at("SSD").get<Bytes>(), r.residency[i].ssd);
        }
        // Every event names a process the metadata names, and times are never negative.
        for (const json& e : trace.at("traceEvents")) {
            QCOMPARE(e.at("pid").get<int>(), kChromeTracePid);
            if (e.at("ph") != "M") QVERIFY(e.at("ts").get<double>() >= 0.0);
        }
    }

    // Three transfers a hand-made residency explains: X faulted in by f1 (which stalled on it),
    // W2 prefetched by a directive (f2 waited for it), A1 evicted without a directive.
    void transfersNamedByTensorAndCauseWithStallFlows() {
        const Profile profile = testing::trainingStep8();
        Plan plan;
        plan.order = {0, 1};
        plan.directives = {{0, DirectiveKind::Prefetch, 2, Tier::Gpu}};  // W2, issued as f1 starts
        SimulationResult r;
        r.policy = "hand";
        r.hardware = "unit";
        r.kernels = {{1000, 3500, 2000, 500, 0, 0, 0, 0, 2 * kMiB}, {3500, 6000, 2200, 0, 0, 300, 0, 0, 0}};
        r.transfers = {{LinkId::HostToGpu, 1000, 1400, 2 * kMiB},
                       {LinkId::HostToGpu, 2000, 3700, 4 * kMiB},
                       {LinkId::GpuToHost, 4000, 4500, 8 * kMiB}};
        r.tensorResidency.resize(profile.tensors.size());
        auto at = [&](TensorId id) -> std::vector<ResidencyInterval>& {
            for (size_t i = 0; i < profile.tensors.size(); ++i)
                if (profile.tensors[i].id == id) return r.tensorResidency[i];
            throw std::logic_error("no tensor");
        };
        at(3) = {{0, 1000, Residence::Host}, {1000, 1400, Residence::InFlight}, {1400, 6000, Residence::Gpu}};
        at(2) = {{0, 2000, Residence::Host}, {2000, 3700, Residence::InFlight}, {3700, 6000, Residence::Gpu}};
        at(4) = {{0, 1400, Residence::Absent}, {1400, 4000, Residence::Gpu}, {4000, 4500, Residence::InFlight},
                 {4500, 6000, Residence::Host}};
        const json trace = chromeTraceJson(profile, plan, r);
        QCOMPARE(trace.at("otherData").at("origin_ns").get<Nanoseconds>(), Nanoseconds(0));

        const auto transfers = eventsWith(trace, "X", "transfer");
        QCOMPARE(transfers.size(), size_t(3));
        QCOMPARE(transfers[0].at("name").get<std::string>(), std::string("fault X"));
        QCOMPARE(transfers[1].at("name").get<std::string>(), std::string("prefetch W2"));
        QCOMPARE(transfers[2].at("name").get<std::string>(), std::string("eviction A1"));
        QCOMPARE(transfers[1].at("args").at("cause").get<std::string>(), std::string("prefetch"));
        QCOMPARE(transfers[1].at("args").at("tensors").at(0).at("id").get<TensorId>(), TensorId(2));

        // f1 stalled on X's fault, f2 on W2's prefetch: one flow each, transfer -> kernel.
        const auto flows = flowPairs(trace);
        QCOMPARE(flows.size(), size_t(2));
        const auto kernels = eventsWith(trace, "X", "kernel");
        for (const auto& [id, pair] : flows) {
            const auto& [s, f] = pair;
            QVERIFY2(!s.is_null() && !f.is_null(), "an unpaired flow event");
            QCOMPARE(f.at("bp").get<std::string>(), std::string("e"));
            const json from = sliceAt(trace, s.at("tid").get<int>(), s.at("ts").get<double>());
            const json to = sliceAt(trace, f.at("tid").get<int>(), f.at("ts").get<double>());
            QCOMPARE(from.value("cat", ""), std::string("transfer"));
            QCOMPARE(to.value("cat", ""), std::string("kernel"));
            const auto run = to.at("args").at("run_index").get<size_t>();
            QCOMPARE(from.at("name").get<std::string>(), std::string(run == 0 ? "fault X" : "prefetch W2"));
        }

        // One counter track per tier and kind; X lands on the GPU at 1400 ns.
        for (const char* tier : {"GPU", "host", "SSD"})
            for (TensorKind kind : {TensorKind::Weight, TensorKind::Activation, TensorKind::Gradient, TensorKind::Input,
                                    TensorKind::Temporary})
                QVERIFY2(!namedCounters(trace, chromeTraceKindCounterName(
                                                   std::string(tier) == "GPU"    ? Residence::Gpu
                                                   : std::string(tier) == "host" ? Residence::Host
                                                                                 : Residence::Ssd,
                                                   kind))
                              .empty(),
                         tier);
        const auto gpuInput = namedCounters(trace, "GPU input bytes");
        QCOMPARE(gpuInput.back().at("ts").get<double>(), 1.4);
        QCOMPARE(gpuInput.back().at("args").at("bytes").get<Bytes>(), Bytes(2 * kMiB));
        const auto hostWeight = namedCounters(trace, "host weight bytes");
        QCOMPARE(hostWeight.back().at("args").at("bytes").get<Bytes>(), Bytes(0));  // W2 left at 2000 ns
        QCOMPARE(namedCounters(trace, "host activation bytes").back().at("args").at("bytes").get<Bytes>(), Bytes(8 * kMiB));
    }

    // On a real UVM run every transfer of a tensor is named by its cause and tensor, every flow
    // pairs, and every stalled kernel's flow comes from a transfer towards the GPU.
    void simulatedRunHasCausesFlowsAndKindCounters() {
        const Profile profile = testing::trainingStep8();
        HardwareConfig hw = testing::unitMachine(30 * kMiB);
        hw.iterations = 2;
        const Plan plan = makePlan("uvm", profile, hw);
        const SimulationResult r = simulate(profile, plan, hw);
        const json trace = json::parse(dumpJson(chromeTraceJson(profile, plan, r)));
        size_t named = 0;
        for (const json& e : eventsWith(trace, "X", "transfer")) {
            const std::string cause = e.at("args").at("cause").get<std::string>();
            QVERIFY2(cause == "fault" || cause == "eviction" || cause == "unknown", cause.c_str());
            if (cause == "unknown") continue;
            ++named;
            const std::string tensor = e.at("args").at("tensors").at(0).at("name").get<std::string>();
            QCOMPARE(e.at("name").get<std::string>().rfind(cause + " " + tensor, 0), size_t(0));
        }
        QVERIFY(named > 0);
        const auto flows = flowPairs(trace);
        size_t stalled = 0;
        for (const KernelTiming& k : r.kernels) stalled += k.faultStall + k.latePrefetchStall > 0 ? 1 : 0;
        QVERIFY(!flows.empty());
        QVERIFY(flows.size() <= stalled);
        const auto names = threadNames(trace);
        for (const auto& [id, pair] : flows) {
            QVERIFY(!pair.first.is_null() && !pair.second.is_null());
            QCOMPARE(sliceAt(trace, pair.second.at("tid").get<int>(), pair.second.at("ts").get<double>()).value("cat", ""),
                     std::string("kernel"));
            const std::string track = names.at(pair.first.at("tid").get<int>());
            QVERIFY2(track.find("->GPU") != std::string::npos, track.c_str());
        }
        for (const Tensor& t : profile.tensors)
            QVERIFY(!namedCounters(trace, chromeTraceKindCounterName(Residence::Gpu, t.kind)).empty());
    }

    void unwritablePathNamesTheFile() {
        const Profile profile = testing::trainingStep8();
        try {
            writeChromeTrace(profile, Plan{}, SimulationResult{}, "/nonexistent-dir/x.json");
            QFAIL("expected an error");
        } catch (const std::runtime_error& e) {
            QVERIFY2(QString(e.what()).contains("/nonexistent-dir/x.json"), e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestChromeTrace)
#include "tst_chrome_trace.moc"
