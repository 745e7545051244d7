#pragma once
// The what-if panel: the machine (preset, GPU and host memory, SSD and PCIe bandwidth, fault
// latency and batch), the migration policy, and the order and placement methods of the layout. Every change emits the whole new setting at once; picking
// a preset resets the values to the preset's. It only edits settings: the app simulates them.
#include "views/what_if_settings.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;

namespace spillway::views {

class WhatIfPanel : public QWidget {
    Q_OBJECT
public:
    explicit WhatIfPanel(QWidget* parent = nullptr);

    WhatIfSettings settings() const;
    // Shows these values without emitting settingsChanged (restoring a saved state).
    void setSettings(const WhatIfSettings& settings);
    // Picks a preset (or a machine file, added first) and shows its values, without emitting
    // settingsChanged; unknown ids and files that do not load are ignored.
    void selectPreset(const QString& id);
    // Adds a spillway.hardware/1 file (what spillway-calibrate writes) to the machine list as
    // "<id> (file name)"; the settings then name its path. Does not select it. On a file that
    // does not load, returns false and says why in `error` (the file and the JSON pointer).
    bool addMachineFile(const QString& path, QString* error);

    QComboBox* presetBox() const { return preset_; }
    QComboBox* policyBox() const { return policy_; }
    QDoubleSpinBox* gpuBox() const { return gpu_; }
    QDoubleSpinBox* ssdBox() const { return ssd_; }
    QSpinBox* faultBatchBox() const { return batch_; }
    QComboBox* orderBox() const { return order_; }
    QComboBox* placementBox() const { return placement_; }

signals:
    void settingsChanged(const spillway::views::WhatIfSettings& settings);
    // The user picked the list's last entry, "Machine file…": the app asks for a file and calls
    // addMachineFile. The previous machine stays selected.
    void machineFileRequested();

private:
    void loadPreset(const QString& id);
    // A preset's id, or a machine file's path (the item's data).
    QString machineAt(int index) const;
    int indexOfMachine(const QString& id) const;  // -1 when not in the list
    void machinePicked(int index);
    void emitChange();

    QComboBox* preset_;
    QComboBox* policy_;
    QDoubleSpinBox* gpu_;    // GiB
    QDoubleSpinBox* host_;   // GiB
    QDoubleSpinBox* ssd_;    // GB/s
    QDoubleSpinBox* pcie_;   // GB/s
    QDoubleSpinBox* fault_;  // us
    QSpinBox* batch_;        // pages per fault batch
    QComboBox* order_;
    QComboBox* placement_;
    bool quiet_ = false;
    int current_ = 0;  // the machine shown, so "Machine file…" can go back to it
};

}  // namespace spillway::views
