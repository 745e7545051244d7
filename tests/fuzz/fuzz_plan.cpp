// spillway.plan/1 files (core/plan/exported_plan, core/deploy/plan_verifier): parsed from
// memory, round-tripped through both plan formats (exported and draft), then verified against
// samples/lessons/small-gpt.profile.json, the profile the seeds (shared/data/h200/replays) were
// made for. The plan's profile hash is set to that profile's first, so the verifier goes past
// its identity check into the order, directives, arena and the simulated replay.
#include "core/deploy/plan_verifier.h"
#include "core/io/base/json_file.h"
#include "core/io/native/native_json.h"
#include "core/io/native/profile_hash.h"
#include "core/plan/exported_plan.h"
#include "core/plan/plan_json.h"
#include "tests/fuzz/harness_support.h"

namespace {

struct Target {
    spillway::Profile profile;
    std::string hash;
};

const Target& target() {
    static const Target t = [] {
        Target made;
        made.profile = spillway::readNativeProfile(SPILLWAY_SOURCE_DIR "/samples/lessons/small-gpt.profile.json");
        made.hash = spillway::profileHash(made.profile);
        return made;
    }();
    return t;
}

void checkRoundTrips(const spillway::ExportedPlan& plan) {
    try {
        const auto exported = spillway::exportedPlanFromJson(
            nlohmann::json::parse(spillway::exportedPlanToJson(plan).dump()), "round-trip.plan.json");
        if (!(exported == plan)) spillway::fuzz::finding("plan round trip", "the exported plan read back differs");
        const auto draft = spillway::planFromJson(
            nlohmann::json::parse(spillway::planToJson(plan.plan).dump()), "round-trip.plan-draft.json");
        if (!(draft == plan.plan)) spillway::fuzz::finding("plan round trip", "the draft plan read back differs");
    } catch (const std::exception& e) {
        spillway::fuzz::finding("plan round trip threw", e.what());
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const Target& t = target();
    return spillway::fuzz::runHarness([&] {
        const std::string label = "fuzz.plan.json";
        const auto doc = spillway::parseJsonText(spillway::fuzz::asText(data, size), label);
        auto plan = spillway::exportedPlanFromJson(doc, label);
        checkRoundTrips(plan);
        plan.profileHash = t.hash;
        (void)spillway::verifyPlan(t.profile, plan);
    });
}
