// Open with progress and cancel, and drag and drop of every format: a large generated profile
// loads with a status-bar progress
// that only grows and ends at 100 %; Cancel (the status bar's button) keeps the profile that
// was open, emits loadCancelled, hides the progress, and the cancelled load's result never
// replaces the open profile even when the worker finishes afterwards.
#include "app/gui/main_window.h"
#include "app_fixtures.h"
#include "core/io/native/native_json.h"
#include "tests/core/io/large_profile_fixture.h"

#include <QMimeData>
#include <QProgressBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

using namespace spillway;
using spillway::app::MainWindow;

class TestOpenProgress : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString bigPath_;

    // A window with tiny-mlp open.
    static void openTiny(MainWindow& window) {
        QSignalSpy loaded(&window, &MainWindow::profileLoaded);
        window.openProfileWith(test::fixtureProfilePath("tiny-mlp.profile.json"), {});
        QVERIFY(loaded.wait(30000));
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("SpillwayTests");
        QCoreApplication::setApplicationName("tst_open_progress");
        spillway::test::startFromCleanAppState();
        QVERIFY(dir_.isValid());
        bigPath_ = dir_.filePath("large-chain.profile.json");
        saveNativeProfile(test::largeChainProfile(4000, 8), bigPath_.toStdString());
    }

    void progressGrowsToHundred() {
        MainWindow window;
        window.setErrorDialogsEnabled(false);
        openTiny(window);
        QSignalSpy progress(&window, &MainWindow::loadProgress);
        QSignalSpy loaded(&window, &MainWindow::profileLoaded);
        window.openProfileWith(bigPath_, {});
        auto* bar = window.findChild<QProgressBar*>("busyIndicator");
        QVERIFY(bar->isVisibleTo(&window));
        QCOMPARE(bar->maximum(), 100);  // real steps, not a busy spinner
        QVERIFY(loaded.wait(60000));
        QCOMPARE(window.viewData()->profile->kernels.size(), size_t(4000));
        QVERIFY(progress.count() >= 1);
        int last = -1;
        for (const auto& args : progress) {
            const int p = args.first().toInt();
            QVERIFY2(p > last, "progress must only grow");
            last = p;
        }
        QCOMPARE(last, 100);
        QVERIFY(!bar->isVisibleTo(&window));
    }

    void cancelKeepsTheOpenProfile() {
        MainWindow window;
        window.setErrorDialogsEnabled(false);
        openTiny(window);
        const auto before = window.viewData();
        QSignalSpy cancelled(&window, &MainWindow::loadCancelled);
        QSignalSpy loaded(&window, &MainWindow::profileLoaded);
        QSignalSpy failed(&window, &MainWindow::loadFailed);
        window.openProfileWith(bigPath_, {});
        auto* cancel = window.findChild<QToolButton*>("cancelLoadButton");
        QVERIFY(cancel && cancel->isVisibleTo(&window));
        QTest::mouseClick(cancel, Qt::LeftButton);
        QCOMPARE(cancelled.count(), 1);
        QCOMPARE(cancelled.first().first().toString(), bigPath_);
        QVERIFY(!cancel->isVisibleTo(&window));
        QVERIFY(!window.findChild<QProgressBar*>("busyIndicator")->isVisibleTo(&window));
        // The worker stops at its next check; whatever it returns is dropped.
        QTRY_VERIFY_WITH_TIMEOUT(!window.isLoading(), 60000);
        QCoreApplication::processEvents();
        QCOMPARE(loaded.count(), 0);
        QCOMPARE(failed.count(), 0);
        QCOMPARE(window.viewData(), before);
        QVERIFY(window.currentPath().endsWith("tiny-mlp.profile.json"));
        // Cancel with nothing loading does nothing.
        window.cancelLoad();
        QCOMPARE(cancelled.count(), 1);
        // A new load after a cancel works as usual.
        window.openProfileWith(bigPath_, {});
        QVERIFY(loaded.wait(60000));
        QCOMPARE(window.currentPath(), bigPath_);
    }

    // Dropping a file or folder of each format the loader reads opens it (the G10 graph asks
    // for its batch size first, so it is opened through the dialog path instead).
    void dropOpensEveryFormat_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("source");
        QTest::newRow("native") << test::fixtureProfilePath("tiny-mlp.profile.json") << "";
        QTest::newRow("torch-trace") << QStringLiteral(SPILLWAY_SOURCE_DIR "/tests/fixtures/torch/minimal.trace.json") << "torch";
        QTest::newRow("torch-snapshot") << QStringLiteral(SPILLWAY_SOURCE_DIR "/tests/fixtures/snapshots/torch21_mlp_p4.pickle") << "snapshot";
        QTest::newRow("g10-workload") << QStringLiteral(SPILLWAY_SHARED_DATA "/g10/derived/BERT_Base_256") << "g10-workload";
        QTest::newRow("g10-configs") << QStringLiteral(SPILLWAY_SHARED_DATA "/g10/derived/BERT_Base_256/kernels.config") << "g10-configs";
    }

    void dropOpensEveryFormat() {
        QFETCH(QString, path);
        QFETCH(QString, source);
        if (!QFileInfo::exists(path)) QSKIP("shared data not available");
        MainWindow window;
        window.setErrorDialogsEnabled(false);
        QSignalSpy loaded(&window, &MainWindow::profileLoaded);
        QSignalSpy failed(&window, &MainWindow::loadFailed);
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(path)});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&window, &drop);
        QVERIFY2(loaded.wait(60000), failed.isEmpty() ? "" : qPrintable(failed.first().at(2).toString()));
        QCOMPARE(loaded.first().first().toString(), path);
        QVERIFY(!window.viewData()->profile->kernels.empty());
        QVERIFY(QString::fromStdString(window.viewData()->profile->metadata.source).contains(source));
    }

    void newerLoadSupersedesOlder() {
        MainWindow window;
        window.setErrorDialogsEnabled(false);
        QSignalSpy loaded(&window, &MainWindow::profileLoaded);
        window.openProfileWith(bigPath_, {});
        window.openProfileWith(test::fixtureProfilePath("tiny-mlp.profile.json"), {});
        QVERIFY(loaded.wait(60000));
        QTRY_VERIFY_WITH_TIMEOUT(!window.isLoading(), 60000);
        QCOMPARE(loaded.count(), 1);
        QVERIFY(window.currentPath().endsWith("tiny-mlp.profile.json"));
    }
};

QTEST_MAIN(TestOpenProgress)
#include "tst_open_progress.moc"
