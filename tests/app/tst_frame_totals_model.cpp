// The Frames tab's model (top allocating frames) over the hand-made stacked profile
// (tests/core/analysis/stacked_profile.h, numbers worked out by hand there): the model tester,
// each row's cells, sorting by raw bytes, greyed torch frames, the filter.
#include "../core/analysis/stacked_profile.h"
#include "views/filtered_table_view.h"
#include "views/format_units.h"
#include "views/frame_totals_model.h"
#include "views/table_roles.h"

#include <QAbstractItemModelTester>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QtTest>

using spillway::views::FrameTotalsModel;
using spillway::views::kSortRole;

namespace {

std::shared_ptr<const spillway::views::ProfileViewData> stackedData() {
    return spillway::views::makeProfileViewData(std::make_shared<const spillway::Profile>(spillway::testing::stackedProfile()));
}

int rowOf(const QAbstractItemModel& model, const QString& function) {
    for (int r = 0; r < model.rowCount(); ++r)
        if (model.index(r, FrameTotalsModel::Function).data().toString() == function) return r;
    return -1;
}

}  // namespace

class TestFrameTotalsModel : public QObject {
    Q_OBJECT
private slots:
    void passesModelTesterThroughResets() {
        FrameTotalsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        model.setViewData(stackedData());
        QCOMPARE(model.rowCount(), 5);
        QCOMPARE(model.columnCount(), int(FrameTotalsModel::ColumnCount));
        model.setViewData(nullptr);
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(!model.frameAt(0));
        model.setViewData(stackedData());
        QCOMPARE(model.rowCount(), 5);
    }

    void cellsOfEveryFrame_data() {
        QTest::addColumn<QString>("function");
        QTest::addColumn<QString>("location");
        QTest::addColumn<qint64>("inclusive");
        QTest::addColumn<qint64>("self");
        QTest::addColumn<qint64>("tensors");
        QTest::addColumn<qint64>("peak");
        QTest::addColumn<bool>("torch");
        QTest::newRow("main") << "main" << "/home/me/train.py:30" << qint64(3350) << qint64(0) << qint64(4) << qint64(2050) << false;
        QTest::newRow("_call_impl") << "_call_impl" << "torch/nn/modules/module.py:1790" << qint64(3300) << qint64(0) << qint64(3) << qint64(2000) << true;
        QTest::newRow("forward") << "forward" << "torch/nn/modules/linear.py:134" << qint64(3000) << qint64(3000) << qint64(2) << qint64(2000) << true;
        QTest::newRow("step") << "step" << "/home/me/train.py:10" << qint64(1350) << qint64(50) << qint64(3) << qint64(1300) << false;
        QTest::newRow("dropout") << "dropout" << "torch/nn/functional.py:1443" << qint64(300) << qint64(300) << qint64(1) << qint64(300) << true;
    }
    void cellsOfEveryFrame() {
        QFETCH(QString, function);
        QFETCH(QString, location);
        QFETCH(qint64, inclusive);
        QFETCH(qint64, self);
        QFETCH(qint64, tensors);
        QFETCH(qint64, peak);
        QFETCH(bool, torch);
        FrameTotalsModel model;
        model.setViewData(stackedData());
        const int row = rowOf(model, function);
        QVERIFY(row >= 0);
        auto cell = [&](int column, int role = Qt::DisplayRole) { return model.index(row, column).data(role); };
        QCOMPARE(cell(FrameTotalsModel::Location).toString(), location);
        QCOMPARE(cell(FrameTotalsModel::Inclusive, kSortRole).toLongLong(), inclusive);
        QCOMPARE(cell(FrameTotalsModel::Self, kSortRole).toLongLong(), self);
        QCOMPARE(cell(FrameTotalsModel::Tensors, kSortRole).toLongLong(), tensors);
        QCOMPARE(cell(FrameTotalsModel::PeakLive, kSortRole).toLongLong(), peak);
        QCOMPARE(cell(FrameTotalsModel::Inclusive).toString(), spillway::views::formatBytes(inclusive));
        // Torch's frames are greyed; the user's frames keep the text colour.
        QCOMPARE(cell(FrameTotalsModel::Function, Qt::ForegroundRole).isValid(), torch);
        QVERIFY(cell(FrameTotalsModel::Function, Qt::ToolTipRole).toString().contains(QString::number(inclusive)));
        QCOMPARE(model.frameAt(row)->torch, torch);
    }

    // Sorted by the raw bytes (3350 B before 300 B although "300 B" > "3.27 KiB" as text); the
    // filter keeps the rows whose text matches.
    void tableSortsByBytesAndFilters() {
        FrameTotalsModel model;
        spillway::views::FilteredTableView table(&model, "frames");
        model.setViewData(stackedData());
        auto* proxy = table.proxy();
        table.table()->sortByColumn(FrameTotalsModel::Self, Qt::DescendingOrder);
        QCOMPARE(proxy->index(0, FrameTotalsModel::Function).data().toString(), QString("forward"));
        QCOMPARE(proxy->index(1, FrameTotalsModel::Function).data().toString(), QString("dropout"));
        QCOMPARE(proxy->index(2, FrameTotalsModel::Function).data().toString(), QString("step"));
        table.table()->sortByColumn(FrameTotalsModel::Inclusive, Qt::AscendingOrder);
        QCOMPARE(proxy->index(0, FrameTotalsModel::Function).data().toString(), QString("dropout"));
        QCOMPARE(proxy->index(4, FrameTotalsModel::Function).data().toString(), QString("main"));
        table.filterEdit()->setText("train.py");
        QCOMPARE(proxy->rowCount(), 2);
        QCOMPARE(table.countText(), QString("2 of 5 frames"));
    }
};

QTEST_MAIN(TestFrameTotalsModel)
#include "tst_frame_totals_model.moc"
