// The workspace on G10's BERT (batch 256) under base UVM: how big a stored result is as JSON
// text and as CBOR, and how long encoding, decoding, saving a run, loading it, listing and
// opening (with its quick_check) take. Baseline: writeNativeProfile() of the same profile, timed
// in the same process, so the ratios hold on a busy machine.
//   build/tests/bench_workspace [runs]
#include "bench_timing.h"
#include "core/io/native/native_json.h"
#include "core/io/profile_loader.h"
#include "core/policy/planner.h"
#include "core/hardware/hardware_presets.h"
#include "core/sim/sim_result_json.h"
#include "core/sim/simulator.h"
#include "core/store/workspace.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>
#include <vector>

using namespace spillway;

namespace {

using timing::medianMs;

}  // namespace

int main(int argc, char** argv) {
    const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 20;
    const Profile profile = loadProfile(SPILLWAY_SHARED_DATA "/g10/derived/BERT_Base_256");
    const HardwareConfig hardware = hardwarePreset("g10-a100");
    const Plan plan = makePlan("uvm", profile, hardware);
    const SimulationResult result = simulate(profile, plan, hardware);
    std::size_t intervals = 0;
    for (const auto& t : result.tensorResidency) intervals += t.size();
    fmt::print("BERT-256 uvm: {} kernels, {} residency samples, {} tensors, {} residency intervals\n",
               result.kernels.size(), result.residency.size(), result.tensorResidency.size(), intervals);

    const double baseline = medianMs(5, [&] { (void)writeNativeProfile(profile); });
    const std::string text = simulationResultToJson(result).dump();
    const auto cbor = simulationResultToCbor(result);
    fmt::print("size: JSON text {:.2f} MB, CBOR {:.2f} MB ({:.0f}% of the text)\n", text.size() / 1e6,
               cbor.size() / 1e6, 100.0 * cbor.size() / text.size());
    {
        // The layout not chosen: an array of objects per series, as a straightforward writer would.
        auto rows = simulationResultToJson(result);
        nlohmann::json kernels = nlohmann::json::array(), samples = nlohmann::json::array(),
                       tensors = nlohmann::json::array();
        for (const auto& k : result.kernels)
            kernels.push_back({{"start_ns", k.start}, {"end_ns", k.end}, {"compute_ns", k.compute},
                               {"fault_stall_ns", k.faultStall}, {"oversub_stall_ns", k.oversubStall},
                               {"late_prefetch_stall_ns", k.latePrefetchStall}, {"overlap_ns", k.overlap},
                               {"faulted_bytes", k.faultedBytes}});
        for (const auto& r : result.residency)
            samples.push_back({{"time_ns", r.time}, {"gpu_bytes", r.gpu}, {"host_bytes", r.host},
                               {"ssd_bytes", r.ssd}, {"in_flight_bytes", r.inFlight}});
        for (const auto& t : result.tensorResidency) {
            nlohmann::json list = nlohmann::json::array();
            for (const auto& i : t)
                list.push_back({{"start_ns", i.start}, {"end_ns", i.end}, {"where", static_cast<int>(i.where)}});
            tensors.push_back(list);
        }
        rows["kernels"] = kernels;
        rows["residency"] = samples;
        rows["tensor_residency"] = tensors;
        fmt::print("rows layout (not used): JSON text {:.2f} MB, CBOR {:.2f} MB\n", rows.dump().size() / 1e6,
                   nlohmann::json::to_cbor(rows).size() / 1e6);
    }
    const auto row = [&](const char* what, double ms) {
        fmt::print("{:<34} {:9.2f} ms  {:6.2f}x baseline\n", what, ms, ms / baseline);
    };
    row("baseline: writeNativeProfile", baseline);
    row("result -> JSON text", medianMs(5, [&] { (void)simulationResultToJson(result).dump(); }));
    row("JSON text -> result", medianMs(5, [&] {
            (void)simulationResultFromJson(nlohmann::json::parse(text), "bench");
        }));
    row("result -> CBOR", medianMs(5, [&] { (void)simulationResultToCbor(result); }));
    row("CBOR -> result", medianMs(5, [&] { (void)simulationResultFromCbor(cbor.data(), cbor.size(), "bench"); }));

    const auto dir = std::filesystem::temp_directory_path() / "spillway-bench-workspace";
    std::filesystem::remove_all(dir);
    const auto path = dir / "bench.spillway";
    std::vector<store::RowId> ids;
    {
        auto ws = store::Workspace::create(path);
        const auto p = ws.addProfile(profile, "BERT-256");
        row(fmt::format("add run (x{}, median)", runs).c_str(), medianMs(runs, [&] {
                ids.push_back(ws.addRun(p, "uvm", hardware, plan, result));
            }));
        row("load run", medianMs(5, [&] { (void)ws.loadRun(ids.back()); }));
        row(fmt::format("list runs ({})", ids.size()).c_str(), medianMs(5, [&] { (void)ws.listRuns(); }));
        row("load profile", medianMs(5, [&] { (void)ws.loadProfile(p); }));
    }
    fmt::print("workspace file with {} runs: {:.1f} MB\n", ids.size(), std::filesystem::file_size(path) / 1e6);
    row("open (header, quick_check, WAL)", medianMs(5, [&] { (void)store::Workspace::open(path); }));
    std::filesystem::remove_all(dir);
    return 0;
}
