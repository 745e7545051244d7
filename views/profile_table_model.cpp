#include "views/profile_table_model.h"

#include "views/table_roles.h"

namespace spillway::views {

ProfileTableModel::ProfileTableModel(std::vector<ColumnHeader> headers, QObject* parent)
    : QAbstractTableModel(parent), headers_(std::move(headers)) {}

void ProfileTableModel::setViewData(std::shared_ptr<const ProfileViewData> data) {
    beginResetModel();
    data_ = std::move(data);
    endResetModel();
}

int ProfileTableModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !data_) return 0;
    return rowsIn(*data_);
}

int ProfileTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(headers_.size());
}

QVariant ProfileTableModel::data(const QModelIndex& index, int role) const {
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

QVariant ProfileTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= static_cast<int>(headers_.size())) return {};
    const ColumnHeader& header = headers_[static_cast<size_t>(section)];
    if (role == Qt::DisplayRole) return translate(header.title);
    if (role == Qt::ToolTipRole) return translate(header.tip);
    return {};
}

}  // namespace spillway::views
