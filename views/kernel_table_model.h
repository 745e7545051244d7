#pragma once
// One row per kernel of a profile, in program order. The model never changes a profile: it
// shows one immutable ProfileViewData and resets when it is given another.
#include "views/profile_view_data.h"

#include <QAbstractTableModel>

#include <memory>

namespace spillway::views {

class KernelTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Position,
        Id,
        Name,
        Op,
        Phase,
        Duration,
        InputCount,
        OutputCount,
        InputBytes,
        OutputBytes,
        Workspace,
        ColumnCount
    };

    explicit KernelTableModel(QObject* parent = nullptr);

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
    QString toolTip(int row) const;

    std::shared_ptr<const ProfileViewData> data_;
};

}  // namespace spillway::views
