// `_spillway`: the core library for Python (issue 21). Only the binding lives here; the tables
// are made by plain C++ (profile_tables, result_tables, layout_run, sweep_run) and the
// pure-Python package `spillway` (spillway/__init__.py) turns them into pandas DataFrames. Every
// call into the core releases the GIL (py::call_guard): arguments are converted before and
// results after it, so no Python object is touched without the GIL and Python threads simulate
// in parallel.
#include "app/python/layout_run.h"
#include "app/python/profile_tables.h"
#include "app/python/result_tables.h"
#include "app/python/sweep_run.h"

#include "core/hardware/hardware_presets.h"
#include "core/io/base/import_error.h"
#include "core/io/native/profile_hash.h"
#include "core/io/valid_profile.h"
#include "core/policy/planner.h"
#include "core/sim/simulator.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <memory>
#include <optional>
#include <stdexcept>

namespace py = pybind11;
using namespace spillway;
using namespace spillway::python;

namespace {

using Release = py::call_guard<py::gil_scoped_release>;
using ProfilePtr = std::shared_ptr<const Profile>;
using PlanPtr = std::shared_ptr<const Plan>;

// A simulation with what it was run on, so its kernel table can name the kernels.
struct SimulationRun {
    ProfilePtr profile;
    PlanPtr plan;
    SimulationResult result;
};

// The module's exception classes, made once at import and kept for the translator.
struct ErrorClasses {
    py::handle error, inputError, invalidArgument;
};
ErrorClasses errors;

py::handle newException(py::module_& m, const char* name, py::handle bases, const char* doc) {
    const std::string qualified = std::string("spillway.") + name;
    PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases.ptr(), nullptr);
    if (!type) throw py::error_already_set();
    m.attr(name) = py::reinterpret_steal<py::object>(type);
    return type;
}

// The message is e.what(), which is what `spillway-cli` prints after "error: " (error_report.cpp).
void registerErrors(py::module_& m) {
    errors.error = newException(m, "Error", PyExc_RuntimeError,
                                "Anything Spillway's core refused; the message is the one spillway-cli prints.");
    errors.inputError = newException(m, "InputError", errors.error,
                                     "A file could not be read: .file names it, .where says where in it.");
    const py::tuple invalidBases = py::make_tuple(errors.error, py::handle(PyExc_ValueError));
    errors.invalidArgument = newException(m, "InvalidArgument", invalidBases,
                                          "An unknown name (preset, key, policy, method) or a bad value.");
    py::register_local_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const py::builtin_exception&) {
            throw;  // pybind11's own (cast errors...): its translator knows them
        } catch (const py::error_already_set&) {
            throw;
        } catch (const ImportError& e) {
            py::object exc = errors.inputError(e.what());
            exc.attr("file") = e.location().file;
            exc.attr("where") = e.location().describe();
            PyErr_SetObject(errors.inputError.ptr(), exc.ptr());
        } catch (const std::invalid_argument& e) {
            PyErr_SetString(errors.invalidArgument.ptr(), e.what());
        } catch (const std::bad_alloc&) {
            PyErr_SetString(PyExc_MemoryError, "out of memory");
        } catch (const std::exception& e) {
            PyErr_SetString(errors.error.ptr(), e.what());
        }
    });
}

// `iteration`: ImportOptions::iteration (0 steady, -1 all, K >= 1); the wrapper parses the CLI's words.
Profile loadProfileFrom(const std::filesystem::path& path, const std::string& format, std::optional<std::int64_t> batch,
                        std::optional<std::filesystem::path> results, bool g10WorkspacesAsTensors,
                        std::int64_t iteration) {
    ImportOptions options;
    options.format = format;
    options.batch = batch;
    options.resultsDir = std::move(results);
    options.g10WorkspacesAsTensors = g10WorkspacesAsTensors;
    options.iteration = iteration;
    return loadValidProfile(path, options);
}

void bindProfile(py::module_& m) {
    py::class_<Profile, std::shared_ptr<Profile>>(m, "Profile")
        .def("kernel_table", &kernelTable, Release())
        .def("tensor_table", &tensorTable, Release())
        .def(
            "overview",
            [](const Profile& p) {
                auto o = profileOverview(p);
                return std::make_tuple(std::move(o.summary), std::move(o.phases), std::move(o.kinds));
            },
            Release())
        .def("notes", &profileNotes, Release())
        .def("hash", &profileHash, Release())
        .def_property_readonly("kernel_count", [](const Profile& p) { return p.kernels.size(); })
        .def_property_readonly("tensor_count", [](const Profile& p) { return p.tensors.size(); })
        .def_property_readonly("model", [](const Profile& p) { return p.metadata.model; });
    m.def(
        "load_profile",
        [](const std::filesystem::path& path, const std::string& format, std::optional<std::int64_t> batch,
           std::optional<std::filesystem::path> results, bool g10WorkspacesAsTensors, std::int64_t iteration) {
            return std::make_shared<Profile>(
                loadProfileFrom(path, format, batch, std::move(results), g10WorkspacesAsTensors, iteration));
        },
        Release(), py::arg("path"), py::arg("format") = "", py::arg("batch") = std::nullopt,
        py::arg("results") = std::nullopt, py::arg("g10_workspaces_as_tensors") = false, py::arg("iteration") = 0);
}

Record hardwareValues(const HardwareConfig& h) {
    Record values{{"id", h.id}};
    for (const HardwareKey& k : hardwareKeys())
        if (!k.group) values.emplace_back(k.name, hardwareValueText(h, k.name));
    return values;
}

Table hardwareKeyTable() {
    const auto& k = hardwareKeys();
    return {column<std::string>("name", k, [](const HardwareKey& x) { return x.name; }),
            column<std::string>("alias", k, [](const HardwareKey& x) { return x.alias; }),
            column<std::string>("type", k, [](const HardwareKey& x) { return x.valueType; }),
            column<bool>("group", k, [](const HardwareKey& x) { return x.group; }),
            column<std::string>("description", k, [](const HardwareKey& x) { return x.description; })};
}

void bindHardware(py::module_& m) {
    py::class_<HardwareConfig>(m, "Hardware")
        .def_readonly("id", &HardwareConfig::id)
        .def_readonly("description", &HardwareConfig::description)
        .def("values",
             [](const HardwareConfig& h) {
                 py::dict values;  // in key order, as `spillway-cli presets ID` lists them
                 for (const auto& [key, value] : hardwareValues(h)) values[py::str(key)] = py::cast(value);
                 return values;
             })
        .def("to_json", &writeHardwareJson);
    m.def("preset_ids", &hardwarePresetIds);
    m.def("preset_description", [](const std::string& id) { return hardwarePreset(id).description; });
    m.def("hardware_key_table", &hardwareKeyTable);
    // `--hw PRESET|FILE --set key=value ...`: the same loader and the same overrides, in order.
    m.def(
        "hardware",
        [](const std::string& presetOrPath, const std::vector<std::string>& assignments) {
            HardwareConfig hardware = loadHardware(presetOrPath);
            applyHardwareOverrides(hardware, assignments);
            return hardware;
        },
        Release(), py::arg("preset"), py::arg("assignments"));
}

void bindPlanAndSimulation(py::module_& m) {
    py::class_<Plan, std::shared_ptr<Plan>>(m, "Plan")
        .def_readonly("policy", &Plan::policy)
        .def_readonly("order", &Plan::order)
        .def_readonly("notes", &Plan::notes)
        .def("summary", &planSummary)
        .def(
            "directive_table", [](const Plan& plan, const Profile& profile) { return directiveTable(profile, plan); },
            Release());
    m.def(
        "make_plan",
        [](const std::string& policy, const Profile& profile, const HardwareConfig& hardware, bool allowFaults) {
            PlannerOptions options;
            options.allowFaults = allowFaults;
            return std::make_shared<Plan>(makePlan(policy, profile, hardware, options));
        },
        Release(), py::arg("policy"), py::arg("profile"), py::arg("hardware"), py::arg("allow_faults") = true);
    m.def("policy_names", []() {
        std::vector<std::string> names;
        for (const auto& p : planners()) names.push_back(p.id);
        return names;
    });
    m.def("modifier_names", []() {
        std::vector<std::string> names;
        for (const auto& p : planModifiers()) names.push_back(p.id);
        return names;
    });

    py::class_<SimulationRun, std::shared_ptr<SimulationRun>>(m, "SimulationRun")
        .def("summary", [](const SimulationRun& r) { return resultSummary(r.result); })
        .def("kernel_table", [](const SimulationRun& r) { return resultKernelTable(*r.profile, *r.plan, r.result); },
             Release())
        .def("residency_table", [](const SimulationRun& r) { return residencyTable(r.result); }, Release())
        .def("traffic_table", [](const SimulationRun& r) { return trafficTable(r.result); })
        .def("gpu_table", [](const SimulationRun& r) { return gpuTable(r.result); })
        .def_property_readonly("iteration_times_ns", [](const SimulationRun& r) { return r.result.iterationTimes; });
    // The options `spillway-cli simulate` runs with (no per-tensor residency, no transfer list);
    // residency samples only when asked, for plots of memory over time.
    m.def(
        "simulate",
        [](const std::shared_ptr<Profile>& profile, const std::shared_ptr<Plan>& plan, const HardwareConfig& hardware,
           bool recordResidency) {
            SimulationOptions options;
            options.recordTensorResidency = false;
            options.recordResidencySamples = recordResidency;
            options.recordTransfers = false;
            auto result = simulate(*profile, *plan, hardware, options);
            return std::make_shared<SimulationRun>(SimulationRun{profile, plan, std::move(result)});
        },
        Release(), py::arg("profile"), py::arg("plan"), py::arg("hardware"), py::arg("record_residency") = false);
}

void bindLayout(py::module_& m) {
    m.def(
        "layout",
        [](const Profile& profile, const std::string& order, const std::string& placement, double timeLimit) {
            auto run = layoutProfile(profile, order, placement, timeLimit);
            return std::make_tuple(std::move(run.summary), std::move(run.offsets), std::move(run.order));
        },
        Release(), py::arg("profile"), py::arg("order"), py::arg("placement"), py::arg("time_limit_s"));
}

void bindSweeps(py::module_& m) {
    m.def("sweep_spec_json", &sweepSpecJson, Release(), py::arg("spec"), py::arg("cell_limit"));
    m.def(
        "run_sweep_shard",
        [](const std::filesystem::path& spec, const std::filesystem::path& results, const std::string& shard,
           unsigned threads) {
            const SweepShardCounts c = runSweepShard(spec, results, shard, threads);
            return std::make_tuple(c.cells, c.alreadyDone, c.ran, c.failed);
        },
        Release(), py::arg("spec"), py::arg("results"), py::arg("shard"), py::arg("threads"));
    m.def("merged_sweep_table", &mergedSweepTable, Release(), py::arg("results"));
}

}  // namespace

PYBIND11_MODULE(_spillway, m) {
    m.doc() = "Spillway's core (C++): use the `spillway` package, which returns pandas DataFrames.";
    m.attr("__version__") = SPILLWAY_VERSION;
    registerErrors(m);
    bindProfile(m);
    bindHardware(m);
    bindPlanAndSimulation(m);
    bindLayout(m);
    bindSweeps(m);
}
