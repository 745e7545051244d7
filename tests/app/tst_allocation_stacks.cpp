// Allocation stacks in the real window, offscreen, on the GPT-2 capture (Python stacks recorded
// by torch.cuda.memory._record_memory_history): the Stack dock beside every tab shows the
// selected tensor's frames with the user's first frame marked, the Tensors table and the Frames
// tab select through the ViewLink, the Overview shows the import notes, and File ▸ Open's
// iteration choice reaches the loader.
#include "app/gui/main_window.h"
#include "app/gui/open_profile_dialog.h"
#include "app_fixtures.h"
#include "core/analysis/frame_totals.h"
#include "core/trace/kind_evidence.h"
#include "views/filtered_table_view.h"
#include "views/frame_totals_model.h"
#include "views/profile_overview_widget.h"
#include "views/stack_pane.h"
#include "views/table_roles.h"
#include "views/view_link.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QtTest>

using namespace spillway;
using spillway::app::MainWindow;

namespace {

const QString kGpt2 = QStringLiteral(SPILLWAY_SHARED_DATA "/h200/captures/gpt2-b8.snapshot.pickle");

// The largest tensor with a stack whose first frame is torch's (so the marked frame is not row 0).
std::int64_t largestStackedTensor(const Profile& profile) {
    std::int64_t best = -1;
    for (size_t t = 0; t < profile.tensors.size(); ++t)
        if (firstUserFrame(profile.tensors[t]) > 0 && (best < 0 || profile.tensors[t].bytes > profile.tensors[size_t(best)].bytes))
            best = std::int64_t(t);
    return best;
}

bool openAndWait(MainWindow& window, const QString& path, std::int64_t iteration) {
    QSignalSpy loaded(&window, &MainWindow::profileLoaded);
    window.openProfile(path, iteration);
    return loaded.wait(60000);
}

}  // namespace

class TestAllocationStacks : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("SpillwayTests");
        QCoreApplication::setApplicationName("tst_allocation_stacks");
        spillway::test::startFromCleanAppState();
    }

    void stackPaneBesideEveryTab() {
        if (!QFileInfo::exists(kGpt2)) QSKIP("shared data missing: gpt2-b8.snapshot.pickle");
        MainWindow window;
        window.setErrorDialogsEnabled(false);
        window.show();
        QVERIFY(openAndWait(window, kGpt2, ImportOptions::kSteadyIteration));
        const Profile& profile = *window.viewData()->profile;
        const std::int64_t pos = largestStackedTensor(profile);
        QVERIFY(pos >= 0);
        const Tensor& tensor = profile.tensors[size_t(pos)];
        auto* pane = window.stackPane();
        auto* dock = window.findChild<QDockWidget*>("stackDock");
        QVERIFY(dock);

        window.viewLink()->selectTensor(pos);
        QCOMPARE(pane->frameCount(), int(tensor.frames.size()));
        QCOMPARE(pane->userFrameRow(), int(firstUserFrame(tensor)));
        QVERIFY(pane->headerText().contains(QString::fromStdString(tensor.name)));
        const std::string_view marked = tensor.frames[size_t(pane->userFrameRow())];
        QVERIFY(!isTorchFrame(marked));
        QVERIFY(isTorchFrame(tensor.frames[0]));
        // Python frames: the user's is outside site-packages/torch, e.g. transformers' GPT-2 or the script.
        QVERIFY2(pane->frameText(pane->userFrameRow()).contains(".py:"), qPrintable(pane->frameText(pane->userFrameRow())));
        // The dock stays beside every tab.
        for (int t = 0; t < window.tabs()->count(); ++t) {
            window.tabs()->setCurrentIndex(t);
            QVERIFY2(dock->isVisible(), qPrintable(window.tabs()->tabText(t)));
        }
        QCOMPARE(pane->frameCount(), int(tensor.frames.size()));
    }

    void tablesSelectThroughTheLink() {
        if (!QFileInfo::exists(kGpt2)) QSKIP("shared data missing: gpt2-b8.snapshot.pickle");
        MainWindow window;
        window.setErrorDialogsEnabled(false);
        window.show();
        QVERIFY(openAndWait(window, kGpt2, ImportOptions::kSteadyIteration));
        const auto& data = *window.viewData();
        QVERIFY(!data.frameTotals.frames.empty());
        QCOMPARE(window.tabs()->tabText(window.tabs()->indexOf(window.framesTable())),
                 QString("Frames (%1)").arg(data.frameTotals.frames.size()));
        QCOMPARE(window.tabs()->indexOf(window.framesTable()), window.tabs()->indexOf(window.tensorTable()) + 1);

        // The Frames tab lists the largest inclusive bytes first; a row selects its largest tensor.
        auto* frames = window.framesTable();
        QCOMPARE(frames->proxy()->rowCount(), int(data.frameTotals.frames.size()));
        QCOMPARE(frames->proxy()->index(0, views::FrameTotalsModel::Inclusive).data(views::kSortRole).toLongLong(),
                 data.frameTotals.frames.front().inclusiveBytes);
        const int row = 5;
        const QModelIndex index = frames->proxy()->index(row, 0);
        frames->table()->setCurrentIndex(index);
        const auto* frame = &data.frameTotals.frames[size_t(frames->proxy()->mapToSource(index).row())];
        QCOMPARE(window.viewLink()->selectedTensor(), frame->largestTensor);
        QCOMPARE(window.stackPane()->frameCount(), int(data.profile->tensors[size_t(frame->largestTensor)].frames.size()));

        // The Tensors table follows the link, and its current row selects on it.
        auto* tensors = window.tensorTable();
        QCOMPARE(tensors->proxy()->mapToSource(tensors->table()->currentIndex()).row(), int(frame->largestTensor));
        const QModelIndex other = tensors->proxy()->index(3, 0);
        tensors->table()->setCurrentIndex(other);
        const int otherPos = tensors->proxy()->mapToSource(other).row();
        QCOMPARE(window.viewLink()->selectedTensor(), otherPos);
        QCOMPARE(window.stackPane()->frameCount(), int(data.profile->tensors[size_t(otherPos)].frames.size()));
    }

    void overviewShowsIterationsKindRulesAndWarnings() {
        if (!QFileInfo::exists(kGpt2)) QSKIP("shared data missing: gpt2-b8.snapshot.pickle");
        MainWindow window;
        window.setErrorDialogsEnabled(false);
        QVERIFY(openAndWait(window, kGpt2, ImportOptions::kSteadyIteration));
        const auto& notes = window.viewData()->profile->metadata.notes;
        if (!notes.contains("iterations.found")) QSKIP("the snapshot importer writes no iterations.* notes");
        const QString text = window.overview()->summaryText();
        QVERIFY2(text.contains(QString("Iterations\t%1 found; showing iteration").arg(QString::fromStdString(notes.at("iterations.found")))) ||
                     text.contains(QString("%1 found; showing iteration").arg(QString::fromStdString(notes.at("iterations.found")))),
                 qPrintable(text));
        QVERIFY(text.contains("as if none were freed"));
        QVERIFY(text.contains("How the tensor kinds were decided"));
        QVERIFY(text.contains("unclassified"));
        QVERIFY(text.contains("persistent-with-gradient"));
        QCOMPARE(text.contains("Warning"), !warningNotes(notes).empty() || unclassifiedKindShare(notes) > kUnclassifiedWarning);
    }

    void openDialogIterationChoiceReachesTheLoader() {
        // The dialog carries the choice, set from the last one.
        std::unique_ptr<QFileDialog> dialog(app::makeOpenProfileDialog(nullptr, QDir::tempPath(), 3));
        auto* choice = dialog->findChild<app::IterationChoice*>("iterationChoice");
        QVERIFY(choice);
        QCOMPARE(choice->iteration(), 3);
        QCOMPARE(choice->combo()->currentIndex(), int(app::IterationChoice::Number));
        QVERIFY(choice->number()->isEnabled());
        choice->combo()->setCurrentIndex(app::IterationChoice::All);
        QCOMPARE(choice->iteration(), ImportOptions::kAllIterations);
        QVERIFY(!choice->number()->isEnabled());
        choice->combo()->setCurrentIndex(app::IterationChoice::Steady);
        QCOMPARE(choice->iteration(), ImportOptions::kSteadyIteration);
        QCOMPARE(choice->combo()->itemText(0), QString("steady-state (default)"));

        if (!QFileInfo::exists(kGpt2)) QSKIP("shared data missing: gpt2-b8.snapshot.pickle");
        MainWindow window;
        window.setErrorDialogsEnabled(false);
        QVERIFY(openAndWait(window, kGpt2, ImportOptions::kSteadyIteration));
        QCOMPARE(window.currentOptions().iteration, ImportOptions::kSteadyIteration);
        const auto steadyTensors = window.viewData()->summary.tensorCount;
        QVERIFY(openAndWait(window, kGpt2, ImportOptions::kAllIterations));
        QCOMPARE(window.currentOptions().iteration, ImportOptions::kAllIterations);
        const auto& notes = window.viewData()->profile->metadata.notes;
        if (!notes.contains("iterations.imported")) QSKIP("the snapshot importer writes no iterations.* notes");
        QCOMPARE(notes.at("iterations.imported"), std::string("all"));
        QVERIFY(window.viewData()->summary.tensorCount > steadyTensors);
        QVERIFY(window.overview()->summaryText().contains("showing all of them"));
        // Reload reads with the same choice.
        QAction* reload = nullptr;
        for (QAction* a : window.findChildren<QAction*>())
            if (a->shortcut() == QKeySequence(QKeySequence::Refresh)) reload = a;
        QVERIFY(reload);
        QSignalSpy loaded(&window, &MainWindow::profileLoaded);
        reload->trigger();
        QVERIFY(loaded.wait(60000));
        QCOMPARE(window.currentOptions().iteration, ImportOptions::kAllIterations);
        QCOMPARE(window.viewData()->profile->metadata.notes.at("iterations.imported"), std::string("all"));
        // A number past the last iteration is an error naming the file; the open profile stays.
        QSignalSpy failed(&window, &MainWindow::loadFailed);
        const auto before = window.viewData();
        window.openProfile(kGpt2, 99);
        QVERIFY(failed.wait(60000));
        QVERIFY2(failed.first().at(1).toString().contains("gpt2-b8.snapshot.pickle"), qPrintable(failed.first().at(1).toString()));
        QCOMPARE(window.viewData(), before);
    }
};

QTEST_MAIN(TestAllocationStacks)
#include "tst_allocation_stacks.moc"
