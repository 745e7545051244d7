#pragma once
// A parameter sweep as MOST's Figure 8 draws it: speedup over the first policy against the swept
// value (a hardware value, or the batch size of a sweep over batch profiles), one line per
// policy; below it, the share of each iteration spent stalled (faults, oversubscription, late
// prefetch), the same lines. Plain drawing of a finished SweepResult; the app runs the sweep on
// a worker thread with progress.
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
    QCustomPlot* stallPlot() const { return stallPlot_; }
    // The drawn speedup of policy `policyIndex` at value `valueIndex` (NaN where the cell failed).
    double plottedSpeedup(int policyIndex, int valueIndex) const;
    // The drawn stall share in percent (100 x (iteration - compute) / iteration; NaN where failed).
    double plottedStallShare(int policyIndex, int valueIndex) const;
    // What a point's tooltip says (the policy, the swept value, the cell's time, its speedup or
    // stall share; why it did not run).
    QString describeCell(const class QCPAbstractPlottable& line, int index, bool stalls) const;
    // What the chart says before any sweep, instead of an empty legend and axes.
    static QString emptyStateText();

private:
    void showEmptyState();

    std::shared_ptr<const SweepResult> result_;
    QCustomPlot* plot_;
    QCustomPlot* stallPlot_;
};

}  // namespace spillway::views
