#include "views/workload_metrics_model.h"

#include "views/format_units.h"
#include "views/table_roles.h"

#include <QFont>

namespace spillway::views {

WorkloadMetricsModel::WorkloadMetricsModel(QObject* parent) : QAbstractTableModel(parent) {}

void WorkloadMetricsModel::setMetrics(const WorkloadMetrics& metrics, const QStringList& jobNames) {
    beginResetModel();
    metrics_ = metrics;
    names_ = jobNames;
    filled_ = true;
    endResetModel();
}

void WorkloadMetricsModel::clear() {
    beginResetModel();
    metrics_ = {};
    names_.clear();
    filled_ = false;
    endResetModel();
}

int WorkloadMetricsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !filled_ ? 0 : static_cast<int>(metrics_.jobs.size()) + 1;
}

int WorkloadMetricsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

const SavingMetrics& WorkloadMetricsModel::rowMetrics(int row) const {
    return row < systemRow() ? metrics_.jobs[size_t(row)] : metrics_.system;
}

QVariant WorkloadMetricsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
    const SavingMetrics& m = rowMetrics(index.row());
    const bool system = index.row() == systemRow();
    if (role == kSortRole) {
        switch (index.column()) {
        case Job: return system ? tr("system") : names_.value(index.row());
        case Peak: return qint64(m.peak);
        case VanillaPeak: return qint64(m.vanillaPeak);
        case Time: return qint64(m.time);
        case VanillaTime: return qint64(m.vanillaTime);
        case Msr: return m.msr;
        case Eor: return m.eor;
        case Cbr: return m.cbr ? QVariant(*m.cbr) : QVariant();
        }
    }
    if (role == Qt::DisplayRole) {
        auto percent = [](double ratio) { return QStringLiteral("%1 %").arg(ratio * 100.0, 0, 'f', 1); };
        switch (index.column()) {
        case Job: return system ? tr("system (all jobs)") : names_.value(index.row());
        case Peak: return formatBytes(m.peak);
        case VanillaPeak: return formatBytes(m.vanillaPeak);
        case Time: return formatDuration(m.time);
        case VanillaTime: return formatDuration(m.vanillaTime);
        case Msr: return percent(m.msr);
        case Eor: return percent(m.eor);
        case Cbr: return m.cbr ? QString::number(*m.cbr, 'f', 2) : QStringLiteral("-");
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() != Job) return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::FontRole && system) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    if (role == Qt::ToolTipRole && index.column() == Cbr && !m.cbr)
        return tr("no extra time against vanilla: the saving is free, the ratio has no finite value");
    return {};
}

QVariant WorkloadMetricsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Job: return tr("Job");
        case Peak: return tr("Peak GPU");
        case VanillaPeak: return tr("Vanilla peak");
        case Time: return tr("Time");
        case VanillaTime: return tr("Vanilla time");
        case Msr: return tr("MSR");
        case Eor: return tr("EOR");
        case Cbr: return tr("CBR");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Msr: return tr("Memory saving ratio: 1 - peak / vanilla peak");
        case Eor: return tr("Extra overhead ratio: time / vanilla time - 1");
        case Cbr: return tr("Cost-benefit ratio: MSR / EOR (only when EOR > 0)");
        case Time: return tr("From the job's start to its last iteration's end (system: first start to last end)");
        default: break;
        }
    }
    return {};
}

}  // namespace spillway::views
