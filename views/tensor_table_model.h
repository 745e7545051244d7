#pragma once
// One row per tensor of a profile, with when it is needed: the first kernel writing it, its
// first and last use and how many kernels touch it. Rebinds to an immutable ProfileViewData.
#include "views/profile_view_data.h"

#include <QAbstractTableModel>

#include <memory>

namespace spillway::views {

class TensorTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Id, Name, Kind, Size, Persistent, Producer, FirstUse, LastUse, Uses, ColumnCount };

    explicit TensorTableModel(QObject* parent = nullptr);

    // nullptr shows nothing.
    void setViewData(std::shared_ptr<const ProfileViewData> data);
    const std::shared_ptr<const ProfileViewData>& viewData() const { return data_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant sortValue(int row, int column) const;
    QVariant displayValue(int row, int column) const;
    QString kernelLabel(std::int64_t kernelPos) const;
    QString toolTip(int row) const;

    std::shared_ptr<const ProfileViewData> data_;
};

}  // namespace spillway::views
