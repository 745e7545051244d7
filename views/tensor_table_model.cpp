#include "views/tensor_table_model.h"

#include "views/format_units.h"
#include "views/table_roles.h"

namespace spillway::views {

namespace {

// Numbers are right-aligned; names and kernel labels ("#3 relu_kernel") read from the left.
bool isRightAligned(int column) {
    return column == TensorTableModel::Id || column == TensorTableModel::Size ||
           column == TensorTableModel::Uses;
}

}  // namespace

TensorTableModel::TensorTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void TensorTableModel::setViewData(std::shared_ptr<const ProfileViewData> data) {
    beginResetModel();
    data_ = std::move(data);
    endResetModel();
}

int TensorTableModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !data_) return 0;
    return static_cast<int>(data_->profile->tensors.size());
}

int TensorTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

// Kernel positions sort numerically; "none" (-1) sorts before every kernel.
QVariant TensorTableModel::sortValue(int row, int column) const {
    const auto r = static_cast<size_t>(row);
    const auto& t = data_->profile->tensors[r];
    const auto& live = data_->liveness.tensors[r];
    switch (column) {
    case Id: return qint64(t.id);
    case Name: return toQString(t.name);
    case Kind: return toQString(toString(t.kind));
    case Size: return qint64(t.bytes);
    case Persistent: return t.persistent ? tr("yes") : tr("no");
    case Producer: return qint64(data_->tensorProducer[r]);
    case FirstUse: return qint64(live.firstUse);
    case LastUse: return qint64(live.lastUse);
    case Uses: return qint64(live.uses.size());
    }
    return {};
}

QString TensorTableModel::kernelLabel(std::int64_t kernelPos) const {
    if (kernelPos < 0) return QStringLiteral("—");
    return QStringLiteral("#%1 %2").arg(kernelPos).arg(toQString(data_->profile->kernels[static_cast<size_t>(kernelPos)].name));
}

QVariant TensorTableModel::displayValue(int row, int column) const {
    const auto r = static_cast<size_t>(row);
    switch (column) {
    case Size: return formatBytes(data_->profile->tensors[r].bytes);
    case Producer: return kernelLabel(data_->tensorProducer[r]);
    case FirstUse: return kernelLabel(data_->liveness.tensors[r].firstUse);
    case LastUse: return kernelLabel(data_->liveness.tensors[r].lastUse);
    default: return sortValue(row, column);
    }
}

QString TensorTableModel::toolTip(int row) const {
    const auto r = static_cast<size_t>(row);
    const auto& t = data_->profile->tensors[r];
    const auto& live = data_->liveness.tensors[r];
    QString tip = tr("<b>%1</b><br>id %2, %3, job %4<br>%5 bytes (%6)%7")
                      .arg(toQString(t.name).toHtmlEscaped())
                      .arg(t.id)
                      .arg(toQString(toString(t.kind)))
                      .arg(t.job)
                      .arg(t.bytes)
                      .arg(formatBytes(t.bytes),
                           t.persistent ? tr("<br>persistent: lives across iterations") : QString());
    if (live.uses.empty()) return tip + tr("<br>not used by any kernel");
    return tip + tr("<br>produced by %1<br>used by %2 kernels, from %3 to %4")
                     .arg(kernelLabel(data_->tensorProducer[r]).toHtmlEscaped())
                     .arg(live.uses.size())
                     .arg(kernelLabel(live.firstUse).toHtmlEscaped(), kernelLabel(live.lastUse).toHtmlEscaped());
}

QVariant TensorTableModel::data(const QModelIndex& index, int role) const {
    if (!data_ || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    switch (role) {
    case Qt::DisplayRole: return displayValue(index.row(), index.column());
    case kSortRole: return sortValue(index.row(), index.column());
    case Qt::ToolTipRole: return toolTip(index.row());
    case Qt::TextAlignmentRole:
        return isRightAligned(index.column()) ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                              : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    default: return {};
    }
}

QVariant TensorTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    static const char* const titles[ColumnCount] = {
        QT_TR_NOOP("Id"),       QT_TR_NOOP("Name"),      QT_TR_NOOP("Kind"),
        QT_TR_NOOP("Size"),     QT_TR_NOOP("Persistent"), QT_TR_NOOP("Producer"),
        QT_TR_NOOP("First use"), QT_TR_NOOP("Last use"), QT_TR_NOOP("Uses")};
    static const char* const tips[ColumnCount] = {
        QT_TR_NOOP("Tensor id in the profile"),
        QT_TR_NOOP("Tensor name"),
        QT_TR_NOOP("What the tensor holds (weight, activation, gradient, ...)"),
        QT_TR_NOOP("Size in bytes"),
        QT_TR_NOOP("Survives the iteration (weights, optimizer state)"),
        QT_TR_NOOP("First kernel that writes the tensor"),
        QT_TR_NOOP("First kernel that reads or writes the tensor"),
        QT_TR_NOOP("Last kernel that reads or writes the tensor"),
        QT_TR_NOOP("Number of kernels that read or write the tensor")};
    if (role == Qt::DisplayRole) return tr(titles[section]);
    if (role == Qt::ToolTipRole) return tr(tips[section]);
    return {};
}

}  // namespace spillway::views
