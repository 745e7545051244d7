// The Sweep tab set to "batch profiles": three profile files of one model at batches 4, 1, 2
// become three points per policy, in batch order, drawn at the speedups and stall shares the
// sweep computed; profiles stored in the open workspace can be swept the same way; a set with
// the same batch twice is refused with a message naming the file, and nothing is drawn.
#include "app/gui/keep_profile_banner.h"
#include "app/gui/main_window.h"
#include "app/gui/sweep_page.h"
#include "app/gui/sweep_profile_list.h"
#include "app/gui/workspace_jobs.h"
#include "core/io/native/native_json.h"
#include "core/hardware/hardware_presets.h"
#include "tests/app/app_fixtures.h"
#include "tests/support/tiny_gpt.h"

#include <QPushButton>
#include "views/sweep_widget.h"
#include "views/what_if_panel.h"

#include <QComboBox>
#include <QLineEdit>
#include <QListWidget>
#include <QtTest>
#include <qcustomplot.h>

using namespace spillway;

namespace {

// A two-layer GPT (390 kernels, 30 MiB of tensors at batch 4) saved as native JSON.
QString writeTinyGpt(const QTemporaryDir& dir, std::int64_t batch) {
    const QString path = dir.filePath(QString("gpt-b%1.json").arg(batch));
    saveNativeProfile(*test::tinyGpt(batch, 2), path.toStdString());
    return path;
}

// G10's A100 with 8 MiB of GPU memory, as the What-if dock would give it.
views::WhatIfSettings smallGpu() {
    HardwareConfig hw = hardwarePreset("g10-a100");
    hw.gpuCapacity = 8 * kMiB;
    return views::whatIfSettingsOf(hw, "uvm");
}

}  // namespace

class TestSweepBatchProfiles : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("SpillwayTests");
        QCoreApplication::setApplicationName("tst_sweep_batch_profiles");
        test::startFromCleanAppState();
    }

    void threeFilesGiveThreePointsPerPolicy() {
        QTemporaryDir dir;
        const QString b4 = writeTinyGpt(dir, 4), b1 = writeTinyGpt(dir, 1), b2 = writeTinyGpt(dir, 2);
        // No profile is open: a batch sweep does not need one.
        app::SweepPage page([] { return nullptr; }, [] { return smallGpu(); });
        page.resize(800, 600);
        page.show();
        page.parameterBox()->setCurrentText(app::SweepPage::batchProfilesItem());
        QVERIFY(page.sweepsBatchProfiles());
        QVERIFY(page.profileList()->isVisible());
        QVERIFY(!page.valuesEdit()->isVisible());
        page.profileList()->addFiles({b4, b1, b2, b1});  // the second b1 is not added again
        QCOMPARE(page.profileList()->list()->count(), 3);
        page.policiesEdit()->setText("uvm, g10");
        QSignalSpy finished(&page, &app::SweepPage::finished);
        page.run();
        QVERIFY(page.isRunning());
        QVERIFY(finished.wait(30000));
        const auto result = finished.first().first().value<std::shared_ptr<const SweepResult>>();
        QCOMPARE(result->spec.values, (std::vector<std::string>{"1", "2", "4"}));
        QCOMPARE(QString::fromStdString(result->spec.profileSources[2]), b4);
        QCOMPARE(result->spec.baseHardware.gpuCapacity, 8 * kMiB);

        const views::SweepWidget* chart = page.chart();
        QCOMPARE(chart->plot()->graphCount(), 2);
        QCOMPARE(chart->stallPlot()->graphCount(), 2);
        QVERIFY(chart->plot()->xAxis->label().contains("batch"));
        for (int p = 0; p < 2; ++p) {
            QCOMPARE(chart->plot()->graph(p)->data()->size(), 3);
            QCOMPARE(chart->stallPlot()->graph(p)->data()->size(), 3);
            for (int v = 0; v < 3; ++v) {
                const SweepCell& cell = result->at(size_t(v), size_t(p));
                QVERIFY2(cell.ok, cell.error.c_str());
                QCOMPARE(chart->plottedSpeedup(p, v), result->speedup(size_t(v), size_t(p)));
                const double stalled = 100.0 * double(cell.iterationTime - cell.totals.compute) /
                                       double(cell.iterationTime);
                QCOMPARE(chart->plottedStallShare(p, v), stalled);
            }
        }
        QCOMPARE(chart->plottedSpeedup(0, 2), 1.0);
        // On the same 8 MiB GPU, plain UVM stalls for a larger share of the iteration at batch 4.
        QVERIFY(chart->plottedStallShare(0, 2) > chart->plottedStallShare(0, 0));
        // The tick under each point reads its batch.
        auto* ticker = static_cast<QCPAxisTickerText*>(chart->plot()->xAxis->ticker().data());
        QCOMPARE(ticker->ticks().value(2.0), QString("4"));

        // The same batch twice: refused naming the file, before anything runs.
        const QString again = dir.filePath("again.json");
        QVERIFY(QFile::copy(b2, again));
        page.profileList()->addFiles({again});
        QSignalSpy failed(&page, &app::SweepPage::failed);
        page.run();
        QVERIFY(failed.wait(30000));
        const QString message = failed.first().first().toString();
        QVERIFY2(message.contains(again) && message.contains("batch 2"), qPrintable(message));
        QCOMPARE(finished.size(), 1);
    }

    void workspaceProfilesCanBeSwept() {
        QTemporaryDir dir;
        const QString b1 = writeTinyGpt(dir, 1), b2 = writeTinyGpt(dir, 2);
        app::MainWindow window(dir.filePath("w.spillway"));
        window.setErrorDialogsEnabled(false);
        QSignalSpy stored(&window, &app::MainWindow::profileStored);
        for (const QString& path : {b1, b2}) {
            window.openProfileWith(path, {});
            // Not copied silently: kept from the banner (issue 20).
            QTRY_VERIFY_WITH_TIMEOUT(window.keepProfileBanner()->isVisibleTo(&window), 30000);
            window.keepProfileBanner()->keepButton()->click();
            QVERIFY(stored.wait(30000));
        }
        app::SweepPage* page = window.sweepPage();
        page->parameterBox()->setCurrentText(app::SweepPage::batchProfilesItem());
        QCOMPARE(page->profileList()->addWorkspaceProfiles(), 2);
        QCOMPARE(page->profileList()->addWorkspaceProfiles(), 0);  // already listed
        QVERIFY(page->profileList()->list()->item(0)->text().startsWith("workspace: "));
        page->policiesEdit()->setText("uvm, most");
        QSignalSpy finished(page, &app::SweepPage::finished);
        page->run();
        QVERIFY(finished.wait(30000));
        const auto result = finished.first().first().value<std::shared_ptr<const SweepResult>>();
        QCOMPARE(result->spec.values, (std::vector<std::string>{"1", "2"}));
        QCOMPARE(page->chart()->plot()->graph(1)->data()->size(), 2);
        // The machine is the What-if dock's, as for a hardware sweep.
        QCOMPARE(result->spec.baseHardware.gpuCapacity, Bytes(window.whatIfPanel()->settings().gpuBytes));
    }
};

QTEST_MAIN(TestSweepBatchProfiles)
#include "tst_sweep_batch_profiles.moc"
