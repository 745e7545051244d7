// The real main window, offscreen: opening goes through the worker thread, a failed open keeps
// the profile that was open, and the window renders.
#include "app/gui/main_window.h"
#include "views/tensor_gantt_widget.h"
#include "views/view_link.h"
#include "app_fixtures.h"
#include "views/filtered_table_view.h"
#include "views/profile_overview_widget.h"

#include <QImage>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

#include <set>

using spillway::app::MainWindow;
using spillway::test::fixtureProfilePath;

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        // Keeps QSettings (recent files, geometry) out of the user's real configuration.
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("SpillwayTests");
        QCoreApplication::setApplicationName("tst_main_window");
        spillway::test::startFromCleanAppState();
    }

    void opensFixtureOnWorkerAndFillsTables() {
        MainWindow window;
        window.setErrorDialogsEnabled(false);
        QSignalSpy loaded(&window, &MainWindow::profileLoaded);
        QSignalSpy failed(&window, &MainWindow::loadFailed);
        const QString path = fixtureProfilePath("tiny-mlp.profile.json");
        window.openProfile(path);
        // The load runs on the thread pool: openProfile returns before the profile is there.
        QVERIFY(window.isLoading());
        QVERIFY(!window.viewData());
        QVERIFY(loaded.wait(30000));
        QCOMPARE(failed.count(), 0);
        QCOMPARE(loaded.first().first().toString(), path);
        QVERIFY(!window.isLoading());
        QCOMPARE(window.kernelTable()->proxy()->rowCount(), 10);
        QCOMPARE(window.tensorTable()->proxy()->rowCount(), 15);
        QCOMPARE(window.tabs()->tabText(1), QString("Kernels (10)"));
        QVERIFY(window.windowTitle().contains("tiny-mlp"));
        QVERIFY(window.overview()->summaryText().contains("sgemm_128x64_tn_wgrad"));  // the peak kernel
        QCOMPARE(window.overview()->chartPointCount(), 10);
    }

    void failedOpenKeepsPreviousProfileAndReportsWhere() {
        MainWindow window;
        window.setErrorDialogsEnabled(false);
        QSignalSpy loaded(&window, &MainWindow::profileLoaded);
        QSignalSpy failed(&window, &MainWindow::loadFailed);
        window.openProfile(fixtureProfilePath("tiny-mlp.profile.json"));
        QVERIFY(loaded.wait(30000));
        const auto before = window.viewData();
        const QString title = window.windowTitle();

        const QString broken = fixtureProfilePath("broken-phase.profile.json");
        window.openProfile(broken);
        QVERIFY(failed.wait(30000));
        QCOMPARE(loaded.count(), 1);
        const auto args = failed.first();
        QCOMPARE(args.at(0).toString(), broken);
        QVERIFY2(args.at(1).toString().contains("broken-phase.profile.json: /kernels/3/phase"),
                 qPrintable(args.at(1).toString()));
        QVERIFY2(args.at(2).toString().contains("unknown kernel phase \"lossy\""), qPrintable(args.at(2).toString()));

        QCOMPARE(window.viewData(), before);
        QCOMPARE(window.windowTitle(), title);
        QCOMPARE(window.currentPath(), fixtureProfilePath("tiny-mlp.profile.json"));
        QCOMPARE(window.kernelTable()->proxy()->rowCount(), 10);

        // A JSON syntax error is located by line and column.
        window.openProfile(fixtureProfilePath("truncated.profile.json"));
        QVERIFY(failed.wait(30000));
        QVERIFY2(failed.last().at(1).toString().contains(QRegularExpression("truncated\\.profile\\.json:\\d+:\\d+")),
                 qPrintable(failed.last().at(1).toString()));
        QCOMPARE(window.viewData(), before);
    }

    // Issue 15: what `validate` calls an error (here a negative size) is refused by File > Open
    // as by every CLI command, with the file and the JSON pointer, and the views keep what they had.
    void openRefusesWhatValidateCallsAnError() {
        MainWindow window;
        window.setErrorDialogsEnabled(false);
        QSignalSpy loaded(&window, &MainWindow::profileLoaded);
        QSignalSpy failed(&window, &MainWindow::loadFailed);
        window.openProfile(fixtureProfilePath("tiny-mlp.profile.json"));
        QVERIFY(loaded.wait(30000));
        const auto before = window.viewData();

        QFile source(fixtureProfilePath("tiny-mlp.profile.json"));
        QVERIFY(source.open(QIODevice::ReadOnly));
        QByteArray text = source.readAll();
        const QRegularExpression firstSize(QStringLiteral("\"bytes\": *\\d+"));
        const auto match = firstSize.match(QString::fromUtf8(text));
        QVERIFY(match.hasMatch());
        text.replace(match.capturedStart(), match.capturedLength(), "\"bytes\": -5");
        QTemporaryDir dir;
        const QString negative = dir.filePath("negative.profile.json");
        QFile out(negative);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(text);
        out.close();

        window.openProfile(negative);
        QVERIFY(failed.wait(30000));
        QCOMPARE(loaded.count(), 1);
        const QString where = failed.last().at(1).toString(), what = failed.last().at(2).toString();
        QVERIFY2(where.contains("negative.profile.json: /tensors/0/bytes"), qPrintable(where));
        QVERIFY2(what.contains("expected a positive size"), qPrintable(what));
        QCOMPARE(window.viewData(), before);
    }

    void closeEmptiesTheTables() {
        MainWindow window;
        window.setErrorDialogsEnabled(false);
        QSignalSpy loaded(&window, &MainWindow::profileLoaded);
        window.openProfile(fixtureProfilePath("tiny-mlp.profile.json"));
        QVERIFY(loaded.wait(30000));
        QAction* close = nullptr;
        for (QAction* a : window.findChildren<QAction*>())
            if (a->shortcut() == QKeySequence(QKeySequence::Close)) close = a;
        QVERIFY(close && close->isEnabled());
        close->trigger();
        QVERIFY(!window.viewData());
        QCOMPARE(window.kernelTable()->proxy()->rowCount(), 0);
        QCOMPARE(window.tensorTable()->proxy()->rowCount(), 0);
        QCOMPARE(window.windowTitle(), QString("Spillway"));
        QVERIFY(!close->isEnabled());
    }

    void tablesAndChartsShareOneSelection() {
        // Issue 20: a row click selects the kernel or tensor everywhere; a selection made in a
        // chart (through the shared ViewLink) makes its row current.
        MainWindow window;
        window.setErrorDialogsEnabled(false);
        QSignalSpy shown(&window, &MainWindow::runShown);
        window.openProfileWith(fixtureProfilePath("tiny-mlp.profile.json"), {});
        QVERIFY(shown.wait(30000));
        auto* kernels = window.findChild<spillway::views::FilteredTableView*>("kernelTable");
        QVERIFY(kernels);
        window.viewLink()->selectKernel(2);
        QCOMPARE(kernels->proxy()->mapToSource(kernels->table()->currentIndex()).row(), 2);
        const QModelIndex row4 = kernels->proxy()->mapFromSource(kernels->proxy()->sourceModel()->index(4, 0));
        kernels->table()->selectionModel()->setCurrentIndex(row4, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QCOMPARE(window.viewLink()->selectedKernel(), std::int64_t(4));
        QVERIFY(!std::isnan(window.tensorGantt()->kernelCursor()));
    }

    void screenshotHasWindowSizeAndContent() {
        MainWindow window;
        window.setErrorDialogsEnabled(false);
        QSignalSpy loaded(&window, &MainWindow::profileLoaded);
        window.resize(1100, 720);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.openProfile(fixtureProfilePath("tiny-mlp.profile.json"));
        QVERIFY(loaded.wait(30000));
        window.tabs()->setCurrentIndex(1);

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString png = dir.filePath("main-window.png");
        QVERIFY(window.grab().save(png, "PNG"));
        QImage image(png);
        QVERIFY(!image.isNull());
        const qreal dpr = window.devicePixelRatioF();
        QCOMPARE(image.size(), QSize(qRound(1100 * dpr), qRound(720 * dpr)));
        // A blank or single-colour grab would mean nothing was drawn.
        std::set<QRgb> colours;
        for (int y = 0; y < image.height(); y += 3)
            for (int x = 0; x < image.width(); x += 3) colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
