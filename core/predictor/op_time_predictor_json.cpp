// spillway.op-predictor/1: the trained predictor as a small JSON file.
#include "core/predictor/op_time_predictor.h"

#include "core/io/base/file_text.h"
#include "core/io/base/json_dump.h"
#include "core/io/base/json_file.h"
#include "core/io/base/json_object_reader.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace spillway::predictor {

double roundTo6(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", value);
    return std::strtod(text, nullptr);
}

std::string predictorToJson(const OpTimePredictor& p) {
    nlohmann::ordered_json doc;
    doc["format"] = kPredictorFormatId;
    doc["description"] = "TENSILE's operator-time predictor: ln(ns) from the op type (one-hot over \"ops\") and "
                         "log2(1 + bytes) of inputs 1-3 and of all inputs, the input count, the GPU utilisation";
    doc["ops"] = p.ops;
    auto rounded = [](const std::vector<double>& v) {
        nlohmann::ordered_json a = nlohmann::ordered_json::array();
        for (double x : v) a.push_back(roundTo6(x));
        return a;
    };
    doc["feature_mean"] = rounded(p.featureMean);
    doc["feature_std"] = rounded(p.featureStd);
    doc["target_mean"] = roundTo6(p.targetMean);
    doc["target_std"] = roundTo6(p.targetStd);
    doc["layers"] = nlohmann::ordered_json::array();
    for (const auto& l : p.mlp.layers)
        doc["layers"].push_back({{"inputs", l.inputs}, {"outputs", l.outputs}, {"weights", rounded(l.weights)}, {"bias", rounded(l.bias)}});
    doc["trained_on"] = {{"samples", p.trainingSamples}, {"traces", p.traces}};
    return dumpJson(doc) + "\n";  // compact: the weights are most of it
}

namespace {

std::vector<double> numbers(const JsonObjectReader& r, std::string_view key, std::size_t expected) {
    const auto& a = r.array(key, "an array of numbers");
    if (a.size() != expected)
        r.fail(r.at(key), "expected " + std::to_string(expected) + " numbers, got " + std::to_string(a.size()));
    std::vector<double> out;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (!a[i].is_number() || !std::isfinite(a[i].get<double>()))
            r.fail(r.at(key) + "/" + std::to_string(i), std::string("expected a finite number, got ") + a[i].type_name());
        out.push_back(a[i].get<double>());
    }
    return out;
}

double number(const JsonObjectReader& r, std::string_view key) {
    const auto& v = r.get(key, "a number");
    if (!v.is_number() || !std::isfinite(v.get<double>()))
        r.fail(r.at(key), std::string("expected a finite number, got ") + v.type_name());
    return v.get<double>();
}

MlpLayer readLayer(const JsonObjectReader& r, int inputs, int outputs) {
    r.allowOnly({"inputs", "outputs", "weights", "bias"});
    MlpLayer l;
    l.inputs = static_cast<int>(r.integer("inputs"));
    l.outputs = static_cast<int>(r.integer("outputs"));
    if (l.inputs != inputs) r.fail(r.at("inputs"), "expected " + std::to_string(inputs) + " (the layer below's outputs)");
    if (outputs > 0 && l.outputs != outputs) r.fail(r.at("outputs"), "expected " + std::to_string(outputs));
    if (l.outputs < 1 || l.outputs > 4096) r.fail(r.at("outputs"), "expected 1 to 4096");
    l.weights = numbers(r, "weights", static_cast<std::size_t>(l.inputs) * l.outputs);
    l.bias = numbers(r, "bias", static_cast<std::size_t>(l.outputs));
    return l;
}

}  // namespace

OpTimePredictor predictorFromJson(std::string_view text, const std::string& label) {
    const nlohmann::json doc = parseJsonText(text, label);
    const JsonObjectReader r(doc, {label, JsonWords::Keys}, "", "a JSON object with \"format\": \"spillway.op-predictor/1\"");
    r.allowOnly({"format", "description", "ops", "feature_mean", "feature_std", "target_mean", "target_std", "layers", "trained_on"});
    r.oneOf("format", {kPredictorFormatId}, "format");
    OpTimePredictor p;
    const auto& ops = r.array("ops", "an array of op names");
    for (std::size_t i = 0; i < ops.size(); ++i) {
        p.ops.push_back(r.stringAt(ops[i], r.at("ops") + "/" + std::to_string(i)));
        if (i > 0 && p.ops[i - 1] >= p.ops[i]) r.fail(r.at("ops") + "/" + std::to_string(i), "op names must be sorted and unique");
    }
    p.featureMean = numbers(r, "feature_mean", kNumericFeatures);
    p.featureStd = numbers(r, "feature_std", kNumericFeatures);
    p.targetMean = number(r, "target_mean");
    p.targetStd = number(r, "target_std");
    if (p.targetStd <= 0) r.fail(r.at("target_std"), "expected a positive number");
    const auto& layers = r.array("layers", "an array of 3 layers");
    if (layers.size() != 3) r.fail(r.at("layers"), "expected 3 layers, got " + std::to_string(layers.size()));
    int inputs = static_cast<int>(p.ops.size()) + kNumericFeatures;
    for (std::size_t i = 0; i < layers.size(); ++i) {
        p.mlp.layers.push_back(readLayer(r.child(layers[i], r.at("layers") + "/" + std::to_string(i), "a layer object"),
                                         inputs, i + 1 == layers.size() ? 1 : 0));
        inputs = p.mlp.layers.back().outputs;
    }
    if (r.has("trained_on")) {
        const auto t = r.object("trained_on");
        t.allowOnly({"samples", "traces"});
        p.trainingSamples = static_cast<int>(t.nonNegative("samples"));
        const auto& traces = t.array("traces", "an array of trace names");
        for (std::size_t i = 0; i < traces.size(); ++i) p.traces.push_back(t.stringAt(traces[i], t.at("traces") + "/" + std::to_string(i)));
    }
    return p;
}

OpTimePredictor loadPredictor(const std::filesystem::path& path) { return predictorFromJson(readFileText(path), path.string()); }

}  // namespace spillway::predictor
