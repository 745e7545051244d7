#include "core/plan/plan_json.h"

#include "core/io/import_error.h"
#include "core/io/json_fields.h"

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

using jsonfield::fail;
using jsonfield::fromName;
using jsonfield::integer;
using jsonfield::member;
using jsonfield::string;

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
    if (!doc.is_object()) fail(label, "", "expected a JSON object");
    if (string(member(doc, "format", label, ""), label, "/format") != kPlanDraftFormatId)
        fail(label, "/format", "expected \"" + std::string(kPlanDraftFormatId) + "\"");
    return planFieldsFromJson(doc, label);
}

Plan planFieldsFromJson(const nlohmann::json& doc, const std::string& label) {
    if (!doc.is_object()) fail(label, "", "expected a JSON object");
    Plan plan;
    plan.policy = string(member(doc, "policy", label, ""), label, "/policy");
    const auto& order = member(doc, "order", label, "");
    if (!order.is_array()) fail(label, "/order", "expected an array of kernel positions");
    for (std::size_t i = 0; i < order.size(); ++i)
        plan.order.push_back(integer(order[i], label, "/order/" + std::to_string(i)));
    const auto& drop = member(doc, "drop_dead_on_eviction", label, "");
    if (!drop.is_boolean()) fail(label, "/drop_dead_on_eviction", "expected true or false");
    plan.dropDeadOnEviction = drop.get<bool>();
    const auto& notes = member(doc, "notes", label, "");
    if (!notes.is_object()) fail(label, "/notes", "expected an object of strings");
    for (const auto& [key, value] : notes.items()) plan.notes[key] = string(value, label, "/notes/" + key);
    const auto& directives = member(doc, "directives", label, "");
    if (!directives.is_array()) fail(label, "/directives", "expected an array");
    plan.directives.reserve(directives.size());
    for (std::size_t i = 0; i < directives.size(); ++i) {
        const std::string p = "/directives/" + std::to_string(i);
        const auto& o = directives[i];
        if (!o.is_object()) fail(label, p, "expected an object");
        Directive d;
        d.kernelPos = integer(member(o, "at", label, p), label, p + "/at");
        d.kind = fromName(kKinds, string(member(o, "kind", label, p), label, p + "/kind"), label, p + "/kind");
        d.tensor = integer(member(o, "tensor", label, p), label, p + "/tensor");
        d.target = fromName(kTiers, string(member(o, "target", label, p), label, p + "/target"), label, p + "/target");
        if (o.contains("keep_until")) d.keepUntil = integer(o["keep_until"], label, p + "/keep_until");
        if (o.contains("after_kernel")) {
            if (!o["after_kernel"].is_boolean()) fail(label, p + "/after_kernel", "expected true or false");
            d.afterKernel = o["after_kernel"].get<bool>();
        }
        if (o.contains("delay_ns")) {
            d.delay = integer(o["delay_ns"], label, p + "/delay_ns");
            if (d.delay < 0) fail(label, p + "/delay_ns", "expected a delay >= 0 nanoseconds");
        }
        if (d.kind == DirectiveKind::Advise) {
            d.advice = fromName(kAdvice, string(member(o, "advice", label, p), label, p + "/advice"), label, p + "/advice");
            if (d.target == Tier::Ssd) fail(label, p + "/target", "an advise directive's location is gpu or host, not ssd");
        } else if (o.contains("advice")) {
            fail(label, p + "/advice", "only an \"advise\" directive carries an advice");
        }
        plan.directives.push_back(d);
    }
    if (doc.contains("memory_model")) {
        constexpr std::array<MemoryModel, 2> kModels = {MemoryModel::UnifiedPaging, MemoryModel::ContiguousFirstFit};
        plan.memoryModel = fromName(kModels, string(doc["memory_model"], label, "/memory_model"), label, "/memory_model");
    }
    if (doc.contains("allow_faults")) {
        if (!doc["allow_faults"].is_boolean()) fail(label, "/allow_faults", "expected true or false");
        plan.allowFaults = doc["allow_faults"].get<bool>();
    }
    if (doc.contains("cannot_run")) plan.cannotRun = string(doc["cannot_run"], label, "/cannot_run");
    if (doc.contains("placement")) plan.placement = string(doc["placement"], label, "/placement");
    if (doc.contains("arena_bytes")) {
        plan.arenaBytes = integer(doc["arena_bytes"], label, "/arena_bytes");
        if (plan.arenaBytes < 0) fail(label, "/arena_bytes", "expected a size >= 0 bytes");
    }
    if (doc.contains("arena")) {
        const auto& arena = doc["arena"];
        if (!arena.is_array()) fail(label, "/arena", "expected an array of slots");
        for (std::size_t i = 0; i < arena.size(); ++i) {
            const std::string p = "/arena/" + std::to_string(i);
            const auto& o = arena[i];
            if (!o.is_object()) fail(label, p, "expected an object");
            ArenaSlot slot;
            if (o.contains("tensor")) slot.tensor = integer(o["tensor"], label, p + "/tensor");
            else slot.workspaceKernelPos = integer(member(o, "workspace_of_kernel", label, p), label, p + "/workspace_of_kernel");
            slot.offset = integer(member(o, "offset", label, p), label, p + "/offset");
            slot.bytes = integer(member(o, "bytes", label, p), label, p + "/bytes");
            if (slot.offset < 0 || slot.bytes < 0) fail(label, p, "expected offset and bytes >= 0");
            plan.arena.push_back(slot);
        }
    }
    return plan;
}

}  // namespace spillway
