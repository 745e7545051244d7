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
    // Picks a preset and shows its values, without emitting settingsChanged; unknown ids are ignored.
    void selectPreset(const QString& id);

    QComboBox* presetBox() const { return preset_; }
    QComboBox* policyBox() const { return policy_; }
    QDoubleSpinBox* gpuBox() const { return gpu_; }
    QDoubleSpinBox* ssdBox() const { return ssd_; }
    QSpinBox* faultBatchBox() const { return batch_; }
    QComboBox* orderBox() const { return order_; }
    QComboBox* placementBox() const { return placement_; }

signals:
    void settingsChanged(const spillway::views::WhatIfSettings& settings);

private:
    void loadPreset(const QString& id);
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
};

}  // namespace spillway::views
