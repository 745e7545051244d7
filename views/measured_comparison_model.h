#pragma once
// The per-kernel table of a measured-vs-simulated comparison (core/deploy/measured_comparison):
// one row per kernel in run order; start and duration, simulated and measured, and their
// errors (measured - simulated, "+" when the real run was slower). Display text is readable;
// kSortRole gives raw nanoseconds, so sorting by an error column lists the worst kernels.
// Against the replay model (runtime/replay/replay_model_comparison.h) the "simulated" columns
// are the model's and a Why column says, per kernel, what made the difference.
#include "core/deploy/measured_comparison.h"

#include <QAbstractTableModel>
#include <QString>

#include <vector>

namespace spillway::views {

class MeasuredComparisonModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { RunIndex, Kernel, SimulatedStart, MeasuredStart, StartError, SimulatedDuration,
                  MeasuredDuration, DurationError, Why, ColumnCount };

    explicit MeasuredComparisonModel(QObject* parent = nullptr);

    // Resets the model. `why`: per kernel in run order (empty: no reasons); `againstModel`: the
    // other side is the replay model, not a simulation.
    void setComparison(MeasuredComparison comparison, std::vector<QString> why = {}, bool againstModel = false);
    bool againstModel() const { return againstModel_; }
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
    std::vector<QString> why_;
    bool againstModel_ = false;
};

}  // namespace spillway::views
