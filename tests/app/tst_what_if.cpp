// Live what-if: a change on the panel re-simulates on a worker thread and every run view shows
// the new result; a newer request supersedes an older one, so the views never show a stale
// setting; a setting the simulator refuses is reported, not crashed on.
#include "app/gui/main_window.h"
#include "core/hardware/hardware_presets.h"
#include "app/gui/offsets_page.h"
#include "app/gui/simulation_runner.h"
#include "app/gui/sweep_page.h"
#include "views/sweep_widget.h"
#include "app_fixtures.h"
#include "views/memory_timeline_widget.h"
#include "views/stall_breakdown_widget.h"
#include "views/tensor_gantt_widget.h"
#include "views/what_if_panel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QFile>
#include <QtTest>

#include <cmath>

using namespace spillway;
using spillway::app::MainWindow;
using spillway::app::SimulationRunner;

namespace {

views::WhatIfSettings g10Machine(double gpuGiB) {
    views::WhatIfSettings s;
    s.preset = "g10-a100";
    s.policy = "uvm";
    s.gpuBytes = static_cast<qint64>(gpuGiB * double(kGiB));
    s.hostBytes = 64 * kGiB;
    s.ssdBytesPerSecond = 3'200'000'000;
    s.pcieBytesPerSecond = 15'754'000'000;
    s.faultLatencyNs = 45'000;
    return s;
}

}  // namespace

class TestWhatIf : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("SpillwayTests");
        QCoreApplication::setApplicationName("tst_what_if");
        spillway::test::startFromCleanAppState();
    }

    void newerRequestSupersedesOlder() {
        const auto profile = test::loadTinyMlp();
        SimulationRunner runner;
        QSignalSpy ready(&runner, &SimulationRunner::runReady);
        runner.request(profile, g10Machine(1.0));
        runner.request(profile, g10Machine(2.0));
        QVERIFY(ready.wait(30000));
        QTRY_VERIFY_WITH_TIMEOUT(!runner.isRunning(), 30000);
        QCOMPARE(ready.count(), 1);  // the first one was cancelled or dropped
        const auto run = ready.first().first().value<std::shared_ptr<const views::RunViewData>>();
        QCOMPARE(run->hardware.gpuCapacity, 2 * kGiB);
        QCOMPARE(run->hardware.hostToGpu.bytesPerSecond, Bytes(15'754'000'000));
    }

    void refusedSettingIsReported() {
        const auto profile = test::loadTinyMlp();
        SimulationRunner runner;
        QSignalSpy failed(&runner, &SimulationRunner::runFailed);
        auto bad = g10Machine(1.0);
        bad.gpuBytes = 0;
        runner.request(profile, bad);
        QVERIFY(failed.wait(30000));
        QVERIFY2(failed.first().first().toString().contains("gpu_capacity_bytes: must be at least 1B, got 0"),
                 qPrintable(failed.first().first().toString()));
        auto unknown = g10Machine(1.0);
        unknown.policy = "no-such-policy";
        runner.request(profile, unknown);
        QVERIFY(failed.wait(30000));
        QVERIFY(failed.last().first().toString().contains("no-such-policy"));
    }

    void panelChangeUpdatesEveryRunView() {
        MainWindow window;
        window.setErrorDialogsEnabled(false);
        QSignalSpy shown(&window, &MainWindow::runShown);
        window.openProfileWith(test::fixtureProfilePath("tiny-mlp.profile.json"), {});
        QVERIFY(shown.wait(30000));
        QVERIFY(window.currentRun());
        const auto settings = window.whatIfPanel()->settings();
        QCOMPARE(window.currentRun()->hardware.gpuCapacity, Bytes(settings.gpuBytes));
        QCOMPARE(window.memoryTimeline()->capacityLineBytes(), double(settings.gpuBytes));
        // Halve the GPU memory on the panel: one new run, shown by every run view.
        shown.clear();
        QDoubleSpinBox* gpu = window.whatIfPanel()->gpuBox();
        gpu->setValue(gpu->value() / 2);
        QVERIFY(shown.wait(30000));
        const auto run = window.currentRun();
        QCOMPARE(run->hardware.gpuCapacity, Bytes(window.whatIfPanel()->settings().gpuBytes));
        QCOMPARE(window.memoryTimeline()->capacityLineBytes(), double(run->hardware.gpuCapacity));
        QCOMPARE(window.stallBreakdown()->shownValue(0, views::StallPart::Compute), run->result.totals.compute);
        QCOMPARE(window.tensorGantt()->rowCount(), int(run->profile->profile->tensors.size()));
    }

    // A file spillway-calibrate wrote joins the machine list; picking it runs on that machine
    // (issue 16). A broken one is refused with its place and changes nothing.
    void machineFileJoinsTheListAndDrivesTheRun() {
        const QString file = QStringLiteral(SPILLWAY_SOURCE_DIR "/tests/fixtures/hardware/h200-calibrated.hardware.json");
        MainWindow window;
        window.setErrorDialogsEnabled(false);
        QSignalSpy shown(&window, &MainWindow::runShown);
        window.openProfileWith(test::fixtureProfilePath("tiny-mlp.profile.json"), {});
        QVERIFY(shown.wait(30000));
        shown.clear();
        window.openMachineFile(file);
        QVERIFY(shown.wait(30000));
        QComboBox* machines = window.whatIfPanel()->presetBox();
        QCOMPARE(machines->currentText(), QString("nvidia-h200 (h200-calibrated.hardware.json)"));
        QCOMPARE(window.whatIfPanel()->settings().preset, file);
        const auto run = window.currentRun();
        QCOMPARE(QString::fromStdString(run->hardware.id), QString("nvidia-h200"));
        QVERIFY(run->hardware.kernelLaunch > 0);
        QVERIFY(!run->hardware.measured.empty());
        QCOMPARE(run->hardware.gpuCapacity, Bytes(window.whatIfPanel()->settings().gpuBytes));

        // Adding it again adds nothing; "Machine file…" stays last.
        const int count = machines->count();
        QString error;
        QVERIFY(window.whatIfPanel()->addMachineFile(file, &error));
        QCOMPARE(machines->count(), count);
        QCOMPARE(machines->itemText(count - 1), QString("Machine file…"));

        QTemporaryDir dir;
        const QString broken = dir.filePath("broken.json");
        QFile f(broken);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"format": "spillway.hardware/1", "id": "x", "transfers": {"host_to_gpu": {"pinned_copy":
                   {"points": [["2MiB", "1GB/s"], ["1MiB", "2GB/s"]]}}}})");
        f.close();
        QSignalSpy failed(&window, &MainWindow::machineFileFailed);
        window.openMachineFile(broken);
        QCOMPARE(failed.count(), 1);
        const QString message = failed.at(0).at(1).toString();
        QVERIFY2(message.contains(broken) && message.contains("/transfers/host_to_gpu/pinned_copy/points"),
                 qPrintable(message));
        QCOMPARE(machines->count(), count);
        QCOMPARE(window.whatIfPanel()->settings().preset, file);
    }

    void valuesStayExactUntilEditedThenResetAndUndo() {
        // G10's A100 has PCIe 3 at 15.754 GB/s; the box shows it rounded, the settings keep it
        // exactly, and editing the GPU memory changes that field alone (issue 20).
        views::WhatIfPanel panel;
        panel.selectPreset("g10-a100");
        const HardwareConfig machine = loadHardware("g10-a100");
        QCOMPARE(panel.settings().pcieBytesPerSecond, qint64(std::llround(machine.hostToGpu.bytesPerSecond)));
        QCOMPARE(panel.settings().gpuBytes, qint64(machine.gpuCapacity));
        QCOMPARE(panel.settings().faultLatencyNs, qint64(machine.faultLatency));
        QVERIFY(!panel.canUndo());
        QSignalSpy changed(&panel, &views::WhatIfPanel::settingsChanged);
        panel.gpuBox()->setValue(20.0);  // as typed: 20 GiB
        QCOMPARE(changed.count(), 1);
        QCOMPARE(panel.settings().gpuBytes, qint64(20) * 1024 * 1024 * 1024);
        QCOMPARE(panel.settings().pcieBytesPerSecond, qint64(std::llround(machine.hostToGpu.bytesPerSecond)));
        panel.pcieBox()->setValue(12.5);
        QCOMPARE(panel.settings().pcieBytesPerSecond, qint64(12'500'000'000));
        // Undo steps back one change at a time, each emitted.
        QVERIFY(panel.undo());
        QCOMPARE(panel.settings().pcieBytesPerSecond, qint64(std::llround(machine.hostToGpu.bytesPerSecond)));
        QCOMPARE(panel.settings().gpuBytes, qint64(20) * 1024 * 1024 * 1024);
        QVERIFY(panel.undo());
        QCOMPARE(panel.settings().gpuBytes, qint64(machine.gpuCapacity));
        QVERIFY(!panel.undo());
        QCOMPARE(changed.count(), 4);
        // Reset: the machine's values again, the policy kept.
        panel.policyBox()->setCurrentText("most");
        panel.gpuBox()->setValue(7.0);
        panel.resetToMachine();
        QCOMPARE(panel.settings().gpuBytes, qint64(machine.gpuCapacity));
        QCOMPARE(panel.settings().policy, QString("most"));
        QVERIFY(panel.canUndo());
    }

    void machineFileEntryAsksAndKeepsTheMachine() {
        views::WhatIfPanel panel;
        QComboBox* machines = panel.presetBox();
        panel.selectPreset("most-rtx4090");
        QSignalSpy asked(&panel, &views::WhatIfPanel::machineFileRequested);
        QSignalSpy changed(&panel, &views::WhatIfPanel::settingsChanged);
        machines->setCurrentIndex(machines->count() - 1);
        QCOMPARE(asked.count(), 1);
        QCOMPARE(changed.count(), 0);
        QCOMPARE(panel.settings().preset, QString("most-rtx4090"));
        // A saved setting naming a file brings the file back into the list.
        const QString file = QStringLiteral(SPILLWAY_SOURCE_DIR "/tests/fixtures/hardware/h200-calibrated.hardware.json");
        panel.selectPreset(file);
        QCOMPARE(panel.settings().preset, file);
        QVERIFY(std::abs(panel.gpuBox()->value() - 150109880320.0 / double(kGiB)) < 0.01);  // two decimals
    }

    void faultBatchOrderAndPlacementReachWhatTheyDrive() {
        MainWindow window;
        window.setErrorDialogsEnabled(false);
        QSignalSpy shown(&window, &MainWindow::runShown);
        window.openProfileWith(test::fixtureProfilePath("tiny-mlp.profile.json"), {});
        QVERIFY(shown.wait(30000));
        // The fault batch is part of the machine: a new run on a machine with that batch.
        shown.clear();
        QSpinBox* batch = window.whatIfPanel()->faultBatchBox();
        const int pages = batch->value() == 64 ? 128 : 64;
        batch->setValue(pages);
        QVERIFY(shown.wait(30000));
        QCOMPARE(window.currentRun()->hardware.faultBatchPages, std::int64_t(pages));
        // Order and placement plan the arena: the Offsets tab follows the panel.
        window.whatIfPanel()->orderBox()->setCurrentText("lescea");
        window.whatIfPanel()->placementBox()->setCurrentText("exact");
        QCOMPARE(window.offsetsPage()->request().order, QString("lescea"));
        QCOMPARE(window.offsetsPage()->request().placement, QString("exact"));
        QCOMPARE(window.whatIfPanel()->settings().order, QString("lescea"));
    }

    void sweepTabRunsOnTheWhatIfMachine() {
        MainWindow window;
        window.setErrorDialogsEnabled(false);
        QSignalSpy shown(&window, &MainWindow::runShown);
        window.openProfileWith(test::fixtureProfilePath("tiny-mlp.profile.json"), {});
        QVERIFY(shown.wait(30000));
        app::SweepPage* page = window.sweepPage();
        page->parameterBox()->setCurrentText("pcie.bandwidth");
        page->valuesEdit()->setText("4GB/s, 16GB/s");
        page->policiesEdit()->setText("uvm, g10");
        QSignalSpy finished(page, &app::SweepPage::finished);
        page->run();
        QVERIFY(page->isRunning());
        QVERIFY(finished.wait(30000));
        const auto result = finished.first().first().value<std::shared_ptr<const SweepResult>>();
        QCOMPARE(result->cells.size(), size_t(4));
        // The base machine is the what-if panel's: its GPU memory, the swept PCIe bandwidth.
        QCOMPARE(result->spec.baseHardware.gpuCapacity, Bytes(window.whatIfPanel()->settings().gpuBytes));
        QCOMPARE(page->chart()->plottedSpeedup(1, 1), result->speedup(1, 1));
        // A bad value is refused with a message, nothing runs.
        QSignalSpy failed(page, &app::SweepPage::failed);
        page->valuesEdit()->setText("fast");
        page->run();
        QVERIFY(failed.wait(30000));
        QVERIFY(failed.first().first().toString().contains("fast"));
    }
};

QTEST_MAIN(TestWhatIf)
#include "tst_what_if.moc"
