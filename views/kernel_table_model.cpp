#include "views/kernel_table_model.h"

#include "views/format_units.h"
#include "views/table_roles.h"

namespace spillway::views {

namespace {

bool isNumeric(int column) {
    return column != KernelTableModel::Name && column != KernelTableModel::Op &&
           column != KernelTableModel::Phase;
}

}  // namespace

KernelTableModel::KernelTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void KernelTableModel::setViewData(std::shared_ptr<const ProfileViewData> data) {
    beginResetModel();
    data_ = std::move(data);
    endResetModel();
}

int KernelTableModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !data_) return 0;
    return static_cast<int>(data_->profile->kernels.size());
}

int KernelTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant KernelTableModel::sortValue(int row, int column) const {
    const auto& k = data_->profile->kernels[static_cast<size_t>(row)];
    switch (column) {
    case Position: return qint64(row);
    case Id: return qint64(k.id);
    case Name: return toQString(k.name);
    case Op: return toQString(k.op);
    case Phase: return toQString(toString(k.phase));
    case Duration: return qint64(k.duration);
    case InputCount: return qint64(k.inputs.size());
    case OutputCount: return qint64(k.outputs.size());
    case InputBytes: return qint64(data_->kernelInputBytes[static_cast<size_t>(row)]);
    case OutputBytes: return qint64(data_->kernelOutputBytes[static_cast<size_t>(row)]);
    case Workspace: return qint64(k.workspaceBytes);
    }
    return {};
}

QVariant KernelTableModel::displayValue(int row, int column) const {
    const auto& k = data_->profile->kernels[static_cast<size_t>(row)];
    switch (column) {
    case Duration: return formatDuration(k.duration);
    case InputBytes: return formatBytes(data_->kernelInputBytes[static_cast<size_t>(row)]);
    case OutputBytes: return formatBytes(data_->kernelOutputBytes[static_cast<size_t>(row)]);
    case Workspace: return k.workspaceBytes ? formatBytes(k.workspaceBytes) : QString();
    default: return sortValue(row, column);
    }
}

QString KernelTableModel::toolTip(int row) const {
    const auto& k = data_->profile->kernels[static_cast<size_t>(row)];
    const auto r = static_cast<size_t>(row);
    return tr("<b>%1</b><br>operator: %2<br>kernel #%3 (id %4), %5 phase<br>"
              "duration: %6 ns<br>inputs: %7 tensors, %8 bytes<br>outputs: %9 tensors, %10 bytes"
              "<br>workspace: %11 bytes")
        .arg(toQString(k.name).toHtmlEscaped(), toQString(k.op).toHtmlEscaped())
        .arg(row)
        .arg(k.id)
        .arg(toQString(toString(k.phase)))
        .arg(k.duration)
        .arg(k.inputs.size())
        .arg(data_->kernelInputBytes[r])
        .arg(k.outputs.size())
        .arg(data_->kernelOutputBytes[r])
        .arg(k.workspaceBytes);
}

QVariant KernelTableModel::data(const QModelIndex& index, int role) const {
    if (!data_ || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    switch (role) {
    case Qt::DisplayRole: return displayValue(index.row(), index.column());
    case kSortRole: return sortValue(index.row(), index.column());
    case Qt::ToolTipRole: return toolTip(index.row());
    case Qt::TextAlignmentRole:
        return isNumeric(index.column()) ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                         : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    default: return {};
    }
}

QVariant KernelTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    static const char* const titles[ColumnCount] = {
        QT_TR_NOOP("#"),        QT_TR_NOOP("Id"),      QT_TR_NOOP("Name"),
        QT_TR_NOOP("Operator"), QT_TR_NOOP("Phase"),   QT_TR_NOOP("Duration"),
        QT_TR_NOOP("Inputs"),   QT_TR_NOOP("Outputs"), QT_TR_NOOP("Input bytes"),
        QT_TR_NOOP("Output bytes"), QT_TR_NOOP("Workspace")};
    static const char* const tips[ColumnCount] = {
        QT_TR_NOOP("Position in program (captured) order"),
        QT_TR_NOOP("Kernel id in the profile"),
        QT_TR_NOOP("Kernel name"),
        QT_TR_NOOP("Framework operator the kernel belongs to"),
        QT_TR_NOOP("Training phase"),
        QT_TR_NOOP("Run time with every tensor resident in GPU memory"),
        QT_TR_NOOP("Number of tensors read"),
        QT_TR_NOOP("Number of tensors written"),
        QT_TR_NOOP("Total size of the tensors read"),
        QT_TR_NOOP("Total size of the tensors written"),
        QT_TR_NOOP("Scratch memory live only while the kernel runs")};
    if (role == Qt::DisplayRole) return tr(titles[section]);
    if (role == Qt::ToolTipRole) return tr(tips[section]);
    return {};
}

}  // namespace spillway::views
