// Setting up CUPTI's unified-memory counters (runtime/capture/unified_memory_counters.h) against
// a CUPTI stand-in that answers as real drivers did: CUDA 13 on an H200 accepting the
// configuration but answering CUPTI_ERROR_NOT_READY to the enable when asked inside cuInit
// (../shared/data/h200/README.md, um-step.profile.json), a platform without one counter kind, a
// device without any. No libcupti, no GPU.
#include "runtime/capture/unified_memory_counters.h"

#include <QtTest>

#include <vector>

using namespace spillway::capture;

namespace {

// What the stand-in answers and what it was asked. Plain functions (CUPTI's signatures), so the
// state is file-wide and reset by each test.
struct FakeCupti {
    CUptiResult together = CUPTI_SUCCESS;                           // configure() of the whole list
    std::vector<CUpti_ActivityUnifiedMemoryCounterKind> refusedKinds;  // configure() of one of these
    CUptiResult refusal = CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED;
    CUptiResult enableAnswer = CUPTI_SUCCESS;
    std::vector<std::vector<CUpti_ActivityUnifiedMemoryCounterConfig>> configureCalls;
    std::vector<CUpti_ActivityKind> enableCalls;
};
FakeCupti fake;

CUptiResult fakeConfigure(CUpti_ActivityUnifiedMemoryCounterConfig* config, uint32_t count) {
    fake.configureCalls.emplace_back(config, config + count);
    if (count > 1) return fake.together;
    for (const auto kind : fake.refusedKinds)
        if (config->kind == kind) return fake.refusal;
    return CUPTI_SUCCESS;
}

CUptiResult fakeEnable(CUpti_ActivityKind kind) {
    fake.enableCalls.push_back(kind);
    return fake.enableAnswer;
}

CUptiResult fakeResultString(CUptiResult result, const char** text) {
    switch (result) {
    case CUPTI_SUCCESS: *text = "CUPTI_SUCCESS"; break;
    case CUPTI_ERROR_NOT_READY: *text = "CUPTI_ERROR_NOT_READY"; break;
    case CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED: *text = "CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED"; break;
    case CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED_ON_DEVICE:
        *text = "CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED_ON_DEVICE";
        break;
    default: return CUPTI_ERROR_INVALID_PARAMETER;
    }
    return CUPTI_SUCCESS;
}

constexpr UnifiedMemoryCupti kFake{fakeConfigure, fakeEnable, fakeResultString};

bool contains(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

}  // namespace

class TestUnifiedMemoryCounters : public QObject {
    Q_OBJECT
private slots:
    void init() { fake = FakeCupti{}; }

    // Every kind configured in one call, enabled, then the activity kind: in that order.
    void configuresEveryKindThenEnables() {
        const auto out = enableUnifiedMemoryCounters(kFake, kAtDriverInitialised);
        QVERIFY(out.enabled);
        QVERIFY(out.warning.empty());
        QCOMPARE(fake.configureCalls.size(), size_t(1));
        const auto& config = fake.configureCalls[0];
        QCOMPARE(config.size(), std::size(kUnifiedMemoryCounterKinds));
        for (std::size_t i = 0; i < config.size(); ++i) {
            QCOMPARE(config[i].kind, kUnifiedMemoryCounterKinds[i]);
            QCOMPARE(config[i].enable, 1u);
            QCOMPARE(config[i].scope, CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_SCOPE_PROCESS_ALL_DEVICES);
        }
        QCOMPARE(fake.enableCalls, (std::vector<CUpti_ActivityKind>{CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER}));
        QVERIFY2(contains(out.note, "enabled when the CUDA driver had finished initialising"), out.note.c_str());
        QVERIFY(contains(out.note, "8 of 8 counter kinds (bytes host->device, bytes device->host, "
                                   "bytes device->device, gpu page faults, cpu page faults, thrashing, "
                                   "throttling, remote map)"));
    }

    // What CUDA 13 answered when asked inside cuInit: the reason reaches note and warning.
    void notReadyIsReportedByName() {
        fake.enableAnswer = CUPTI_ERROR_NOT_READY;
        const auto out = enableUnifiedMemoryCounters(kFake, "from InitializeInjection inside cuInit");
        QVERIFY(!out.enabled);
        QVERIFY2(contains(out.note, "unavailable: cuptiActivityEnable(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER) "
                                    "failed: CUPTI_ERROR_NOT_READY, called from InitializeInjection inside cuInit"),
                 out.note.c_str());
        QVERIFY(contains(out.note, "no page faults or migrations"));
        QVERIFY(contains(out.warning, "CUPTI_ERROR_NOT_READY"));
        QVERIFY(!contains(out.warning, "\n"));  // one line on stderr
    }

    // A platform without thrashing counters keeps the other seven.
    void oneRefusedKindCostsOnlyItself() {
        fake.together = CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED;
        fake.refusedKinds = {CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THRASHING};
        const auto out = enableUnifiedMemoryCounters(kFake, kAtDriverInitialised);
        QVERIFY(out.enabled);
        QCOMPARE(fake.configureCalls.size(), size_t(1 + std::size(kUnifiedMemoryCounterKinds)));
        QCOMPARE(fake.enableCalls.size(), size_t(1));
        QVERIFY2(contains(out.note, "7 of 8 counter kinds"), out.note.c_str());
        QVERIFY(contains(out.note, "refused: thrashing (CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED)"));
        QVERIFY(contains(out.warning, "1 of 8 kinds refused: thrashing (CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED)"));
    }

    // A device without unified-memory profiling: nothing enabled, the capture goes on.
    void everyKindRefusedEnablesNothing() {
        fake.together = CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED_ON_DEVICE;
        fake.refusal = CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED_ON_DEVICE;
        fake.refusedKinds.assign(std::begin(kUnifiedMemoryCounterKinds), std::end(kUnifiedMemoryCounterKinds));
        const auto out = enableUnifiedMemoryCounters(kFake, kAtDriverInitialised);
        QVERIFY(!out.enabled);
        QVERIFY(fake.enableCalls.empty());
        QVERIFY2(contains(out.note, "refused every counter kind (CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED_ON_DEVICE)"),
                 out.note.c_str());
        QVERIFY(contains(out.warning, "configuring them failed: CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED_ON_DEVICE"));
    }

    void neverTriedSaysWhy() {
        const auto out = unifiedMemoryNeverTried("no callback came");
        QVERIFY(!out.enabled);
        QCOMPARE(out.note, std::string("unavailable: never enabled (no callback came); the profile has no page "
                                       "faults or migrations"));
        QVERIFY(contains(out.warning, "no callback came"));
    }
};

QTEST_GUILESS_MAIN(TestUnifiedMemoryCounters)
#include "tst_unified_memory_counters.moc"
