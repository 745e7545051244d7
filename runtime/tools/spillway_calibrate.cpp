// spillway-calibrate -o FILE [--id ID] [--force] [--quick]: measures this machine's GPU (managed
// prefetch, fault-driven migration and pinned copies by size and direction, duplex, kernel
// launch, discard) and writes a spillway.hardware/1 file that `--hw FILE` accepts.
// docs/runtime.md, "spillway-calibrate".
//
// Exit codes: 0 done; 2 usage or output (an existing FILE without --force, a folder, a folder
// that is missing or not writable: checked before measuring, so nothing is measured for
// nothing; a write that fails); 3 the calibration cannot run here (no CUDA device found, a
// build without CUDA) or a CUDA call failed.
#include "core/hardware/hardware_presets.h"
#include "core/io/base/file_text.h"
#include "runtime/calibrate/calibrated_hardware.h"
#include "runtime/calibrate/calibration_sources.h"
#include "runtime/calibrate/calibration_summary.h"
#include "runtime/calibrate/gpu_measurements.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <unistd.h>

#include <chrono>
#include <filesystem>

namespace {

constexpr int kExitOk = 0;
constexpr int kExitUsage = 2;
constexpr int kExitCannotMeasure = 3;

// Why OUTPUT cannot be written ("" when it can), before a minute goes into measuring.
std::string outputProblem(const std::string& output, bool force) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path path(output);
    if (fs::is_directory(path, ec)) return output + " is a folder; expected a file to write";
    if (fs::exists(path, ec) && !force) return output + " exists; pass --force to overwrite it";
    const fs::path folder = path.parent_path().empty() ? fs::path(".") : path.parent_path();
    if (!fs::is_directory(folder, ec)) return output + ": cannot write: no folder " + folder.string();
    if (::access(folder.c_str(), W_OK) != 0)
        return output + ": cannot write: the folder " + folder.string() + " is not writable";
    return {};
}

}  // namespace

int main(int argc, char** argv) {
    using namespace spillway;
    CLI::App app{
        "spillway-calibrate: measure this machine's GPU (transfer curves, duplex, kernel launch, discard) and "
        "write a spillway.hardware/1 file for --hw (Spillway " SPILLWAY_VERSION ")"};
    app.set_version_flag("--version", std::string(SPILLWAY_VERSION));
    std::string output, id;
    bool force = false, quick = false;
    app.add_option("-o,--output", output, "where to write the machine (spillway.hardware/1 JSON)")->required();
    app.add_option("--id", id, "the machine's id in the file (default: the device name, e.g. nvidia-h200)")
        ->check(
            [](const std::string& s) { return s.empty() ? std::string("the id must not be empty") : std::string(); });
    app.add_flag("--force", force, "overwrite FILE if it exists");
    app.add_flag("--quick", quick, "3 sizes up to 32 MiB, 1 repetition (a smoke test, not a calibration)");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? kExitOk : kExitUsage;
    }
    if (const std::string problem = outputProblem(output, force); !problem.empty()) {
        fmt::print(stderr, "spillway-calibrate: {}\n", problem);
        return kExitUsage;
    }

    calibrate::RawMeasurements raw;
    const auto started = std::chrono::steady_clock::now();
    try {
        calibrate::MeasureOptions options;
        options.quick = quick;
        options.progress = [](const std::string& line) {
            fmt::print("  {}\n", line);
            std::fflush(stdout);  // a minute of silence reads as a hang
        };
        raw = calibrate::measureGpu(options);
    } catch (const std::exception& e) {
        fmt::print(stderr, "spillway-calibrate: {}\n", e.what());
        return kExitCannotMeasure;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    raw.toolVersion = SPILLWAY_VERSION;

    std::string text;
    HardwareConfig hardware;
    try {
        hardware =
            calibrate::calibratedHardware(raw, id.empty() ? calibrate::defaultCalibrationId(raw.deviceName) : id);
        text = calibrate::calibrationFileText(hardware, calibrate::calibrationSources(raw, hardware));
        parseHardwareJson(text, output);  // what --hw will read: refused here rather than there
    } catch (const std::exception& e) {
        fmt::print(stderr, "spillway-calibrate: the measurements make no valid machine: {}\n", e.what());
        return kExitCannotMeasure;
    }
    try {
        writeFileAtomically(output, text);
    } catch (const std::exception& e) {
        fmt::print(stderr, "spillway-calibrate: {}\n", e.what());
        return kExitUsage;
    }
    // --hw reads a path when it has a '/' or ends in .json, else a preset id
    const bool looksLikePath = output.find('/') != std::string::npos || output.ends_with(".json");
    fmt::print("{} ({}) measured in {:.1f} s:\n{}-> {} (use it with --hw {})\n", raw.deviceName, hardware.id, seconds,
               calibrate::calibrationSummary(hardware), output, looksLikePath ? output : "./" + output);
    return kExitOk;
}
