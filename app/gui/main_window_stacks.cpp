// MainWindow's allocation stacks (issue 17): the Stack dock (the selected tensor's stack, beside
// every view), the Frames tab (top allocating frames), and the Tensors and Kernels tables joined
// to the ViewLink's selected tensor and kernel, which all the views share.
#include "app/gui/main_window.h"

#include "views/filtered_table_view.h"
#include "views/frame_totals_model.h"
#include "views/stack_pane.h"
#include "views/tensor_table_model.h"
#include "views/view_link.h"

#include <QDockWidget>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>

namespace spillway::app {

namespace {

// The source row of a table's current row; -1 when there is none.
int currentSourceRow(const views::FilteredTableView* table, const QModelIndex& current) {
    return current.isValid() ? table->proxy()->mapToSource(current).row() : -1;
}

// Makes `row` of the source model the table's current, selected row (and scrolls to it), unless
// it already is; a row the filter hides stays unselected.
void showSourceRow(views::FilteredTableView* table, int row) {
    QTableView* view = table->table();
    if (currentSourceRow(table, view->currentIndex()) == row) return;
    const QModelIndex source = table->proxy()->sourceModel()->index(row, 0);
    const QModelIndex shown = row >= 0 ? table->proxy()->mapFromSource(source) : QModelIndex();
    if (!shown.isValid()) {
        view->selectionModel()->clearSelection();
        return;
    }
    view->selectionModel()->setCurrentIndex(shown, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    view->scrollTo(shown);
}

}  // namespace

void MainWindow::createStackViews() {
    auto* dock = new QDockWidget(tr("Stack"), this);
    dock->setObjectName("stackDock");
    stackPane_ = new views::StackPane(link_, dock);
    stackPane_->setObjectName("stackPane");
    dock->setWidget(stackPane_);
    addDockWidget(Qt::RightDockWidgetArea, dock);

    framesModel_ = new views::FrameTotalsModel(this);
    framesTable_ = new views::FilteredTableView(framesModel_, tr("frames"), tabs_);
    framesTable_->setObjectName("framesTable");
    framesTable_->table()->sortByColumn(views::FrameTotalsModel::Inclusive, Qt::DescendingOrder);
    framesTable_->table()->horizontalHeader()->setSortIndicator(views::FrameTotalsModel::Inclusive, Qt::DescendingOrder);
    // Beside the Tensors table: both are about the profile, not a run.
    tabs_->insertTab(tabs_->indexOf(tensorTable_) + 1, framesTable_, tr("Frames"));
    tabs_->setTabToolTip(tabs_->indexOf(framesTable_),
                         tr("Top allocating frames: bytes of the tensors each stack frame allocated"));

    // A frame selects its largest tensor: the Stack dock shows its stack, every view highlights it.
    connect(framesTable_->table()->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                const FrameTotal* frame = framesModel_->frameAt(currentSourceRow(framesTable_, current));
                if (frame && frame->largestTensor >= 0) link_->selectTensor(frame->largestTensor);
            });
    // The Tensors table selects on the link (its rows are tensor positions) and follows it.
    connect(tensorTable_->table()->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                const int row = currentSourceRow(tensorTable_, current);
                if (row >= 0) link_->selectTensor(row);  // a row filtered away keeps the selection
            });
    connect(link_, &views::ViewLink::selectedTensorChanged, this,
            [this](std::int64_t tensorPos) { showSourceRow(tensorTable_, int(tensorPos)); });
    // The Kernels table likewise with the selected kernel (a run index, which is the profile's
    // position: the what-if run replays the profile's order), so a kernel clicked in the Stalls
    // chart or reached in play mode is the table's row, and a row clicked selects it everywhere.
    connect(kernelTable_->table()->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                const int row = currentSourceRow(kernelTable_, current);
                if (row >= 0) link_->selectKernel(row);
            });
    connect(link_, &views::ViewLink::selectedKernelChanged, this,
            [this](std::int64_t kernel) { showSourceRow(kernelTable_, int(kernel)); });
}

void MainWindow::showStackViews() {
    stackPane_->setViewData(data_);
    framesModel_->setViewData(data_);
    const int tab = tabs_->indexOf(framesTable_);
    tabs_->setTabText(tab, data_ ? tr("Frames (%1)").arg(data_->frameTotals.frames.size()) : tr("Frames"));
}

}  // namespace spillway::app
