#pragma once
// A table over any of the profile models: a filter line edit above a sortable QTableView, with a
// QSortFilterProxyModel between them that sorts by raw values (kSortRole) and filters on the
// displayed text of every column, and a "12 of 40 kernels" count.
#include <QWidget>

class QAbstractItemModel;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace spillway::views {

class FilteredTableView : public QWidget {
    Q_OBJECT
public:
    // `itemsName` is the plural shown in the count ("kernels").
    FilteredTableView(QAbstractItemModel* source, const QString& itemsName, QWidget* parent = nullptr);

    QSortFilterProxyModel* proxy() const { return proxy_; }
    QTableView* table() const { return table_; }
    QLineEdit* filterEdit() const { return filter_; }
    QString countText() const;

private:
    void updateCount();
    void fitColumns();

    QAbstractItemModel* source_;
    QString itemsName_;
    QSortFilterProxyModel* proxy_;
    QLineEdit* filter_;
    QLabel* count_;
    QTableView* table_;
};

}  // namespace spillway::views
