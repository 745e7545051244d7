#include "core/io/measured/measured_timeline.h"

#include "core/io/base/file_text.h"
#include "core/io/base/import_error.h"
#include "core/io/base/json_dump.h"
#include "core/io/base/json_file.h"
#include "core/io/base/json_object_reader.h"

#include <new>

namespace spillway {

namespace {

// Every object is read strictly: each field asked for must be there with the right type, and
// finish() refuses fields nobody asked for, so a typo is an error and not a silent default.

void checkOrder(const JsonObjectReader& r, const std::string& key, Nanoseconds before, Nanoseconds after,
                const char* beforeName) {
    if (after < before)
        r.fail(r.at(key), "ends before it starts: " + std::string(beforeName) + " " + std::to_string(before) +
                              " ns, " + key + " " + std::to_string(after) + " ns");
}

MeasuredKernel readKernel(const JsonObjectReader& r) {
    MeasuredKernel k;
    k.runIndex = r.nonNegative("run_index");
    k.position = r.nonNegative("position");
    k.id = r.integer("id");
    k.name = r.string("name");
    k.profiledNs = r.nonNegative("profiled_ns");
    k.recomputeNs = r.has("recompute_ns") ? r.nonNegative("recompute_ns") : 0;
    k.readyNs = r.nonNegative("ready_ns");
    k.startNs = r.nonNegative("start_ns");
    k.endNs = r.nonNegative("end_ns");
    checkOrder(r, "start_ns", k.readyNs, k.startNs, "ready_ns");
    checkOrder(r, "end_ns", k.startNs, k.endNs, "start_ns");
    r.finish();
    return k;
}

MeasuredTransfer readTransfer(const JsonObjectReader& r) {
    MeasuredTransfer t;
    t.directive = r.nonNegative("directive");
    t.kind = r.string("kind");
    t.tensor = r.integer("tensor");
    t.tensorName = r.string("tensor_name");
    t.bytes = r.nonNegative("bytes");
    t.target = r.oneOf("target", {"gpu", "host", "ssd"});
    t.anchorRunIndex = r.nonNegative("anchor_run_index");
    t.afterKernel = r.boolean("after_kernel");
    t.delayNs = r.nonNegative("delay_ns");
    t.call = r.string("call");
    t.issueNs = r.nonNegative("issue_ns");
    t.startNs = r.nonNegative("start_ns");
    t.endNs = r.nonNegative("end_ns");
    checkOrder(r, "end_ns", t.startNs, t.endNs, "start_ns");
    r.finish();
    return t;
}

std::vector<MeasuredNote> readNotes(const JsonObjectReader& top, const std::string& key) {
    std::vector<MeasuredNote> notes;
    const auto& list = top.array(key);
    for (std::size_t i = 0; i < list.size(); ++i) {
        const auto r = top.child(list[i], top.at(key) + "/" + std::to_string(i));
        MeasuredNote n;
        n.iteration = r.integer("iteration");
        n.directive = r.integer("directive");
        n.message = r.string("message");
        r.finish();
        notes.push_back(std::move(n));
    }
    return notes;
}

nlohmann::ordered_json notesJson(const std::vector<MeasuredNote>& notes) {
    auto list = nlohmann::ordered_json::array();
    for (const auto& n : notes)
        list.push_back({{"iteration", n.iteration}, {"directive", n.directive}, {"message", n.message}});
    return list;
}

}  // namespace

nlohmann::ordered_json measuredTimelineToJson(const MeasuredTimeline& m) {
    nlohmann::ordered_json j;
    j["format"] = kMeasuredFormatId;
    j["backend"] = m.backend;
    j["device"] = m.device;
    j["plan"] = {{"policy", m.planPolicy}, {"hardware", m.planHardware}};
    j["profile"] = {{"name", m.profileName}, {"hash", m.profileHash}};
    j["arena"] = {{"kind", m.arenaKind}, {"bytes", m.arenaBytes}, {"planned_offsets", m.plannedOffsets},
                  {"slots_ordered", m.slotsOrdered}, {"prefetches_after_drops", m.prefetchesAfterDrops}};
    auto iterations = nlohmann::ordered_json::array();
    for (const auto& it : m.iterations) {
        nlohmann::ordered_json o;
        o["index"] = it.index;
        o["start_ns"] = it.startNs;
        o["end_ns"] = it.endNs;
        auto kernels = nlohmann::ordered_json::array();
        for (const auto& k : it.kernels) {
            nlohmann::ordered_json ko;
            ko["run_index"] = k.runIndex;
            ko["position"] = k.position;
            ko["id"] = k.id;
            ko["name"] = k.name;
            ko["profiled_ns"] = k.profiledNs;
            if (k.recomputeNs != 0) ko["recompute_ns"] = k.recomputeNs;
            ko["ready_ns"] = k.readyNs;
            ko["start_ns"] = k.startNs;
            ko["end_ns"] = k.endNs;
            kernels.push_back(std::move(ko));
        }
        o["kernels"] = std::move(kernels);
        auto transfers = nlohmann::ordered_json::array();
        for (const auto& t : it.transfers) {
            transfers.push_back({{"directive", t.directive}, {"kind", t.kind}, {"tensor", t.tensor},
                                 {"tensor_name", t.tensorName}, {"bytes", t.bytes}, {"target", t.target},
                                 {"anchor_run_index", t.anchorRunIndex}, {"after_kernel", t.afterKernel},
                                 {"delay_ns", t.delayNs}, {"call", t.call}, {"issue_ns", t.issueNs},
                                 {"start_ns", t.startNs}, {"end_ns", t.endNs}});
        }
        o["transfers"] = std::move(transfers);
        iterations.push_back(std::move(o));
    }
    j["iterations"] = std::move(iterations);
    j["fallbacks"] = notesJson(m.fallbacks);
    j["failures"] = notesJson(m.failures);
    return j;
}

MeasuredTimeline measuredTimelineFromJson(const nlohmann::json& doc, const std::string& label) {
    const JsonObjectReader top(doc, label, "",
                               "a JSON object with \"format\": \"" + std::string(kMeasuredFormatId) + "\"");
    if (top.string("format") != kMeasuredFormatId)
        top.fail("/format", "expected \"" + std::string(kMeasuredFormatId) + "\" (a measured timeline)");
    MeasuredTimeline m;
    m.backend = top.oneOf("backend", {"cuda", "host", "model"});
    m.device = top.string("device");
    {
        const auto plan = top.object("plan");
        m.planPolicy = plan.string("policy");
        m.planHardware = plan.string("hardware");
        plan.finish();
    }
    {
        const auto profile = top.object("profile");
        m.profileName = profile.string("name");
        m.profileHash = profile.string("hash");
        profile.finish();
    }
    {
        const auto arena = top.object("arena");
        m.arenaKind = arena.oneOf("kind", {"managed", "device"});
        m.arenaBytes = arena.nonNegative("bytes");
        m.plannedOffsets = arena.boolean("planned_offsets");
        // absent in timelines written before issue 16, whose runtime did not order slot reuse
        m.slotsOrdered = arena.has("slots_ordered") && arena.boolean("slots_ordered");
        // absent in timelines written before the second slot rule (issue 16, session 11)
        m.prefetchesAfterDrops = arena.has("prefetches_after_drops") && arena.boolean("prefetches_after_drops");
        arena.finish();
    }
    const auto& iterations = top.array("iterations");
    for (std::size_t i = 0; i < iterations.size(); ++i) {
        const std::string p = "/iterations/" + std::to_string(i);
        const auto r = top.child(iterations[i], p);
        MeasuredIteration it;
        it.index = r.nonNegative("index");
        it.startNs = r.nonNegative("start_ns");
        it.endNs = r.nonNegative("end_ns");
        checkOrder(r, "end_ns", it.startNs, it.endNs, "start_ns");
        const auto& kernels = r.array("kernels");
        for (std::size_t k = 0; k < kernels.size(); ++k)
            it.kernels.push_back(readKernel(r.child(kernels[k], p + "/kernels/" + std::to_string(k))));
        const auto& transfers = r.array("transfers");
        for (std::size_t t = 0; t < transfers.size(); ++t)
            it.transfers.push_back(readTransfer(r.child(transfers[t], p + "/transfers/" + std::to_string(t))));
        r.finish();
        if (!m.iterations.empty() && it.kernels.size() != m.iterations.front().kernels.size())
            r.fail(p + "/kernels", "has " + std::to_string(it.kernels.size()) + " kernels; iteration 0 has " +
                                       std::to_string(m.iterations.front().kernels.size()));
        m.iterations.push_back(std::move(it));
    }
    m.fallbacks = readNotes(top, "fallbacks");
    m.failures = readNotes(top, "failures");
    top.finish();
    return m;
}

MeasuredTimeline readMeasuredTimeline(const std::string& path) {
    try {
        return measuredTimelineFromJson(readJsonFile(path), path);
    } catch (const std::bad_alloc&) {
        throw outOfMemoryError(path);
    }
}

void writeMeasuredTimeline(const MeasuredTimeline& timeline, const std::string& path) {
    writeFileAtomically(path, dumpJson(measuredTimelineToJson(timeline), 1) + "\n");
}

}  // namespace spillway
