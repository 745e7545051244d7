#pragma once
// The what-if panel: the machine (preset, GPU and host memory, SSD and PCIe bandwidth, fault
// latency and batch), the migration policy, and the order and placement methods of the layout.
// Every change emits the whole new setting at once; picking a preset resets the values to the
// preset's. The values are kept exactly (bytes, bytes per second, nanoseconds) until the user
// edits one: the boxes show them rounded, and only the edited one takes the box's value, so an
// untouched PCIe of 15.754 GB/s stays 15,754,000,000 bytes/s and a run or an exported plan equals
// the CLI's on the same --set. "Reset" goes back to the machine's values; "Undo" steps back
// through the changes. It only edits settings: the app simulates them.
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
    QDoubleSpinBox* pcieBox() const { return pcie_; }

    // The machine's own values again (the policy and layout methods stay); emits the change.
    void resetToMachine();
    // The settings before the last change, emitted; false when there is none.
    bool undo();
    bool canUndo() const { return !history_.empty(); }

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
    // A box the user edited: its field takes the box's value in `unit`s.
    void boxEdited(qint64 WhatIfSettings::*field, double value, double unit);
    void showValues();
    void buildButtons(class QFormLayout* form);

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
    class QPushButton* undo_ = nullptr;
    bool quiet_ = false;
    int current_ = 0;  // the machine shown, so "Machine file…" can go back to it
    WhatIfSettings exact_;                  // what settings() returns; the boxes show it rounded
    WhatIfSettings emitted_;                // the last settings emitted (or shown), for undo
    std::vector<WhatIfSettings> history_;  // settings before each change, oldest first
};

}  // namespace spillway::views
