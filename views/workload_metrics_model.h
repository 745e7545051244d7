#pragma once
// TENSILE's metrics of a multi-job run against its vanilla run (core/sim/workload_metrics.h) as a
// table: one row per job, then the system. Display text is formatted ("1.20 GiB", "22.0 %",
// "-" for a CBR without extra time); kSortRole gives the raw values (bytes, ns, ratios as
// doubles, an absent CBR as an invalid QVariant).
#include "core/sim/workload_metrics.h"

#include <QAbstractTableModel>
#include <QStringList>

namespace spillway::views {

class WorkloadMetricsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Job, Peak, VanillaPeak, Time, VanillaTime, Msr, Eor, Cbr, ColumnCount };

    explicit WorkloadMetricsModel(QObject* parent = nullptr);

    // `jobNames` parallel to metrics.jobs.
    void setMetrics(const WorkloadMetrics& metrics, const QStringList& jobNames);
    void clear();
    int systemRow() const { return static_cast<int>(metrics_.jobs.size()); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    const SavingMetrics& rowMetrics(int row) const;

    WorkloadMetrics metrics_;
    QStringList names_;
    bool filled_ = false;
};

}  // namespace spillway::views
