#include "views/measured_comparison_model.h"

#include "views/format_units.h"
#include "views/table_roles.h"

namespace spillway::views {

namespace {

bool isError(int column) {
    return column == MeasuredComparisonModel::StartError || column == MeasuredComparisonModel::DurationError;
}

}  // namespace

MeasuredComparisonModel::MeasuredComparisonModel(QObject* parent) : QAbstractTableModel(parent) {}

void MeasuredComparisonModel::setComparison(MeasuredComparison comparison, std::vector<QString> why, bool againstModel) {
    beginResetModel();
    comparison_ = std::move(comparison);
    why_ = std::move(why);
    againstModel_ = againstModel;
    endResetModel();
    emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

void MeasuredComparisonModel::clear() { setComparison({}); }

int MeasuredComparisonModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(comparison_.kernels.size());
}

int MeasuredComparisonModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

std::int64_t MeasuredComparisonModel::value(int row, int column) const {
    const KernelError& k = comparison_.kernels.at(static_cast<std::size_t>(row));
    switch (column) {
        case RunIndex: return k.runIndex;
        case SimulatedStart: return k.simulatedStart;
        case MeasuredStart: return k.measuredStart;
        case StartError: return k.startError;
        case SimulatedDuration: return k.simulatedDuration;
        case MeasuredDuration: return k.measuredDuration;
        case DurationError: return k.durationError;
        default: return 0;
    }
}

QVariant MeasuredComparisonModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
    const int column = index.column();
    const KernelError& k = comparison_.kernels[static_cast<std::size_t>(index.row())];
    if (column == Why) {
        const auto r = static_cast<std::size_t>(k.runIndex);
        const QString why = r < why_.size() ? why_[r] : QString();
        return role == Qt::DisplayRole || role == Qt::ToolTipRole || role == kSortRole ? QVariant(why) : QVariant();
    }
    if (role == kSortRole) {
        if (column == Kernel) return QString::fromStdString(k.name);
        return QVariant::fromValue<qint64>(value(index.row(), column));
    }
    if (role == Qt::DisplayRole) {
        if (column == Kernel) return QString::fromStdString(k.name);
        if (column == RunIndex) return QString::number(k.runIndex);
        const std::int64_t v = value(index.row(), column);
        return (isError(column) && v > 0 ? QStringLiteral("+") : QString()) + formatDuration(v);
    }
    if (role == Qt::TextAlignmentRole && column != Kernel) return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && column == Kernel)
        return tr("%1: kernel position %2 in the profile").arg(QString::fromStdString(k.name)).arg(k.position);
    return {};
}

QVariant MeasuredComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
        case RunIndex: return tr("#");
        case Kernel: return tr("Kernel");
        case SimulatedStart: return againstModel_ ? tr("Model start") : tr("Simulated start");
        case MeasuredStart: return tr("Measured start");
        case StartError: return tr("Start error");
        case SimulatedDuration: return againstModel_ ? tr("Model") : tr("Simulated");
        case MeasuredDuration: return tr("Measured");
        case DurationError: return tr("Error");
        case Why: return tr("Why");
        default: return {};
    }
}

}  // namespace spillway::views
