#include "core/plan/plan_json.h"

#include "core/io/base/json_object_reader.h"
#include "core/trace/number_limits.h"

#include <array>

namespace spillway {

namespace {

static_assert(sizeof(Directive) == 8 * 8, "Directive changed: update plan_json.cpp");

constexpr std::array<DirectiveKind, 7> kKinds = {DirectiveKind::Prefetch, DirectiveKind::PreEvict,
                                                 DirectiveKind::Discard,  DirectiveKind::DiscardLazy,
                                                 DirectiveKind::Free,     DirectiveKind::Recompute,
                                                 DirectiveKind::Advise};
constexpr std::array<MemAdvice, 6> kAdvice = {MemAdvice::SetReadMostly,          MemAdvice::UnsetReadMostly,
                                              MemAdvice::SetPreferredLocation,   MemAdvice::UnsetPreferredLocation,
                                              MemAdvice::SetAccessedBy,          MemAdvice::UnsetAccessedBy};
constexpr std::array<Tier, 3> kTiers = {Tier::Gpu, Tier::Host, Tier::Ssd};

Directive readDirective(const JsonObjectReader& o) {
    Directive d;
    d.kernelPos = o.integer("at");
    d.kind = o.fromName("kind", kKinds);
    d.tensor = o.integer("tensor");
    d.target = o.fromName("target", kTiers);
    if (o.has("keep_until")) d.keepUntil = o.integer("keep_until");
    if (o.has("after_kernel")) d.afterKernel = o.boolean("after_kernel");
    if (o.has("delay_ns")) {
        d.delay = o.integer("delay_ns");
        if (d.delay < 0) o.fail(o.at("delay_ns"), "expected a delay >= 0 nanoseconds");
        if (const std::string why = outOfDurationRange(d.delay); !why.empty()) o.fail(o.at("delay_ns"), why);
    }
    if (d.kind == DirectiveKind::Advise) {
        d.advice = o.fromName("advice", kAdvice);
        if (d.target == Tier::Ssd) o.fail(o.at("target"), "an advise directive's location is gpu or host, not ssd");
    } else if (o.has("advice")) {
        o.fail(o.at("advice"), "only an \"advise\" directive carries an advice");
    }
    return d;
}

ArenaSlot readSlot(const JsonObjectReader& o) {
    ArenaSlot slot;
    if (o.has("tensor")) slot.tensor = o.integer("tensor");
    else slot.workspaceKernelPos = o.integer("workspace_of_kernel");
    slot.offset = o.integer("offset");
    slot.bytes = o.integer("bytes");
    if (slot.offset < 0 || slot.bytes < 0) o.fail(o.pointer(), "expected offset and bytes >= 0");
    // Bounded, a slot's offset plus its size cannot wrap (the plan verifier adds them).
    for (const char* key : {"offset", "bytes"})
        if (const std::string why = outOfBytesRange(o.integer(key)); !why.empty()) o.fail(o.at(key), why);
    return slot;
}

// The fields after the directives: all optional, so drafts stored before they existed read the same.
void readOptionalFields(const JsonObjectReader& r, Plan& plan) {
    if (r.has("memory_model")) {
        constexpr std::array<MemoryModel, 2> kModels = {MemoryModel::UnifiedPaging, MemoryModel::ContiguousFirstFit};
        plan.memoryModel = r.fromName("memory_model", kModels);
    }
    if (r.has("allow_faults")) plan.allowFaults = r.boolean("allow_faults");
    if (r.has("cannot_run")) plan.cannotRun = r.string("cannot_run");
    if (r.has("placement")) plan.placement = r.string("placement");
    if (r.has("arena_bytes")) {
        plan.arenaBytes = r.integer("arena_bytes");
        if (plan.arenaBytes < 0) r.fail(r.at("arena_bytes"), "expected a size >= 0 bytes");
        if (const std::string why = outOfBytesRange(plan.arenaBytes); !why.empty()) r.fail(r.at("arena_bytes"), why);
    }
    if (r.has("arena")) {
        const auto& arena = r.array("arena", "an array of slots");
        for (std::size_t i = 0; i < arena.size(); ++i)
            plan.arena.push_back(readSlot(r.child(arena[i], "/arena/" + std::to_string(i))));
    }
}

}  // namespace

nlohmann::ordered_json planToJson(const Plan& plan) {
    nlohmann::ordered_json j;
    j["format"] = kPlanDraftFormatId;
    j["policy"] = plan.policy;
    j["order"] = plan.order;
    j["drop_dead_on_eviction"] = plan.dropDeadOnEviction;
    j["notes"] = plan.notes;
    auto directives = nlohmann::ordered_json::array();
    for (const auto& d : plan.directives) {
        nlohmann::ordered_json o;
        o["at"] = d.kernelPos;
        o["kind"] = toString(d.kind);
        o["tensor"] = d.tensor;
        o["target"] = toString(d.target);
        if (d.keepUntil != -1) o["keep_until"] = d.keepUntil;
        if (d.afterKernel) o["after_kernel"] = true;
        if (d.delay != 0) o["delay_ns"] = d.delay;
        if (d.kind == DirectiveKind::Advise) o["advice"] = toString(d.advice);
        directives.push_back(std::move(o));
    }
    j["directives"] = std::move(directives);
    if (plan.memoryModel != MemoryModel::UnifiedPaging) j["memory_model"] = toString(plan.memoryModel);
    if (!plan.allowFaults) j["allow_faults"] = false;  // only when set: drafts stored before it read the same
    if (!plan.cannotRun.empty()) j["cannot_run"] = plan.cannotRun;
    if (!plan.placement.empty() || !plan.arena.empty()) {
        j["placement"] = plan.placement;
        j["arena_bytes"] = plan.arenaBytes;
        auto arena = nlohmann::ordered_json::array();
        for (const auto& slot : plan.arena) {
            nlohmann::ordered_json o;
            if (slot.tensor >= 0) o["tensor"] = slot.tensor;
            else o["workspace_of_kernel"] = slot.workspaceKernelPos;
            o["offset"] = slot.offset;
            o["bytes"] = slot.bytes;
            arena.push_back(std::move(o));
        }
        j["arena"] = std::move(arena);
    }
    return j;
}

Plan planFromJson(const nlohmann::json& doc, const std::string& label) {
    const JsonObjectReader r(doc, label, "", "a JSON object");
    if (r.string("format") != kPlanDraftFormatId)
        r.fail("/format", "expected \"" + std::string(kPlanDraftFormatId) + "\"");
    return planFieldsFromJson(doc, label);
}

Plan planFieldsFromJson(const nlohmann::json& doc, const std::string& label) {
    const JsonObjectReader r(doc, label, "", "a JSON object");
    Plan plan;
    plan.policy = r.string("policy");
    plan.order = r.integers("order", "an array of kernel positions");
    plan.dropDeadOnEviction = r.boolean("drop_dead_on_eviction");
    const auto notes = r.object("notes", "an object of strings");
    for (const auto& [key, value] : notes.json().items()) plan.notes[key] = notes.stringAt(value, notes.at(key));
    const auto& directives = r.array("directives");
    plan.directives.reserve(directives.size());
    for (std::size_t i = 0; i < directives.size(); ++i)
        plan.directives.push_back(readDirective(r.child(directives[i], "/directives/" + std::to_string(i))));
    readOptionalFields(r, plan);
    return plan;
}

}  // namespace spillway
