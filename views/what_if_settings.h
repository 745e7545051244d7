#pragma once
// What the what-if panel asks for: a machine (a preset and the values the user changed), and a
// migration policy, and the layout methods. Plain data: the panel fills it, the app simulates it.
#include "core/hardware/hardware.h"

#include <QString>

#include <string>
#include <vector>

namespace spillway::views {

struct WhatIfSettings {
    QString preset;          // hardware preset id, or the path of a spillway.hardware/1 file
    QString policy;          // "uvm", "g10+discard", ...
    qint64 gpuBytes = 0;
    qint64 hostBytes = 0;
    qint64 ssdBytesPerSecond = 0;   // all four SSD links
    qint64 pcieBytesPerSecond = 0;  // host<->GPU, both directions
    qint64 faultLatencyNs = 0;
    qint64 faultBatchPages = 0;  // 4 KiB pages per fault batch
    // Operator order and placement methods (core/layout): they plan the arena the Offsets tab
    // shows. The simulation itself replays the profile's order.
    QString order = QStringLiteral("program");
    QString placement = QStringLiteral("best");

    bool operator==(const WhatIfSettings&) const = default;

    // As hardware overrides on the preset ("gpu_capacity_bytes=...", core's --set syntax).
    std::vector<std::string> hardwareOverrides() const;
};

// A machine's values as the panel holds them, exactly, with its id as the preset (the inverse of
// hardwareOverrides): a preset picked on the panel, a stored run's machine.
WhatIfSettings whatIfSettingsOf(const HardwareConfig& hardware, const std::string& policy);

}  // namespace spillway::views
