// The workspace in the app: the dock's model against a workspace filled here; rename, delete,
// undo and redo change the store and the tree; keep a run, duplicate it with changes; refuse
// files that are not workspaces without touching them; restore the last run and tab when a new
// window opens the same workspace. Every window works on a temporary workspace file.
#include "app/gui/keep_profile_banner.h"
#include "app/gui/main_window.h"
#include "app/gui/workspace_dock.h"
#include "app/gui/workspace_session.h"
#include "app_fixtures.h"
#include "run_fixtures.h"
#include "views/stall_breakdown_widget.h"
#include "views/table_roles.h"
#include "views/what_if_panel.h"
#include "views/workspace_model.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QPushButton>
#include <QFile>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTreeView>
#include <QUndoStack>
#include <QtTest>

using namespace spillway;
using spillway::app::MainWindow;
using views::WorkspaceItem;
using views::WorkspaceModel;
using Kind = WorkspaceItem::Kind;

namespace {

std::filesystem::path fsPath(const QString& path) { return QFile::encodeName(path).toStdString(); }

QByteArray fileBytes(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// A workspace with the eight-kernel training step and two runs of it (UVM, and G10 on the same
// machine), a plan, and the tiny MLP without runs.
struct FilledWorkspace {
    store::RowId step8 = 0, mlp = 0, uvm = 0, g10 = 0, plan = 0;
    std::shared_ptr<const views::RunViewData> uvmRun, g10Run;
};

FilledWorkspace fillWorkspace(const QString& path) {
    FilledWorkspace f;
    auto ws = store::Workspace::create(fsPath(path));
    f.uvmRun = test::simulatedRun("uvm", 30 * kMiB);
    f.g10Run = test::simulatedRun("g10", 30 * kMiB);
    f.step8 = ws.addProfile(*f.uvmRun->profile->profile, "step8");
    f.mlp = ws.addProfile(*test::loadTinyMlp()->profile, "tiny mlp");
    f.uvm = ws.addRun(f.step8, "uvm on unit", f.uvmRun->hardware, f.uvmRun->plan, f.uvmRun->result);
    f.g10 = ws.addRun(f.step8, "g10 on unit", f.g10Run->hardware, f.g10Run->plan, f.g10Run->result);
    f.plan = ws.addPlan(f.step8, "g10 plan", f.g10Run->hardware, f.g10Run->plan);
    return f;
}

QStringList runNames(store::Workspace& ws) {
    QStringList names;
    for (const auto& r : ws.listRuns()) names << QString::fromStdString(r.name);
    return names;
}

}  // namespace

class TestWorkspaceDock : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        // QSettings and the default workspace stay out of the user's real directories.
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("SpillwayTests");
        QCoreApplication::setApplicationName("tst_workspace_dock");
        spillway::test::startFromCleanAppState();
    }

    void firstStartCreatesTheDefaultWorkspace() {
        const QString dataDir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
        const QString expected = QString::fromStdString(store::defaultWorkspacePath(fsPath(dataDir)).string());
        QSettings().remove("workspace/last");
        QFile::remove(expected);
        {
            MainWindow window;
            window.setErrorDialogsEnabled(false);
            QCOMPARE(window.workspaceSession()->path(), expected);
            QVERIFY(window.workspaceSession()->isOpen());
            QVERIFY(QFile::exists(expected));
        }
        // The next start reopens it (the last one used), even without it being asked for.
        MainWindow again;
        QCOMPARE(again.workspaceSession()->path(), expected);
        QVERIFY(QFile::remove(expected));
    }

    void modelRowsAndColumnsMatchTheStore() {
        QTemporaryDir dir;
        const QString path = dir.filePath("w.spillway");
        const FilledWorkspace f = fillWorkspace(path);
        auto ws = store::Workspace::open(fsPath(path));
        WorkspaceModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setContents(ws.listProfiles(), ws.listRuns(), ws.listPlans());

        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), int(WorkspaceModel::ColumnCount));
        const QModelIndex step8 = model.indexOf({Kind::Profile, f.step8});
        const QModelIndex mlp = model.indexOf({Kind::Profile, f.mlp});
        QCOMPARE(step8.data().toString(), QString("step8"));
        QCOMPARE(mlp.data().toString(), QString("tiny mlp"));
        QCOMPARE(model.rowCount(step8), 3);  // two runs, then the plan
        QCOMPARE(model.rowCount(mlp), 0);

        // Runs in the order they were kept, each with its own numbers.
        for (int row = 0; row < 2; ++row) {
            const auto& run = row == 0 ? f.uvmRun : f.g10Run;
            const QModelIndex name = model.index(row, WorkspaceModel::Name, step8);
            QCOMPARE(name.parent(), step8);
            QCOMPARE(model.itemAt(name), (WorkspaceItem{Kind::Run, row == 0 ? f.uvm : f.g10}));
            auto cell = [&](int column) { return model.index(row, column, step8).data(views::kSortRole); };
            QCOMPARE(cell(WorkspaceModel::Policy).toString(), QString::fromStdString(run->plan.policy));
            QCOMPARE(cell(WorkspaceModel::Hardware).toString(), QString::fromStdString(run->hardware.id));
            QCOMPARE(cell(WorkspaceModel::IterationTime).toLongLong(), run->result.iterationTime);
            QCOMPARE(cell(WorkspaceModel::TotalStall).toLongLong(),
                     run->result.iterationTime - run->result.totals.compute);
            Bytes traffic = 0;
            for (Bytes b : run->result.traffic) traffic += b;
            QVERIFY(traffic > 0);  // the GPU is too small: things move
            QCOMPARE(cell(WorkspaceModel::Traffic).toLongLong(), traffic);
            QCOMPARE(cell(WorkspaceModel::PeakGpu).toLongLong(), run->result.peakGpuBytes);
        }
        QCOMPARE(model.index(0, WorkspaceModel::Policy, step8).data().toString(), QString("uvm"));
        QCOMPARE(model.index(1, WorkspaceModel::Policy, step8).data().toString(), QString("g10"));
        const QModelIndex plan = model.index(2, WorkspaceModel::Name, step8);
        QCOMPARE(model.itemAt(plan), (WorkspaceItem{Kind::Plan, f.plan}));
        QVERIFY(plan.data().toString().contains("g10 plan"));
        QCOMPARE(model.profileOf({Kind::Run, f.g10}), f.step8);

        // An inline edit shows at once and is asked for, not stored by the model.
        QSignalSpy asked(&model, &WorkspaceModel::renameRequested);
        QVERIFY(model.setData(model.index(1, 0, step8), "fast one"));
        QCOMPARE(model.index(1, 0, step8).data().toString(), QString("fast one"));
        QCOMPARE(asked.count(), 1);
        QCOMPARE(asked.first().at(1).toString(), QString("g10 on unit"));
        QCOMPARE(ws.runSummary(f.g10).name, std::string("g10 on unit"));
    }

    void renameDeleteUndoRedoChangeStoreAndTree() {
        QTemporaryDir dir;
        const QString path = dir.filePath("w.spillway");
        const FilledWorkspace f = fillWorkspace(path);
        MainWindow window(path);
        window.setErrorDialogsEnabled(false);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        auto* dock = window.workspaceDock();
        auto* model = window.workspaceSession()->model();
        store::Workspace& ws = *window.workspaceSession()->workspace();
        QCOMPARE(model->rowCount(), 2);

        // F2 on the current run opens the editor; Enter stores the name.
        dock->setCurrentItem({Kind::Run, f.g10});
        dock->tree()->setFocus();
        QTest::keyClick(dock->tree(), Qt::Key_F2);
        auto* editor = dock->tree()->findChild<QLineEdit*>();
        QVERIFY(editor && editor->isVisible());
        editor->selectAll();
        QTest::keyClicks(editor, "renamed");
        QTest::keyClick(editor, Qt::Key_Return);
        QTRY_COMPARE(ws.runSummary(f.g10).name, std::string("renamed"));
        QCOMPARE(window.undoStack()->undoText(), QString("Rename run ‘g10 on unit’ to ‘renamed’"));
        QCOMPARE(model->nameOf({Kind::Run, f.g10}), QString("renamed"));

        // Del deletes the current run; undo brings the same row back, redo hides it again.
        dock->setCurrentItem({Kind::Run, f.uvm});
        dock->tree()->setFocus();
        QTest::keyClick(dock->tree(), Qt::Key_Delete);
        QCOMPARE(runNames(ws), QStringList{"renamed"});
        QVERIFY(!model->indexOf({Kind::Run, f.uvm}).isValid());
        QCOMPARE(model->rowCount(model->indexOf({Kind::Profile, f.step8})), 2);  // g10 and the plan
        QCOMPARE(window.undoStack()->undoText(), QString("Delete run ‘uvm on unit’"));

        // Through Edit > Undo (Ctrl+Z) and Redo (Ctrl+Shift+Z), as the user does.
        QAction* undo = nullptr;
        QAction* redo = nullptr;
        for (QAction* a : window.findChildren<QAction*>()) {
            if (a->shortcut() == QKeySequence(QKeySequence::Undo)) undo = a;
            if (a->shortcut() == QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z)) redo = a;
        }
        QVERIFY(undo && redo);
        undo->trigger();
        QCOMPARE(runNames(ws), (QStringList{"uvm on unit", "renamed"}));
        QVERIFY(model->indexOf({Kind::Run, f.uvm}).isValid());
        redo->trigger();
        QCOMPARE(runNames(ws), QStringList{"renamed"});
        undo->trigger();
        undo->trigger();  // the rename
        QCOMPARE(runNames(ws), (QStringList{"uvm on unit", "g10 on unit"}));
        QCOMPARE(model->nameOf({Kind::Run, f.g10}), QString("g10 on unit"));

        // Deleting a profile hides its runs; undo shows them again.
        dock->deleteItem({Kind::Profile, f.step8});
        QCOMPARE(model->rowCount(), 1);
        QVERIFY(runNames(ws).isEmpty());
        QCOMPARE(window.undoStack()->undoText(), QString("Delete profile ‘step8’"));
        window.undoStack()->undo();
        QCOMPARE(model->rowCount(), 2);
        QCOMPARE(runNames(ws).size(), 2);
    }

    void selectingAStoredRunShowsItsStoredResult() {
        QTemporaryDir dir;
        const QString path = dir.filePath("w.spillway");
        const FilledWorkspace f = fillWorkspace(path);
        MainWindow window(path);
        window.setErrorDialogsEnabled(false);
        QSignalSpy shown(&window, &MainWindow::storedRunShown);
        auto* tree = window.workspaceDock()->tree();
        tree->setCurrentIndex(window.workspaceSession()->model()->indexOf({Kind::Run, f.g10}));
        QVERIFY(shown.wait(30000));
        QCOMPARE(shown.first().first().toLongLong(), f.g10);
        QCOMPARE(window.shownStoredRunId(), f.g10);
        QCOMPARE(window.currentProfileId(), f.step8);
        QVERIFY(window.currentRun());
        QCOMPARE(window.currentRun()->name, QString("g10 on unit"));
        QVERIFY(window.currentRun()->result == f.g10Run->result);
        QVERIFY(window.currentRun()->hardware == f.g10Run->hardware);
        QCOMPARE(window.viewData()->profile->kernels.size(), f.g10Run->profile->profile->kernels.size());
        // The What-if dock shows the stored run's machine and policy.
        QCOMPARE(window.whatIfPanel()->settings().policy, QString("g10"));
        // The panel keeps the stored machine's values exactly (it only shows them rounded).
        QCOMPARE(window.whatIfPanel()->settings().gpuBytes, qint64(f.g10Run->hardware.gpuCapacity));
    }

    void openingAProfileOffersToKeepItAndKeepsItOnce() {
        // Issue 20: an opened file is not copied into the workspace silently; the banner offers
        // it, Keep stores it, and opening it again finds that copy.
        QTemporaryDir dir;
        const QString path = dir.filePath("w.spillway");
        MainWindow window(path);
        window.setErrorDialogsEnabled(false);
        QSignalSpy stored(&window, &MainWindow::profileStored);
        QSignalSpy loaded(&window, &MainWindow::profileLoaded);
        window.openProfileWith(test::fixtureProfilePath("tiny-mlp.profile.json"), {});
        QVERIFY(loaded.wait(30000));
        QTRY_VERIFY_WITH_TIMEOUT(window.keepProfileBanner()->isVisibleTo(&window), 30000);
        QVERIFY2(window.keepProfileBanner()->text().contains("not in the workspace"),
                 qPrintable(window.keepProfileBanner()->text()));
        QCOMPARE(stored.count(), 0);
        QCOMPARE(window.currentProfileId(), qint64(0));
        QVERIFY(window.workspaceSession()->workspace()->listProfiles().empty());
        window.keepProfileBanner()->keepButton()->click();
        QVERIFY(stored.wait(30000));
        QVERIFY(!window.keepProfileBanner()->isVisibleTo(&window));
        const qint64 id = stored.first().first().toLongLong();
        QCOMPARE(window.currentProfileId(), id);
        window.openProfileWith(test::fixtureProfilePath("tiny-mlp.profile.json"), {});
        QVERIFY(stored.wait(30000));
        QCOMPARE(stored.last().first().toLongLong(), id);  // the existing copy, not a second one
        QVERIFY(!window.keepProfileBanner()->isVisibleTo(&window));
        QCOMPARE(window.workspaceSession()->workspace()->listProfiles().size(), size_t(1));
        QCOMPARE(window.workspaceSession()->model()->rowCount(), 1);
    }

    void keptRunIsRestoredByTheNextWindow() {
        QTemporaryDir dir;
        const QString path = dir.filePath("w.spillway");
        qint64 kept = 0;
        SimulationResult keptResult;
        Bytes keptGpu = 0;
        {
            MainWindow window(path);
            window.setErrorDialogsEnabled(false);
            QSignalSpy shown(&window, &MainWindow::runShown);
            QSignalSpy keptSpy(&window, &MainWindow::runKept);
            window.openProfileWith(test::fixtureProfilePath("tiny-mlp.profile.json"), {});
            QVERIFY(shown.wait(30000));
            bool keepShortcut = false;  // Run > Keep Run… asks for the name, then does this
            for (QAction* a : window.findChildren<QAction*>())
                keepShortcut |= a->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_K) && a->isEnabled();
            QVERIFY(keepShortcut);
            window.keepCurrentRun("mine");
            QVERIFY(keptSpy.wait(30000));
            kept = keptSpy.first().first().toLongLong();
            // Keeping what is already kept stores nothing more.
            window.keepCurrentRun("again");
            QTest::qWait(50);
            window.workspaceSession()->writer()->waitForIdle();
            QCOMPARE(window.workspaceSession()->workspace()->listRuns().size(), size_t(1));
            keptResult = window.currentRun()->result;
            keptGpu = window.currentRun()->hardware.gpuCapacity;
            QCOMPARE(window.shownStoredRunId(), kept);
            QCOMPARE(window.workspaceDock()->currentItem(), (WorkspaceItem{Kind::Run, kept}));
            const store::StoredRun stored = window.workspaceSession()->workspace()->loadRun(kept);
            QCOMPARE(stored.summary.name, std::string("mine"));
            QVERIFY(stored.result == keptResult);
            window.tabs()->setCurrentWidget(window.stallBreakdown());
        }
        MainWindow next(path);
        next.setErrorDialogsEnabled(false);
        QSignalSpy shown(&next, &MainWindow::storedRunShown);
        QVERIFY(shown.wait(30000));
        QCOMPARE(shown.first().first().toLongLong(), kept);
        QCOMPARE(next.currentRun()->name, QString("mine"));
        QVERIFY(next.currentRun()->result == keptResult);
        QCOMPARE(next.currentRun()->hardware.gpuCapacity, keptGpu);
        QCOMPARE(next.tabs()->currentWidget(), static_cast<QWidget*>(next.stallBreakdown()));
        QCOMPARE(next.workspaceDock()->currentItem(), (WorkspaceItem{Kind::Run, kept}));
        QVERIFY(next.windowTitle().contains("tiny-mlp"));
    }

    void duplicateWithChangesStoresASecondRun() {
        QTemporaryDir dir;
        const QString path = dir.filePath("w.spillway");
        MainWindow window(path);
        window.setErrorDialogsEnabled(false);
        QSignalSpy shown(&window, &MainWindow::runShown);
        QSignalSpy keptSpy(&window, &MainWindow::runKept);
        QSignalSpy duplicated(&window, &MainWindow::runDuplicated);
        window.openProfileWith(test::fixtureProfilePath("tiny-mlp.profile.json"), {});
        QVERIFY(shown.wait(30000));
        window.keepCurrentRun();
        QVERIFY(keptSpy.wait(30000));
        const qint64 source = keptSpy.first().first().toLongLong();
        store::Workspace& ws = *window.workspaceSession()->workspace();
        const store::StoredRun before = ws.loadRun(source);

        views::WhatIfSettings changed = window.whatIfPanel()->settings();
        changed.gpuBytes = before.hardware.gpuCapacity / 2;
        changed.policy = before.plan.policy == "uvm" ? "deepum" : "uvm";
        window.whatIfPanel()->setSettings(changed);
        window.duplicateRunWithChanges(source);
        QVERIFY(duplicated.wait(30000));
        const qint64 copy = duplicated.first().first().toLongLong();
        QVERIFY(copy != source);
        QCOMPARE(ws.listRuns().size(), size_t(2));
        const store::StoredRun after = ws.loadRun(copy);
        QCOMPARE(after.hardware.gpuCapacity, before.hardware.gpuCapacity / 2);
        QCOMPARE(QString::fromStdString(after.plan.policy), changed.policy);
        QCOMPARE(after.summary.profileId, before.summary.profileId);
        QVERIFY(QString::fromStdString(after.summary.name).contains("policy " + changed.policy));
        // The source is as it was.
        QVERIFY(ws.loadRun(source).hardware == before.hardware);
        QVERIFY(ws.loadRun(source).result == before.result);
        QCOMPARE(window.undoStack()->undoText(),
                 QString("Duplicate run ‘%1’ with changes").arg(QString::fromStdString(before.summary.name)));
        window.undoStack()->undo();
        QCOMPARE(ws.listRuns().size(), size_t(1));
        QVERIFY(!window.workspaceSession()->model()->indexOf({Kind::Run, copy}).isValid());
        window.undoStack()->redo();
        QCOMPARE(ws.listRuns().size(), size_t(2));
        QCOMPARE(ws.listRuns().back().id, copy);
    }

    void refusesFilesThatAreNotWorkspacesWithoutTouchingThem() {
        QTemporaryDir dir;
        const QString good = dir.filePath("good.spillway");
        MainWindow window(good);
        window.setErrorDialogsEnabled(false);
        QSignalSpy failed(&window, &MainWindow::workspaceFailed);

        const QString text = dir.filePath("notes.spillway");
        {
            QFile f(text);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray("These are my notes, not a workspace.\n").repeated(10));
        }
        const QByteArray textBytes = fileBytes(text);
        QVERIFY(!window.openWorkspace(text));
        QCOMPARE(failed.count(), 1);
        QCOMPARE(failed.first().at(0).toString(), text);
        QVERIFY2(failed.first().at(1).toString().contains(text), qPrintable(failed.first().at(1).toString()));
        QVERIFY2(failed.first().at(1).toString().contains("SQLite"), qPrintable(failed.first().at(1).toString()));
        QCOMPARE(fileBytes(text), textBytes);
        QCOMPARE(window.workspaceSession()->path(), good);
        QVERIFY(window.workspaceSession()->workspace());

        // A real workspace with a page overwritten in the middle.
        const QString damaged = dir.filePath("damaged.spillway");
        fillWorkspace(damaged);
        QByteArray bytes = fileBytes(damaged);
        QVERIFY(bytes.size() > 4 * 4096);
        for (qsizetype i = 4096; i < 2 * 4096; ++i) bytes[i] = char(0xA5);
        {
            QFile f(damaged);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
        }
        QVERIFY(!window.openWorkspace(damaged));
        QCOMPARE(failed.count(), 2);
        QVERIFY2(failed.last().at(1).toString().contains(damaged), qPrintable(failed.last().at(1).toString()));
        QCOMPARE(fileBytes(damaged), bytes);
        QVERIFY(!QFile::exists(damaged + "-wal"));
        QCOMPARE(window.workspaceSession()->path(), good);

        // Started on a bad file: no workspace, and the file is still not overwritten.
        MainWindow onBad(text);
        QVERIFY(!onBad.workspaceSession()->isOpen());
        QCOMPARE(fileBytes(text), textBytes);
    }

    void newWorkspaceRefusesAnExistingFile() {
        QTemporaryDir dir;
        MainWindow window(dir.filePath("a.spillway"));
        window.setErrorDialogsEnabled(false);
        QSignalSpy failed(&window, &MainWindow::workspaceFailed);
        const QString existing = dir.filePath("existing.txt");
        {
            QFile f(existing);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("keep me");
        }
        QVERIFY(!window.newWorkspace(existing));
        QCOMPARE(fileBytes(existing), QByteArray("keep me"));
        QCOMPARE(window.workspaceSession()->path(), dir.filePath("a.spillway"));
        const QString fresh = dir.filePath("b.spillway");
        QVERIFY(window.newWorkspace(fresh));
        QCOMPARE(window.workspaceSession()->path(), fresh);
        QCOMPARE(window.workspaceSession()->model()->rowCount(), 0);
        {
            // The workspace switched to is the one the next start opens.
            MainWindow next;
            QCOMPARE(next.workspaceSession()->path(), fresh);
        }
        QSettings().remove("workspace/last");
    }
};

QTEST_MAIN(TestWorkspaceDock)
#include "tst_workspace_dock.moc"
