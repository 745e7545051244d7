#include "views/filtered_table_view.h"

#include "views/table_roles.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace spillway::views {

namespace {
// Sizing every column to its contents reads every row; beyond this many rows the header's
// sample of the visible rows is enough and keeps opening a large profile quick.
constexpr int kRowsForExactColumnWidths = 2000;
constexpr int kMaxColumnWidth = 420;
}  // namespace

FilteredTableView::FilteredTableView(QAbstractItemModel* source, const QString& itemsName, QWidget* parent)
    : QWidget(parent), source_(source), itemsName_(itemsName) {
    proxy_ = new QSortFilterProxyModel(this);
    proxy_->setSourceModel(source);
    proxy_->setSortRole(kSortRole);
    proxy_->setFilterKeyColumn(-1);  // any column
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy_->setSortCaseSensitivity(Qt::CaseInsensitive);

    filter_ = new QLineEdit(this);
    filter_->setObjectName("filterEdit");
    filter_->setPlaceholderText(tr("Filter %1 (any column)…").arg(itemsName));
    filter_->setClearButtonEnabled(true);
    count_ = new QLabel(this);
    count_->setObjectName("countLabel");

    table_ = new QTableView(this);
    table_->setObjectName("table");
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(0, Qt::AscendingOrder);
    table_->setAlternatingRowColors(true);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setWordWrap(false);
    table_->verticalHeader()->setVisible(false);
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
    // Columns keep their content width; stretching the last one would push its numbers far
    // from the rest of the row.
    table_->horizontalHeader()->setStretchLastSection(false);
    table_->horizontalHeader()->setHighlightSections(false);
    table_->horizontalHeader()->setResizeContentsPrecision(kRowsForExactColumnWidths);

    auto* bar = new QHBoxLayout;
    bar->addWidget(filter_, 1);
    bar->addWidget(count_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(table_, 1);

    connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);
    connect(proxy_, &QAbstractItemModel::rowsInserted, this, &FilteredTableView::updateCount);
    connect(proxy_, &QAbstractItemModel::rowsRemoved, this, &FilteredTableView::updateCount);
    connect(proxy_, &QAbstractItemModel::layoutChanged, this, &FilteredTableView::updateCount);
    connect(proxy_, &QAbstractItemModel::modelReset, this, [this] {
        updateCount();
        fitColumns();
    });
    updateCount();
}

QString FilteredTableView::countText() const { return count_->text(); }

void FilteredTableView::updateCount() {
    const int shown = proxy_->rowCount();
    const int total = source_->rowCount();
    count_->setText(shown == total ? tr("%1 %2").arg(total).arg(itemsName_)
                                   : tr("%1 of %2 %3").arg(shown).arg(total).arg(itemsName_));
}

void FilteredTableView::fitColumns() {
    table_->resizeColumnsToContents();
    auto* header = table_->horizontalHeader();
    for (int c = 0; c < header->count(); ++c)
        if (header->sectionSize(c) > kMaxColumnWidth) header->resizeSection(c, kMaxColumnWidth);
}

}  // namespace spillway::views
