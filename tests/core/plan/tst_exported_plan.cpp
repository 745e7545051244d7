// spillway.plan/1: every field survives write -> read (file and JSON), the order is spelt out,
// and each bad field is refused naming its JSON pointer and what was expected there.
#include "core/io/base/import_error.h"
#include "core/io/native/profile_hash.h"
#include "core/plan/exported_plan.h"
#include "core/plan/plan_json.h"
#include "core/hardware/hardware_presets.h"

#include "../../support/profile_builder.h"

#include <QTemporaryDir>
#include <QTest>

#include <functional>

using namespace spillway;
using spillway::testing::ProfileBuilder;

namespace {

// Every field away from its default, every directive kind and every advice.
ExportedPlan everyField() {
    ExportedPlan e;
    e.profileName = "hand-made \"net\"";
    e.profileHash = "sha256:" + std::string(64, 'a');
    e.hardware = loadHardware("most-rtx4090");
    e.hardware.gpuCapacity = 3 * kGiB + 512;  // not a preset value: the object is written whole
    e.hardware.faultLatency = 12'345;
    Plan& p = e.plan;
    p.policy = "most+discard";
    p.order = {1, 0, 2, 3};
    p.notes = {{"why", "test"}, {"order", "roam"}};
    p.placement = "exact";
    p.arenaBytes = 3 * 512 + 1024;
    p.arena = {{7, -1, 0, 512}, {8, -1, 512, 1024}, {-1, 2, 1536, 1024}};
    p.dropDeadOnEviction = true;
    p.memoryModel = MemoryModel::ContiguousFirstFit;
    p.allowFaults = false;
    p.cannotRun = "does not fit: example";
    p.directives.push_back({0, DirectiveKind::Prefetch, 7, Tier::Gpu, 3});
    p.directives.push_back({0, DirectiveKind::PreEvict, 8, Tier::Ssd, -1, true, 2500});
    p.directives.push_back({1, DirectiveKind::PreEvict, 8, Tier::Host});
    p.directives.push_back({1, DirectiveKind::Discard, 7, Tier::Gpu, -1, true});
    p.directives.push_back({2, DirectiveKind::DiscardLazy, 7, Tier::Gpu, -1, false, 7});
    p.directives.push_back({2, DirectiveKind::Free, 8, Tier::Gpu});
    p.directives.push_back({3, DirectiveKind::Recompute, 8, Tier::Gpu});
    const MemAdvice advice[] = {MemAdvice::SetReadMostly,        MemAdvice::UnsetReadMostly,
                                MemAdvice::SetPreferredLocation, MemAdvice::UnsetPreferredLocation,
                                MemAdvice::SetAccessedBy,        MemAdvice::UnsetAccessedBy};
    for (const MemAdvice a : advice)
        p.directives.push_back({3, DirectiveKind::Advise, 7, a == MemAdvice::SetAccessedBy ? Tier::Host : Tier::Gpu, -1,
                                a == MemAdvice::UnsetAccessedBy, 0, a});
    return e;
}

nlohmann::json everyFieldJson() { return nlohmann::json::parse(exportedPlanToJson(everyField()).dump()); }

// The pointer and message of the ImportError reading `doc` throws; fails the test when none.
std::pair<std::string, std::string> errorOf(const nlohmann::json& doc) {
    try {
        exportedPlanFromJson(doc, "plan.json");
    } catch (const ImportError& e) {
        return {e.location().jsonPointer, e.message()};
    }
    return {"(no error)", ""};
}

}  // namespace

class TestExportedPlan : public QObject {
    Q_OBJECT
private slots:
    void fileRoundTripKeepsEveryField() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("p.plan.json").toStdString();
        const ExportedPlan original = everyField();
        writeExportedPlan(original, path);
        const ExportedPlan back = readExportedPlan(path);
        QVERIFY(back.plan.directives == original.plan.directives);
        QVERIFY(back.plan.arena == original.plan.arena);
        QVERIFY(back.hardware == original.hardware);
        QVERIFY(back == original);
    }

    void jsonNamesEveryDirectiveKindAndAdvice() {
        const nlohmann::json j = everyFieldJson();
        QCOMPARE(j["format"].get<std::string>(), std::string("spillway.plan/1"));
        std::set<std::string> kinds, advice;
        for (const auto& d : j["directives"]) {
            kinds.insert(d["kind"].get<std::string>());
            if (d.contains("advice")) advice.insert(d["advice"].get<std::string>());
        }
        QCOMPARE(kinds, (std::set<std::string>{"prefetch", "pre-evict", "discard", "discard-lazy", "free", "recompute",
                                                "advise"}));
        QCOMPARE(advice.size(), std::size_t(6));
        // Before/after and the delay, as a runtime reads them.
        QCOMPARE(j["directives"][1]["after_kernel"].get<bool>(), true);
        QCOMPARE(j["directives"][1]["delay_ns"].get<std::int64_t>(), std::int64_t(2500));
        QCOMPARE(j["allow_faults"].get<bool>(), false);
        QCOMPARE(j["memory_model"].get<std::string>(), std::string("contiguous-first-fit"));
        QCOMPARE(j["arena"][2]["workspace_of_kernel"].get<std::int64_t>(), std::int64_t(2));
    }

    void defaultsAreWrittenOutInTheExportButNotInTheDraft() {
        ExportedPlan e = everyField();
        e.plan.allowFaults = true;
        e.plan.memoryModel = MemoryModel::UnifiedPaging;
        const auto exported = exportedPlanToJson(e);
        QCOMPARE(exported["allow_faults"].get<bool>(), true);
        QCOMPARE(exported["memory_model"].get<std::string>(), std::string("unified-paging"));
        // The workspace's drafts stored before these fields existed read back the same.
        const auto draft = planToJson(e.plan);
        QVERIFY(!draft.contains("allow_faults"));
        QVERIFY(!draft.contains("memory_model"));
        QVERIFY(planFromJson(nlohmann::json::parse(draft.dump()), "draft") == e.plan);
    }

    void makeExportedPlanCarriesTheProfileAndSpellsOutTheOrder() {
        const Profile profile = ProfileBuilder("two")
                                    .tensor(1, "w", 1024, TensorKind::Weight, true)
                                    .kernel(10, "a", KernelPhase::Forward, 5, {1}, {})
                                    .kernel(11, "b", KernelPhase::Forward, 5, {1}, {})
                                    .build();
        const ExportedPlan e = makeExportedPlan(profile, loadHardware("g10-a100"), Plan{});
        QCOMPARE(e.profileName, std::string("two"));
        QCOMPARE(e.profileHash, profileHash(profile));
        QCOMPARE(e.plan.order, (std::vector<std::int64_t>{0, 1}));
    }

    void badFieldsAreNamedByTheirPointer_data() {
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("expected");  // part of the message
        QTest::addColumn<int>("mutation");
        const char* rows[][2] = {
            {"/format", "spillway.plan/1"},
            {"/profile/hash", "64 lower-case hex"},
            {"/hardware/gpu_capacity_bytes", ""},
            {"/directives/0/kind", "expected one of"},
            {"/directives/7/advice", "missing"},
            {"/directives/0/advice", "only an \"advise\""},
            {"/directives/1/delay_ns", ">= 0"},
            {"/directives/2/dlay", "unknown field"},
            {"/directives/3/target", "expected one of"},
            {"/arena/1/offset", "expected a 64-bit integer"},
            {"/arena_bytes", ">= 0"},
            {"/order/2", "64-bit integer"},
            {"/allow_faults", "true or false"},
            {"/memory_model", "missing"},
            {"/extra", "unknown field"},
            {"/directives/8/target", "not ssd"},
        };
        for (int i = 0; i < static_cast<int>(std::size(rows)); ++i)
            QTest::newRow(rows[i][0]) << rows[i][0] << rows[i][1] << i;
    }
    void badFieldsAreNamedByTheirPointer() {
        QFETCH(QString, pointer);
        QFETCH(QString, expected);
        QFETCH(int, mutation);
        nlohmann::json j = everyFieldJson();
        const std::function<void(nlohmann::json&)> mutations[] = {
            [](auto& d) { d["format"] = "spillway.plan/2"; },
            [](auto& d) { d["profile"]["hash"] = "sha256:XYZ"; },
            [](auto& d) { d["hardware"]["gpu_capacity_bytes"] = "lots"; },
            [](auto& d) { d["directives"][0]["kind"] = "teleport"; },
            [](auto& d) { d["directives"][7].erase("advice"); },
            [](auto& d) { d["directives"][0]["advice"] = "set-read-mostly"; },
            [](auto& d) { d["directives"][1]["delay_ns"] = -5; },
            [](auto& d) { d["directives"][2]["dlay"] = 5; },
            [](auto& d) { d["directives"][3]["target"] = "tape"; },
            [](auto& d) { d["arena"][1]["offset"] = "0x200"; },
            [](auto& d) { d["arena_bytes"] = -1; },
            [](auto& d) { d["order"][2] = "two"; },
            [](auto& d) { d["allow_faults"] = "no"; },
            [](auto& d) { d.erase("memory_model"); },
            [](auto& d) { d["extra"] = 1; },
            [](auto& d) { d["directives"][8]["target"] = "ssd"; },  // an advise with an SSD location
        };
        mutations[mutation](j);
        const auto [where, message] = errorOf(j);
        QCOMPARE(QString::fromStdString(where), pointer);
        QVERIFY2(QString::fromStdString(message).contains(expected), message.c_str());
    }

    void brokenJsonIsNamedByLine() {
        QTemporaryDir dir;
        const QString path = dir.filePath("broken.plan.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\n \"format\": \"spillway.plan/1\",\n \"order\": [1, 2,, 3]\n}\n");
        f.close();
        try {
            readExportedPlan(path.toStdString());
            QFAIL("read a broken file");
        } catch (const ImportError& e) {
            QCOMPARE(e.location().line, std::int64_t(3));
        }
    }
};

QTEST_APPLESS_MAIN(TestExportedPlan)
#include "tst_exported_plan.moc"
