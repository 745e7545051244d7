#include "views/what_if_panel.h"

#include "core/layout/operator_order.h"
#include "core/layout/placement.h"
#include "core/policy/planner.h"
#include "core/hardware/hardware_presets.h"
#include "views/format_units.h"

#include <QComboBox>
#include <QFileInfo>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>

#include <cmath>

namespace spillway::views {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr double kGBps = 1e9;

QDoubleSpinBox* spin(QWidget* parent, const char* name, double max, int decimals, const QString& suffix,
                     const QString& tip) {
    auto* box = new QDoubleSpinBox(parent);
    box->setObjectName(name);
    box->setRange(0, max);
    box->setDecimals(decimals);
    box->setSuffix(suffix);
    box->setToolTip(tip);
    // Emit when the user stops typing (Enter, focus out) or steps, not on every keystroke.
    box->setKeyboardTracking(false);
    return box;
}

}  // namespace

WhatIfPanel::WhatIfPanel(QWidget* parent) : QWidget(parent) {
    setObjectName("whatIfPanel");
    preset_ = new QComboBox(this);
    preset_->setObjectName("presetBox");
    for (const std::string& id : hardwarePresetIds()) preset_->addItem(toQString(id));
    preset_->addItem(tr("Machine file…"));  // always last: asks for a spillway.hardware/1 file
    preset_->setToolTip(tr("Start from this machine; the values below override it. \"Machine file…\" adds one "
                           "that spillway-calibrate measured"));
    policy_ = new QComboBox(this);
    policy_->setObjectName("policyBox");
    for (const PlannerInfo& p : planners()) {
        policy_->addItem(toQString(p.id));
        policy_->setItemData(policy_->count() - 1, toQString(p.description), Qt::ToolTipRole);
        for (const PlanModifierInfo& m : planModifiers()) policy_->addItem(toQString(p.id + "+" + m.id));
    }
    // Enough digits to show a preset's value as it is: 1 MiB steps of memory, 1 MB/s of bandwidth.
    gpu_ = spin(this, "gpuBox", 4096, 3, tr(" GiB"), tr("GPU memory available to the profile"));
    host_ = spin(this, "hostBox", 65536, 3, tr(" GiB"), tr("Host memory for evicted data (0 = SSD only)"));
    ssd_ = spin(this, "ssdBox", 1000, 3, tr(" GB/s"), tr("SSD bandwidth, every SSD link"));
    pcie_ = spin(this, "pcieBox", 1000, 3, tr(" GB/s"), tr("Host<->GPU bandwidth, each direction"));
    fault_ = spin(this, "faultBox", 100000, 3, tr(" µs"), tr("Fault handling latency per batch"));
    batch_ = new QSpinBox(this);
    batch_->setObjectName("faultBatchBox");
    batch_->setRange(1, 1 << 20);
    batch_->setSuffix(tr(" pages"));
    batch_->setToolTip(tr("4 KiB pages the UVM driver handles per fault batch"));
    batch_->setKeyboardTracking(false);
    order_ = new QComboBox(this);
    order_->setObjectName("orderBox");
    for (const std::string& n : orderMethodNames()) order_->addItem(toQString(n));
    order_->setToolTip(tr("Operator order the layout is planned for (Offsets tab); the simulation replays the "
                          "profile's order"));
    placement_ = new QComboBox(this);
    placement_->setObjectName("placementBox");
    for (const std::string& n : placementMethodNames()) placement_->addItem(toQString(n));
    placement_->setCurrentText("best");
    placement_->setToolTip(tr("How tensors are placed in the arena (Offsets tab)"));
    auto* form = new QFormLayout(this);
    form->addRow(tr("&Machine"), preset_);
    form->addRow(tr("&GPU memory"), gpu_);
    form->addRow(tr("&Host memory"), host_);
    form->addRow(tr("&SSD bandwidth"), ssd_);
    form->addRow(tr("&PCIe bandwidth"), pcie_);
    form->addRow(tr("&Fault latency"), fault_);
    form->addRow(tr("Fault &batch"), batch_);
    form->addRow(tr("P&olicy"), policy_);
    form->addRow(tr("O&rder"), order_);
    form->addRow(tr("Pl&acement"), placement_);
    buildButtons(form);
    connect(preset_, &QComboBox::currentIndexChanged, this, &WhatIfPanel::machinePicked);
    for (QComboBox* box : {policy_, order_, placement_})
        connect(box, &QComboBox::currentTextChanged, this, &WhatIfPanel::emitChange);
    connect(batch_, &QSpinBox::valueChanged, this, [this](int v) { boxEdited(&WhatIfSettings::faultBatchPages, v, 1); });
    const std::pair<QDoubleSpinBox*, std::pair<qint64 WhatIfSettings::*, double>> fields[] = {
        {gpu_, {&WhatIfSettings::gpuBytes, kGiB}},
        {host_, {&WhatIfSettings::hostBytes, kGiB}},
        {ssd_, {&WhatIfSettings::ssdBytesPerSecond, kGBps}},
        {pcie_, {&WhatIfSettings::pcieBytesPerSecond, kGBps}},
        {fault_, {&WhatIfSettings::faultLatencyNs, 1000.0}}};
    for (const auto& [box, field] : fields)
        connect(box, &QDoubleSpinBox::valueChanged, this,
                [this, f = field](double v) { boxEdited(f.first, v, f.second); });
    quiet_ = true;
    loadPreset(machineAt(0));
    quiet_ = false;
    emitted_ = settings();
}

void WhatIfPanel::buildButtons(QFormLayout* form) {
    auto* reset = new QPushButton(tr("&Reset"), this);
    reset->setObjectName("resetWhatIfButton");
    reset->setToolTip(tr("Back to the machine's own values (the policy and the layout methods stay)"));
    undo_ = new QPushButton(tr("&Undo"), this);
    undo_->setObjectName("undoWhatIfButton");
    undo_->setToolTip(tr("The settings before the last change"));
    undo_->setEnabled(false);
    auto* row = new QHBoxLayout;
    row->addWidget(reset);
    row->addWidget(undo_);
    form->addRow(row);
    connect(reset, &QPushButton::clicked, this, &WhatIfPanel::resetToMachine);
    connect(undo_, &QPushButton::clicked, this, &WhatIfPanel::undo);
}

void WhatIfPanel::boxEdited(qint64 WhatIfSettings::*field, double value, double unit) {
    if (quiet_) return;  // a value shown, not typed
    exact_.*field = std::llround(value * unit);
    emitChange();
}

void WhatIfPanel::resetToMachine() {
    loadPreset(machineAt(current_));
    emitChange();
}

bool WhatIfPanel::undo() {
    if (history_.empty()) return false;
    const WhatIfSettings previous = history_.back();
    history_.pop_back();
    setSettings(previous);
    emitted_ = previous;
    undo_->setEnabled(canUndo());
    emit settingsChanged(previous);
    return true;
}

QString WhatIfPanel::machineAt(int index) const {
    const QVariant path = preset_->itemData(index);
    return path.isValid() ? path.toString() : preset_->itemText(index);
}

void WhatIfPanel::machinePicked(int index) {
    if (index < 0) return;
    if (index == preset_->count() - 1) {  // "Machine file…"
        const QSignalBlocker block(preset_);
        preset_->setCurrentIndex(current_);
        emit machineFileRequested();
        return;
    }
    current_ = index;
    loadPreset(machineAt(index));
    emitChange();
}

bool WhatIfPanel::addMachineFile(const QString& path, QString* error) {
    HardwareConfig hw;
    try {
        hw = loadHardware(path.toStdString());
    } catch (const std::exception& e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
    if (preset_->findData(path) >= 0) return true;
    const QSignalBlocker block(preset_);
    preset_->insertItem(preset_->count() - 1, tr("%1 (%2)").arg(toQString(hw.id), QFileInfo(path).fileName()), path);
    preset_->setItemData(preset_->count() - 2, path, Qt::ToolTipRole);
    return true;
}

void WhatIfPanel::loadPreset(const QString& id) {
    if (id.isEmpty()) return;
    const WhatIfSettings machine = whatIfSettingsOf(loadHardware(id.toStdString()), exact_.policy.toStdString());
    exact_.gpuBytes = machine.gpuBytes;
    exact_.hostBytes = machine.hostBytes;
    exact_.ssdBytesPerSecond = machine.ssdBytesPerSecond;
    exact_.pcieBytesPerSecond = machine.pcieBytesPerSecond;
    exact_.faultLatencyNs = machine.faultLatencyNs;
    exact_.faultBatchPages = std::min<qint64>(machine.faultBatchPages, batch_->maximum());
    showValues();
}

void WhatIfPanel::showValues() {
    const bool wasQuiet = quiet_;
    quiet_ = true;
    gpu_->setValue(double(exact_.gpuBytes) / kGiB);
    host_->setValue(double(exact_.hostBytes) / kGiB);
    ssd_->setValue(double(exact_.ssdBytesPerSecond) / kGBps);
    pcie_->setValue(double(exact_.pcieBytesPerSecond) / kGBps);
    fault_->setValue(double(exact_.faultLatencyNs) / 1000.0);
    if (exact_.faultBatchPages > 0) batch_->setValue(int(std::min<qint64>(exact_.faultBatchPages, batch_->maximum())));
    quiet_ = wasQuiet;
}

WhatIfSettings WhatIfPanel::settings() const {
    WhatIfSettings s = exact_;
    s.preset = machineAt(preset_->currentIndex());
    s.policy = policy_->currentText();
    s.order = order_->currentText();
    s.placement = placement_->currentText();
    return s;
}

void WhatIfPanel::setSettings(const WhatIfSettings& s) {
    quiet_ = true;
    if (const int i = indexOfMachine(s.preset); i >= 0) {
        preset_->setCurrentIndex(i);
        current_ = i;
    }
    policy_->setCurrentText(s.policy);
    const qint64 batch = exact_.faultBatchPages;
    exact_ = s;
    if (s.faultBatchPages <= 0) exact_.faultBatchPages = batch;  // 0: the machine's (older saved states)
    showValues();
    if (order_->findText(s.order) >= 0) order_->setCurrentText(s.order);
    if (placement_->findText(s.placement) >= 0) placement_->setCurrentText(s.placement);
    quiet_ = false;
    emitted_ = settings();  // shown, not changed: nothing to undo
}

int WhatIfPanel::indexOfMachine(const QString& id) const {
    if (const int i = preset_->findData(id); i >= 0) return i;
    const int i = preset_->findText(id);
    return i == preset_->count() - 1 ? -1 : i;  // not "Machine file…"
}

void WhatIfPanel::selectPreset(const QString& id) {
    if (indexOfMachine(id) < 0 && (id.contains('/') || id.endsWith(".json"))) addMachineFile(id, nullptr);
    const int i = indexOfMachine(id);
    if (i < 0) return;
    quiet_ = true;
    preset_->setCurrentIndex(i);  // loads the machine's values through machinePicked
    current_ = i;
    loadPreset(id);
    quiet_ = false;
    emitted_ = settings();
}

void WhatIfPanel::emitChange() {
    if (quiet_) return;
    const WhatIfSettings now = settings();
    if (now == emitted_) return;
    history_.push_back(emitted_);
    emitted_ = now;
    undo_->setEnabled(true);
    emit settingsChanged(now);
}

}  // namespace spillway::views
