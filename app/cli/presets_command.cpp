// `spillway-cli presets [PRESET] [--set key=value ...] [--json]`: without a preset, lists the
// presets and every key --set accepts; with one (id or file), shows its values after the --set
// overrides (as spillway.hardware/1 JSON with --json, ready to edit and pass to --hw), and its
// measured transfer curves when it has them.
#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "app/cli/error_report.h"
#include "app/cli/hardware_args.h"

#include "core/hardware/hardware_presets.h"
#include "core/hardware/hardware_units.h"
#include "core/io/base/file_text.h"
#include "core/io/base/json_dump.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>

namespace spillway::cli {

namespace {

void printList() {
    fmt::print("Presets (--hw ID):\n");
    for (const auto& id : hardwarePresetIds())
        fmt::print("  {:<22} {}\n", id, hardwarePreset(id).description);
    fmt::print("\nKeys (--set KEY=VALUE; the short name without the unit works too):\n");
    for (const auto& k : hardwareKeys())
        fmt::print("  {:<26} {:<22} {:<24} {}\n", k.name, k.alias.empty() ? "" : k.alias, k.valueType,
                   k.description);
    fmt::print("\nValues take units: 24GiB, 2TB, 3.2GB/s, 45us, 1.5ms (plain integers are bytes, bytes/s, ns).\n");
}

nlohmann::ordered_json listJson() {
    nlohmann::ordered_json j;
    auto presets = nlohmann::ordered_json::array();
    for (const auto& id : hardwarePresetIds())
        presets.push_back({{"id", id}, {"description", hardwarePreset(id).description}});
    j["presets"] = presets;
    auto keys = nlohmann::ordered_json::array();
    for (const auto& k : hardwareKeys())
        keys.push_back({{"name", k.name}, {"alias", k.alias}, {"type", k.valueType}, {"group", k.group},
                        {"description", k.description}});
    j["keys"] = keys;
    return j;
}

// The measured curves (hardware.md, "Measured transfers"): per direction and mechanism its
// points as size and rate, its floor; then which mechanisms overlap in opposite directions.
void printTransfers(const MeasuredTransfers& measured) {
    if (measured.empty()) return;
    fmt::print("\nMeasured transfers (size rate; linear in time between points, floor = the least one costs):\n");
    for (TransferDirection direction : {TransferDirection::ToGpu, TransferDirection::ToHost})
        for (TransferMechanism mechanism : kTransferMechanisms) {
            const TransferCurve& curve = measured.curve(direction, mechanism);
            if (curve.empty()) continue;
            std::string points;
            for (const CurvePoint& p : curve.points)
                points += fmt::format("{}{} {}", points.empty() ? "" : "  ", formatByteSize(p.bytes),
                                      formatBandwidth(p.bytesPerSecond));
            fmt::print("  {:<12} {:<17} {}  floor {}\n", toString(direction), toString(mechanism), points,
                       formatDuration(curve.floor));
        }
    std::string duplex;
    for (TransferMechanism mechanism : kTransferMechanisms)
        if (mechanism != TransferMechanism::DiscardedFault)  // nothing crosses the link
            duplex += fmt::format("{}{} {}", duplex.empty() ? "" : ", ", toString(mechanism),
                              measured.isDuplex(mechanism) ? "yes" : "no");
    fmt::print("  duplex (opposite directions overlap): {}\n", duplex);
    fmt::print("  A mechanism without a curve costs its link's latency + bytes / bandwidth.\n");
}

void printValues(const HardwareConfig& hardware) {
    fmt::print("{}: {}\n\n", hardware.id, hardware.description);
    for (const auto& k : hardwareKeys())
        if (!k.group) fmt::print("  {:<26} {}\n", k.name, hardwareValueText(hardware, k.name));
    printTransfers(hardware.measured);
}

}  // namespace

CommandAction addPresetsCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("presets", "List hardware presets and the keys --set accepts, or show "
                                              "one preset's values");
    struct State {
        std::string preset;
        std::vector<std::string> sets;
        JsonOutput json;
    };
    auto state = std::make_shared<State>();
    cmd->add_option("PRESET", state->preset, "Preset id or spillway.hardware/1 file to show");
    addSetOption(*cmd, state->sets);
    addJsonOption(*cmd, state->json, "the list (a preset: its spillway.hardware/1 file, as --hw reads it)");
    return [state]() {
        return runReportingErrors(state->json, [&]() {
            if (state->preset.empty()) {
                if (!state->sets.empty()) throw std::invalid_argument("--set needs a PRESET to apply to");
                if (state->json.requested()) writeJsonOutput(state->json, jsonHeader("spillway.presets/1"), listJson());
                if (!state->json.toStdout()) printList();
                return kExitOk;
            }
            HardwareArgs args;
            args.hw = state->preset;
            args.sets = state->sets;
            const auto hardware = args.load();
            // A preset stays a plain spillway.hardware/1 file (no tool stamp): the hardware reader
            // is strict, and the point of this output is to be edited and passed to --hw.
            if (state->json.toStdout())
                std::cout << writeHardwareJson(hardware);
            else if (state->json.requested())
                writeFileAtomically(state->json.path, writeHardwareJson(hardware));
            if (!state->json.toStdout()) printValues(hardware);
            return kExitOk;
        });
    };
}

}  // namespace spillway::cli
