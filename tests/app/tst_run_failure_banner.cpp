// A run the GPU cannot hold says why over the run tabs, with the least GPU memory that runs it
// and a button that uses it (issue 20, "honest failures"); the next run that goes clears it.
#include "app/gui/main_window.h"
#include "app/gui/run_failure_banner.h"
#include "app_fixtures.h"
#include "views/what_if_panel.h"

#include <QDoubleSpinBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

#include <cmath>

using namespace spillway;
using namespace spillway::app;

class TestRunFailureBanner : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("SpillwayTests");
        QCoreApplication::setApplicationName("tst_run_failure_banner");
        spillway::test::startFromCleanAppState();
    }

    void theOfferIsWhatThePanelCanHold() {
        QCOMPARE(panelGpuBytesAtLeast(kGiB), kGiB);
        const qint64 gib019 = std::llround(0.19 * double(kGiB));
        QCOMPARE(panelGpuBytesAtLeast(19 * kMiB + 12345), std::llround(0.02 * double(kGiB)));
        QCOMPARE(panelGpuBytesAtLeast(gib019), gib019);
        QVERIFY(panelGpuBytesAtLeast(gib019 + 1) > gib019);
    }

    void aKernelLargerThanTheGpuIsExplainedAndFixedInOneClick() {
        MainWindow window;
        window.setErrorDialogsEnabled(false);
        window.selectWhatIfPreset("g10-a100");  // G10's batcher refuses a kernel larger than the GPU
        QSignalSpy shown(&window, &MainWindow::runShown);
        QSignalSpy failed(&window, &MainWindow::runFailed);
        window.openProfileWith(QString(SPILLWAY_SOURCE_DIR) + "/samples/lessons/small-gpt.profile.json", {});
        QVERIFY(shown.wait(30000));
        RunFailureBanner* banner = window.failureBanner();
        QVERIFY(banner->isHidden());
        window.whatIfPanel()->gpuBox()->setValue(0.01);  // 10.24 MiB: mb0.h0.attn.c_attn needs 19.01 MiB
        QVERIFY(failed.wait(30000));
        QVERIFY(!banner->isHidden());
        QVERIFY2(banner->text().contains("does not fit"), qPrintable(banner->text()));
        const qint64 offer = banner->offeredGpuBytes();
        QVERIFY(offer > 19 * kMiB);
        QVERIFY(!banner->useButton()->isHidden());
        QVERIFY(banner->useButton()->text().contains("GiB"));
        // One click: the panel takes the offer (rounded up to its 0.01 GiB) and the run goes.
        shown.clear();
        banner->useButton()->click();
        QVERIFY(shown.wait(30000));
        QVERIFY(banner->isHidden());
        QCOMPARE(window.whatIfPanel()->settings().gpuBytes, panelGpuBytesAtLeast(offer));
        QCOMPARE(window.currentRun()->hardware.gpuCapacity, Bytes(window.whatIfPanel()->settings().gpuBytes));
    }

    void aFailureMoreMemoryCannotFixHasNoOffer() {
        RunFailureBanner banner;
        banner.showFailure("unknown policy 'x'", 0);
        QVERIFY(!banner.isHidden());
        QVERIFY(banner.useButton()->isHidden());
        banner.clear();
        QVERIFY(banner.isHidden());
    }
};

QTEST_MAIN(TestRunFailureBanner)
#include "tst_run_failure_banner.moc"
