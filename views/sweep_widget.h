#pragma once
// A parameter sweep as MOST's Figure 8 draws it: speedup over the first policy against the swept
// value, one line per policy, and the iteration times in each point's tool tip. Plain drawing
// of a finished SweepResult; the app runs the sweep on a worker thread with progress.
#include "core/sweep/parameter_sweep.h"

#include <QWidget>

#include <memory>

class QCustomPlot;

namespace spillway::views {

class SweepWidget : public QWidget {
    Q_OBJECT
public:
    explicit SweepWidget(QWidget* parent = nullptr);

    void setResult(std::shared_ptr<const SweepResult> result);

    QCustomPlot* plot() const { return plot_; }
    // The drawn speedup of policy `policyIndex` at value `valueIndex` (NaN where the cell failed).
    double plottedSpeedup(int policyIndex, int valueIndex) const;

private:
    std::shared_ptr<const SweepResult> result_;
    QCustomPlot* plot_;
};

}  // namespace spillway::views
