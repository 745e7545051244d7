#include "core/hardware/transfer_curve_json.h"

#include "core/hardware/hardware_units.h"
#include "core/io/base/json_fields.h"
#include "core/trace/number_limits.h"

#include <stdexcept>
#include <string>

namespace spillway {

namespace {

using nlohmann::ordered_json;

// A size or rate: an integer in the unit, or a string with a unit ("2MiB", "11.03GB/s").
std::int64_t quantityAt(const OrderedJsonObjectReader& r, const ordered_json& value, const std::string& pointer,
                        std::int64_t (*parse)(std::string_view), std::string_view what) {
    if (value.is_number_integer() || value.is_number_unsigned()) {
        const std::int64_t v = r.integerAt(value, pointer);
        if (v < 0) r.fail(pointer, std::string("expected ") + std::string(what) + ", not a negative number");
        return v;
    }
    if (!value.is_string()) r.fail(pointer, std::string("expected ") + std::string(what) + " (a number or a string with a unit)");
    try {
        return parse(value.get<std::string>());
    } catch (const std::invalid_argument& e) {
        r.fail(pointer, e.what());
    }
}

TransferCurve readCurve(const OrderedJsonObjectReader& r) {
    r.allowOnly({"floor_ns", "points"});
    TransferCurve curve;
    if (r.has("floor_ns")) {
        curve.floor = quantityAt(r, r.get("floor_ns"), r.at("floor_ns"), parseDuration, "a duration");
        if (const std::string why = outOfDurationRange(curve.floor); !why.empty()) r.fail(r.at("floor_ns"), why);
    }
    const auto& points = r.array("points", "an array of [size, rate] pairs");
    for (std::size_t i = 0; i < points.size(); ++i) {
        const std::string at = r.at("points") + "/" + std::to_string(i);
        if (!points[i].is_array() || points[i].size() != 2) r.fail(at, "expected a [size, rate] pair, e.g. [\"2MiB\", \"11GB/s\"]");
        const CurvePoint point{quantityAt(r, points[i][0], at + "/0", parseByteSize, "a size"),
                               quantityAt(r, points[i][1], at + "/1", parseBandwidth, "a rate")};
        // What curveProblem refuses, at the point's own pointer.
        if (point.bytes <= 0) r.fail(at + "/0", "expected a positive size");
        if (point.bytesPerSecond <= 0) r.fail(at + "/1", "expected a positive rate");
        if (i > 0 && point.bytes <= curve.points.back().bytes)
            r.fail(at + "/0", "sizes must ascend: " + std::to_string(point.bytes) + " bytes after " +
                                  std::to_string(curve.points.back().bytes));
        curve.points.push_back(point);
    }
    if (curve.points.empty()) r.fail(r.at("points"), "expected at least one measured point");
    return curve;
}

template <typename Each>
void forMechanisms(const OrderedJsonObjectReader& r, Each each) {
    for (const auto& [key, value] : r.json().items()) {
        bool known = false;
        for (TransferMechanism m : kTransferMechanisms)
            if (key == toString(m)) {
                each(m, key);
                known = true;
            }
        if (!known)
            r.fail(r.at(key), "unknown mechanism \"" + key +
                                  "\"; expected managed_prefetch, fault_migration, pinned_copy or discarded_fault");
    }
}

}  // namespace

MeasuredTransfers readMeasuredTransfers(const OrderedJsonObjectReader& transfers) {
    transfers.allowOnly({"host_to_gpu", "gpu_to_host", "duplex"});
    MeasuredTransfers measured;
    for (TransferDirection direction : {TransferDirection::ToGpu, TransferDirection::ToHost}) {
        const std::string key(toString(direction));
        if (!transfers.has(key)) continue;
        const auto side = transfers.object(key, "an object of curves by mechanism");
        forMechanisms(side, [&](TransferMechanism m, const std::string& name) {
            if (m == TransferMechanism::DiscardedFault && direction == TransferDirection::ToHost)
                side.fail(side.at(name), "discarded_fault is measured to the GPU only (host_to_gpu): the host never faults "
                                         "discarded pages back here");
            measured.curve(direction, m) = readCurve(side.object(name, "an object with \"points\""));
        });
    }
    if (transfers.has("duplex")) {
        const auto duplex = transfers.object("duplex", "an object of true/false by mechanism");
        forMechanisms(duplex, [&](TransferMechanism m, const std::string& name) {
            measured.duplex[static_cast<std::size_t>(m)] = duplex.boolean(name);
        });
    }
    return measured;
}

ordered_json writeMeasuredTransfers(const MeasuredTransfers& measured) {
    ordered_json doc = ordered_json::object();
    for (TransferDirection direction : {TransferDirection::ToGpu, TransferDirection::ToHost}) {
        for (TransferMechanism m : kTransferMechanisms) {
            const TransferCurve& curve = measured.curve(direction, m);
            if (curve.empty()) continue;
            ordered_json c;
            c["floor_ns"] = formatDuration(curve.floor);
            c["points"] = ordered_json::array();
            for (const auto& p : curve.points)
                c["points"].push_back({formatByteSize(p.bytes), formatBandwidth(p.bytesPerSecond)});
            doc[std::string(toString(direction))][std::string(toString(m))] = std::move(c);
        }
    }
    for (TransferMechanism m : kTransferMechanisms)
        if (!measured.isDuplex(m)) doc["duplex"][std::string(toString(m))] = false;
    return doc;
}

}  // namespace spillway
