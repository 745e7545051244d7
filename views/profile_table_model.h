#pragma once
// The plumbing every table over one immutable ProfileViewData shares: binding (a reset per new
// profile), row and column counts, and the role dispatch (display, sort, tool tip, alignment,
// header titles and tips). A subclass says how many rows a profile has and what each cell is.
#include "views/profile_view_data.h"

#include <QAbstractTableModel>

#include <memory>

namespace spillway::views {

class ProfileTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // nullptr shows nothing.
    void setViewData(std::shared_ptr<const ProfileViewData> data);
    const std::shared_ptr<const ProfileViewData>& viewData() const { return data_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

protected:
    struct ColumnHeader {
        const char* title;  // QT_TR_NOOP-marked, translated in the subclass's context
        const char* tip;
    };
    ProfileTableModel(std::vector<ColumnHeader> headers, QObject* parent);

    // Called only while a profile is bound (data_ non-null) and for valid cells.
    virtual int rowsIn(const ProfileViewData& data) const = 0;
    virtual QVariant sortValue(int row, int column) const = 0;
    virtual QVariant displayValue(int row, int column) const { return sortValue(row, column); }
    virtual QString toolTip(int row) const = 0;
    virtual bool isRightAligned(int column) const = 0;
    // Header strings are translated in the subclass's context, where QT_TR_NOOP marked them.
    virtual QString translate(const char* text) const = 0;

    std::shared_ptr<const ProfileViewData> data_;

private:
    std::vector<ColumnHeader> headers_;
};

}  // namespace spillway::views
