#include "core/predictor/op_samples.h"

#include "core/io/base/file_text.h"
#include "core/io/base/import_error.h"
#include "core/io/base/json_file.h"
#include "core/io/torch_trace/torch_trace_ops.h"

#include <algorithm>
#include <array>
#include <unordered_map>

namespace spillway::predictor {
namespace {

std::string modelName(const std::filesystem::path& path) {
    std::string name = path.filename().string();
    for (std::string_view suffix : {".gz", ".json", ".trace"})
        if (name.ends_with(suffix)) name.resize(name.size() - suffix.size());
    return name;
}

double product(const nlohmann::json& dims) {
    double p = 1;
    for (const auto& d : dims)
        if (d.is_number()) p *= d.get<double>();
    return p;
}

// Bytes of each tensor argument; a tensor list ("TensorList", dims a list of shapes) is one
// argument of the summed shapes, at 4 bytes an element (Kineto records no dtype for lists; the
// traces here are float32 models).
std::vector<double> argumentBytes(const nlohmann::json& args) {
    std::vector<double> bytes;
    const auto dims = args.find("Input Dims");
    const auto types = args.find("Input type");
    if (dims == args.end() || types == args.end() || !dims->is_array() || !types->is_array()) return bytes;
    for (std::size_t i = 0; i < dims->size() && i < types->size(); ++i) {
        const auto& d = (*dims)[i];
        const std::string type = (*types)[i].is_string() ? (*types)[i].get<std::string>() : std::string();
        if (!d.is_array() || d.empty()) continue;  // a scalar or an undefined tensor
        if (type == "TensorList") {
            double sum = 0;
            for (const auto& shape : d)
                if (shape.is_array()) sum += product(shape) * 4;
            bytes.push_back(sum);
        } else if (const auto size = torch_trace::elementSize(type); size > 0) {
            bytes.push_back(product(d) * static_cast<double>(size));
        }
    }
    return bytes;
}

std::int64_t externalId(const nlohmann::json& event) {
    const auto args = event.find("args");
    if (args == event.end() || !args->is_object()) return -1;
    const auto id = args->find("External id");
    return id != args->end() && id->is_number_integer() ? id->get<std::int64_t>() : -1;
}

}  // namespace

std::string opTypeOf(std::string_view name) {
    if (name.starts_with("aten::")) name.remove_prefix(6);
    static constexpr std::array<std::array<std::string_view, 2>, 4> kAliases{{
        {"cudnn_convolution", "convolution"},
        {"_convolution", "convolution"},
        {"clamp_min_", "relu_"},
        {"clamp_min", "relu"},
    }};
    for (const auto& [from, to] : kAliases)
        if (name == from) return std::string(to);
    return std::string(name);
}

TraceOps readTraceOps(const std::filesystem::path& path) {
    const std::string label = path.string();
    const nlohmann::json doc = parseJsonText(readFileText(path), label);
    const auto events = doc.is_object() ? doc.find("traceEvents") : doc.end();
    if (events == doc.end() || !events->is_array())
        throw ImportError(label, "not a torch.profiler trace: no \"traceEvents\" array");
    TraceOps out;
    std::unordered_map<std::int64_t, std::size_t> sampleOf;  // External id -> sample
    const std::string model = modelName(path);
    for (const auto& e : *events) {
        if (!e.is_object() || e.value("cat", std::string()) != "cpu_op") continue;
        const auto id = externalId(e);
        if (id < 0 || sampleOf.count(id)) continue;
        sampleOf[id] = out.samples.size();
        const auto args = e.find("args");  // externalId found it an object
        out.samples.push_back({model, opTypeOf(e.value("name", std::string())), argumentBytes(*args), 0.0, 0});
    }
    for (std::size_t i = 0; i < events->size(); ++i) {
        const auto& e = (*events)[i];
        if (!e.is_object() || e.value("cat", std::string()) != "kernel") continue;
        const auto found = sampleOf.find(externalId(e));
        if (found == sampleOf.end()) {
            ++out.kernelsWithoutOp;
            continue;
        }
        if (!e.contains("dur") || !e["dur"].is_number() || !e.contains("ts") || !e["ts"].is_number())
            throw ImportError(label, "trace event " + std::to_string(i) + " (a kernel) has no numeric \"ts\" and \"dur\"");
        OpSample& s = out.samples[found->second];
        s.durationNs += e["dur"].get<double>() * 1000.0;  // Kineto writes microseconds
        ++s.kernels;
        out.kernels.push_back({e.value("name", std::string()), e["ts"].get<double>(), found->second});
    }
    std::stable_sort(out.kernels.begin(), out.kernels.end(),
                     [](const TraceKernel& a, const TraceKernel& b) { return a.startUs < b.startUs; });
    // Only ops that launched something are samples; renumber the kernels' references.
    std::vector<std::size_t> newIndex(out.samples.size(), 0);
    std::vector<OpSample> kept;
    for (std::size_t s = 0; s < out.samples.size(); ++s)
        if (out.samples[s].kernels > 0) {
            newIndex[s] = kept.size();
            kept.push_back(std::move(out.samples[s]));
        }
    for (auto& k : out.kernels) k.sample = newIndex[k.sample];
    out.samples = std::move(kept);
    return out;
}

}  // namespace spillway::predictor
