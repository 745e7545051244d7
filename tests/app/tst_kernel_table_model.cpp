// KernelTableModel over the tiny-mlp fixture: a well-behaved model, raw sort values, numeric
// sorting and filtering through the same proxy the window uses.
#include "app_fixtures.h"
#include "views/filtered_table_view.h"
#include "views/kernel_table_model.h"
#include "views/table_roles.h"

#include <QAbstractItemModelTester>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QtTest>

using spillway::views::KernelTableModel;
using spillway::views::kSortRole;

class TestKernelTableModel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { data_ = spillway::test::loadTinyMlp(); }

    void passesModelTesterThroughResets() {
        KernelTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        model.setViewData(data_);
        QCOMPARE(model.rowCount(), 10);
        QCOMPARE(model.columnCount(), int(KernelTableModel::ColumnCount));
        model.setViewData(nullptr);
        QCOMPARE(model.rowCount(), 0);
        model.setViewData(data_);
        QCOMPARE(model.rowCount(), 10);
    }

    void showsKernelFieldsAndDerivedByteSums() {
        KernelTableModel model;
        model.setViewData(data_);
        // Row 8: sgemm_128x64_tn_wgrad reads fc1.out.grad (64 KiB) + batch.images (16 KiB) and
        // writes fc1.weight.grad (256 KiB), with 8 KiB of workspace.
        auto cell = [&](int column, int role = Qt::DisplayRole) { return model.index(8, column).data(role); };
        QCOMPARE(cell(KernelTableModel::Position, kSortRole).toLongLong(), 8);
        QCOMPARE(cell(KernelTableModel::Id, kSortRole).toLongLong(), 108);
        QCOMPARE(cell(KernelTableModel::Name).toString(), QString("sgemm_128x64_tn_wgrad"));
        QCOMPARE(cell(KernelTableModel::Op).toString(), QString("aten::linear_backward"));
        QCOMPARE(cell(KernelTableModel::Phase).toString(), QString("backward"));
        QCOMPARE(cell(KernelTableModel::Duration, kSortRole).toLongLong(), 39000);
        QCOMPARE(cell(KernelTableModel::Duration).toString(), QString("39.000 us"));
        QCOMPARE(cell(KernelTableModel::InputCount, kSortRole).toLongLong(), 2);
        QCOMPARE(cell(KernelTableModel::OutputCount, kSortRole).toLongLong(), 1);
        QCOMPARE(cell(KernelTableModel::InputBytes, kSortRole).toLongLong(), 65536 + 16384);
        QCOMPARE(cell(KernelTableModel::InputBytes).toString(), QString("80.00 KiB"));
        QCOMPARE(cell(KernelTableModel::OutputBytes, kSortRole).toLongLong(), 262144);
        QCOMPARE(cell(KernelTableModel::Workspace, kSortRole).toLongLong(), 8192);
        QVERIFY(cell(KernelTableModel::Name, Qt::ToolTipRole).toString().contains("aten::linear_backward"));
        QVERIFY(model.headerData(KernelTableModel::Duration, Qt::Horizontal, Qt::ToolTipRole).toString().size() > 0);
    }

    // Display text sorts "10.500 us" before "2.500 us"; the sort role must order by nanoseconds.
    void sortsDurationByValueNotText() {
        KernelTableModel model;
        model.setViewData(data_);
        spillway::views::FilteredTableView view(&model, "kernels");
        auto* proxy = view.proxy();
        proxy->sort(KernelTableModel::Duration, Qt::AscendingOrder);
        QCOMPARE(proxy->rowCount(), 10);
        for (int r = 1; r < proxy->rowCount(); ++r)
            QVERIFY(proxy->index(r - 1, KernelTableModel::Duration).data(kSortRole).toLongLong() <=
                    proxy->index(r, KernelTableModel::Duration).data(kSortRole).toLongLong());
        QCOMPARE(proxy->index(0, KernelTableModel::Duration).data().toString(), QString("2.500 us"));
        QCOMPARE(proxy->index(9, KernelTableModel::Name).data().toString(), QString("sgemm_128x64_nn"));

        proxy->sort(KernelTableModel::InputBytes, Qt::DescendingOrder);
        QCOMPARE(proxy->index(0, KernelTableModel::Name).data().toString(), QString("adam_step_multi_tensor"));
    }

    void filterKeepsOnlyMatchingRows() {
        KernelTableModel model;
        model.setViewData(data_);
        spillway::views::FilteredTableView view(&model, "kernels");
        view.filterEdit()->setText("SGEMM");  // case-insensitive
        QCOMPARE(view.proxy()->rowCount(), 5);
        for (int r = 0; r < view.proxy()->rowCount(); ++r)
            QVERIFY(view.proxy()->index(r, KernelTableModel::Name).data().toString().startsWith("sgemm_"));
        QCOMPARE(view.countText(), QString("5 of 10 kernels"));

        view.filterEdit()->setText("threshold_backward");  // matches the operator column
        QCOMPARE(view.proxy()->rowCount(), 1);
        QCOMPARE(view.proxy()->index(0, KernelTableModel::Id).data(kSortRole).toLongLong(), 107);

        view.filterEdit()->clear();
        QCOMPARE(view.proxy()->rowCount(), 10);
        QCOMPARE(view.countText(), QString("10 kernels"));
    }

private:
    std::shared_ptr<const spillway::views::ProfileViewData> data_;
};

QTEST_MAIN(TestKernelTableModel)
#include "tst_kernel_table_model.moc"
