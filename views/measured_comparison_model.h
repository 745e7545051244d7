#pragma once
// The per-kernel table of a measured-vs-simulated comparison (core/deploy/measured_comparison):
// one row per kernel in run order; start and duration, simulated and measured, and their
// errors (measured - simulated, "+" when the real run was slower). Display text is readable;
// kSortRole gives raw nanoseconds, so sorting by an error column lists the worst kernels.
#include "core/deploy/measured_comparison.h"

#include <QAbstractTableModel>

namespace spillway::views {

class MeasuredComparisonModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { RunIndex, Kernel, SimulatedStart, MeasuredStart, StartError, SimulatedDuration,
                  MeasuredDuration, DurationError, ColumnCount };

    explicit MeasuredComparisonModel(QObject* parent = nullptr);

    // Resets the model.
    void setComparison(MeasuredComparison comparison);
    void clear();
    const MeasuredComparison& comparison() const { return comparison_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The raw number of a time column (ns), or the run index.
    std::int64_t value(int row, int column) const;

private:
    MeasuredComparison comparison_;
};

}  // namespace spillway::views
