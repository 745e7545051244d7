// TensorTableModel over the tiny-mlp fixture: producer and uses derived from the kernels,
// sizes sorted by value ("900 B" before "2.00 KiB"), filtering.
#include "app_fixtures.h"
#include "views/filtered_table_view.h"
#include "views/table_roles.h"
#include "views/tensor_table_model.h"

#include <QAbstractItemModelTester>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QtTest>

using spillway::views::kSortRole;
using spillway::views::TensorTableModel;

namespace {
int sourceRowOf(const QAbstractItemModel& model, const QString& name) {
    for (int r = 0; r < model.rowCount(); ++r)
        if (model.index(r, TensorTableModel::Name).data().toString() == name) return r;
    return -1;
}
}  // namespace

class TestTensorTableModel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { data_ = spillway::test::loadTinyMlp(); }

    void passesModelTesterThroughResets() {
        TensorTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setViewData(data_);
        QCOMPARE(model.rowCount(), 15);
        QCOMPARE(model.columnCount(), int(TensorTableModel::ColumnCount));
        model.setViewData(nullptr);
        QCOMPARE(model.rowCount(), 0);
        model.setViewData(data_);
        QCOMPARE(model.rowCount(), 15);
    }

    // relu.out is written by relu_kernel (#1) and read by #2, #5 and #7.
    void derivesProducerAndUsesFromKernels() {
        TensorTableModel model;
        model.setViewData(data_);
        const int row = sourceRowOf(model, "relu.out");
        QVERIFY(row >= 0);
        auto cell = [&](int column, int role = Qt::DisplayRole) { return model.index(row, column).data(role); };
        QCOMPARE(cell(TensorTableModel::Id, kSortRole).toLongLong(), 5);
        QCOMPARE(cell(TensorTableModel::Kind).toString(), QString("activation"));
        QCOMPARE(cell(TensorTableModel::Size).toString(), QString("64.00 KiB"));
        QCOMPARE(cell(TensorTableModel::Persistent).toString(), QString("no"));
        QCOMPARE(cell(TensorTableModel::Producer, kSortRole).toLongLong(), 1);
        QCOMPARE(cell(TensorTableModel::Producer).toString(), QString("#1 relu_kernel"));
        QCOMPARE(cell(TensorTableModel::FirstUse, kSortRole).toLongLong(), 1);
        QCOMPARE(cell(TensorTableModel::LastUse, kSortRole).toLongLong(), 7);
        QCOMPARE(cell(TensorTableModel::Uses, kSortRole).toLongLong(), 4);
        QVERIFY(cell(TensorTableModel::Name, Qt::ToolTipRole).toString().contains("used by 4 kernels"));

        // An input no kernel writes has no producer; a weight is produced by the optimizer step.
        const int images = sourceRowOf(model, "batch.images");
        QCOMPARE(model.index(images, TensorTableModel::Producer).data(kSortRole).toLongLong(), -1);
        QCOMPARE(model.index(images, TensorTableModel::LastUse).data(kSortRole).toLongLong(), 8);
        const int weight = sourceRowOf(model, "fc1.weight");
        QCOMPARE(model.index(weight, TensorTableModel::Persistent).data().toString(), QString("yes"));
        QCOMPARE(model.index(weight, TensorTableModel::Producer).data(kSortRole).toLongLong(), 9);
        QCOMPARE(model.index(weight, TensorTableModel::FirstUse).data(kSortRole).toLongLong(), 0);
    }

    // As text "2.00 KiB" < "4 B" < "900 B"; by value 4 B < 900 B < 2 KiB.
    void sortsSizeByValueNotText() {
        TensorTableModel model;
        model.setViewData(data_);
        spillway::views::FilteredTableView view(&model, "tensors");
        auto* proxy = view.proxy();
        proxy->sort(TensorTableModel::Size, Qt::AscendingOrder);
        QStringList shown;
        for (int r = 0; r < proxy->rowCount(); ++r) shown << proxy->index(r, TensorTableModel::Size).data().toString();
        QCOMPARE(shown.mid(0, 3), (QStringList{"4 B", "900 B", "2.00 KiB"}));
        QCOMPARE(shown.last(), QString("256.00 KiB"));
        for (int r = 1; r < proxy->rowCount(); ++r)
            QVERIFY(proxy->index(r - 1, TensorTableModel::Size).data(kSortRole).toLongLong() <=
                    proxy->index(r, TensorTableModel::Size).data(kSortRole).toLongLong());

        proxy->sort(TensorTableModel::Uses, Qt::DescendingOrder);
        QCOMPARE(proxy->index(0, TensorTableModel::Name).data().toString(), QString("relu.out"));
    }

    void filterKeepsOnlyMatchingRows() {
        TensorTableModel model;
        model.setViewData(data_);
        spillway::views::FilteredTableView view(&model, "tensors");
        view.filterEdit()->setText("gradient");  // the kind column
        QCOMPARE(view.proxy()->rowCount(), 5);
        for (int r = 0; r < view.proxy()->rowCount(); ++r)
            QCOMPARE(view.proxy()->index(r, TensorTableModel::Kind).data().toString(), QString("gradient"));
        view.filterEdit()->setText("fc2.weight");
        QCOMPARE(view.proxy()->rowCount(), 3);  // the weight, its gradient and its Adam state
        QCOMPARE(view.countText(), QString("3 of 15 tensors"));
    }

private:
    std::shared_ptr<const spillway::views::ProfileViewData> data_;
};

QTEST_MAIN(TestTensorTableModel)
#include "tst_tensor_table_model.moc"
