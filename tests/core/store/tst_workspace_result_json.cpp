// The serializers the workspace stores runs with: SimulationResult (spillway.result/1, JSON and
// CBOR) and Plan (spillway.plan-draft/1) come back operator== equal, for a real G10 profile's
// simulation and for a result with every field set; bad documents fail naming the field.
#include "core/io/base/import_error.h"
#include "core/io/profile_loader.h"
#include "core/plan/plan_json.h"
#include "core/policy/planner.h"
#include "core/hardware/hardware_presets.h"
#include "core/sim/sim_result_json.h"
#include "core/sim/simulator.h"
#include "store_test_support.h"

#include <QTest>

using namespace spillway;
using namespace spillway::testing;

namespace {

std::string pointerOf(const nlohmann::json& doc) {
    try {
        simulationResultFromJson(doc, "doc");
    } catch (const ImportError& e) {
        return e.location().jsonPointer;
    }
    return "(no error)";
}

}  // namespace

class TestWorkspaceResultJson : public QObject {
    Q_OBJECT

private slots:
    // G10's BERT (batch 256) under base UVM on G10's A100: tens of thousands of residency
    // intervals, every series non-empty.
    void realG10ResultRoundTrips() {
        const Profile profile = loadProfile(SPILLWAY_SHARED_DATA "/g10/derived/BERT_Base_256");
        const HardwareConfig hardware = hardwarePreset("g10-a100");
        const Plan plan = makePlan("uvm", profile, hardware);
        const SimulationResult result = simulate(profile, plan, hardware);
        QVERIFY(!result.kernels.empty());
        QVERIFY(!result.residency.empty());
        QCOMPARE(result.tensorResidency.size(), profile.tensors.size());
        QVERIFY(result.totals.faultStall > 0);

        const auto json = simulationResultToJson(result);
        QVERIFY(simulationResultFromJson(json, "bert") == result);
        // through text, as a script would read it
        QVERIFY(simulationResultFromJson(nlohmann::json::parse(json.dump()), "bert") == result);
        const auto cbor = simulationResultToCbor(result);
        QVERIFY(simulationResultFromCbor(cbor.data(), cbor.size(), "bert") == result);
        // CBOR is the stored form because it is smaller than the text
        QVERIFY(cbor.size() < json.dump().size());

        const Plan g10 = makePlan("g10", profile, hardware);
        QVERIFY(!g10.directives.empty());
        QVERIFY(planFromJson(nlohmann::json::parse(planToJson(g10).dump()), "plan") == g10);
    }

    // The simulator leaves some fields 0 on BERT/uvm (recompute, discard); a synthetic result
    // sets every field to a distinct value, so a field the serializer forgot would differ.
    void everyFieldRoundTrips() {
        const auto result = syntheticResult(3, 50);
        QVERIFY(simulationResultFromJson(simulationResultToJson(result), "synthetic") == result);
        for (int i = 0; i < kLinkCount; ++i) {
            auto changed = result;
            changed.traffic[i] += 1;
            QVERIFY(simulationResultFromJson(simulationResultToJson(changed), "synthetic") == changed);
            QVERIFY(!(changed == result));
        }
        const SimulationResult empty;
        QVERIFY(simulationResultFromJson(simulationResultToJson(empty), "empty") == empty);

        Plan plan;
        plan.policy = "most+discard";
        plan.order = {0, 2, 1};
        plan.notes = {{"a", "1"}, {"b", "two"}};
        plan.dropDeadOnEviction = true;
        plan.directives = {{0, DirectiveKind::Prefetch, 7, Tier::Gpu, 2},
                           {1, DirectiveKind::PreEvict, 8, Tier::Ssd, -1},
                           {1, DirectiveKind::DiscardLazy, 9, Tier::Host, -1},
                           {2, DirectiveKind::Recompute, 10, Tier::Gpu, -1}};
        QVERIFY(planFromJson(nlohmann::json::parse(planToJson(plan).dump()), "plan") == plan);
    }

    void badDocumentsNameTheField() {
        const auto good = simulationResultToJson(syntheticResult(1, 8));
        auto doc = good;
        doc["kernels"]["end_ns"].erase(0);
        QCOMPARE(pointerOf(doc), std::string("/kernels/end_ns"));
        doc = good;
        doc["totals"].erase("overlap_ns");
        QCOMPARE(pointerOf(doc), std::string("/totals/overlap_ns"));
        doc = good;
        doc["residency"]["gpu_bytes"][2] = "lots";
        QCOMPARE(pointerOf(doc), std::string("/residency/gpu_bytes/2"));
        doc = good;
        doc["tensor_residency"]["where"][1] = 9;
        QCOMPARE(pointerOf(doc), std::string("/tensor_residency/where/1"));
        doc = good;
        doc["tensor_residency"]["interval_counts"][0] = 1000;
        QCOMPARE(pointerOf(doc), std::string("/tensor_residency/interval_counts/0"));
        doc = good;
        doc["format"] = "spillway.result/9";
        QCOMPARE(pointerOf(doc), std::string("/format"));
        const std::uint8_t junk[] = {0xff, 0x00, 0x12};
        QVERIFY_THROWS_EXCEPTION(ImportError, simulationResultFromCbor(junk, sizeof junk, "junk"));

        auto plan = planToJson(Plan{});
        plan["directives"] = nlohmann::json::array({{{"at", 0}, {"kind", "teleport"}, {"tensor", 1}, {"target", "gpu"}}});
        try {
            planFromJson(nlohmann::json::parse(plan.dump()), "plan");
            QFAIL("an unknown directive kind was accepted");
        } catch (const ImportError& e) {
            QCOMPARE(e.location().jsonPointer, std::string("/directives/0/kind"));
            QVERIFY(e.message().find("prefetch") != std::string::npos);
        }
    }
};

QTEST_APPLESS_MAIN(TestWorkspaceResultJson)
#include "tst_workspace_result_json.moc"
