// The Sweep tab's "Open results…": a spillway.sweep/1 file written by the core writer (as
// `spillway-cli reproduce` writes them) is drawn exactly as a sweep run here, a hardware sweep
// and a batch-profile sweep alike; a broken file says which file and which JSON pointer, and the
// chart keeps what it showed.
#include "app/gui/sweep_page.h"
#include "tests/support/tiny_gpt.h"
#include "core/hardware/hardware_presets.h"
#include "core/io/valid_profile.h"
#include "core/sweep/sweep_result_json.h"
#include "core/trace/transformer_training_graph.h"
#include "views/sweep_widget.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QtTest>
#include <qcustomplot.h>

#include <cmath>

using namespace spillway;

namespace {

std::unique_ptr<app::SweepPage> makePage() {
    return std::make_unique<app::SweepPage>([] { return std::shared_ptr<const views::ProfileViewData>(); },
                                            [] { return views::WhatIfSettings(); });
}

// The bundled small GPT on G10's A100; at 16 MiB no kernel fits, so those cells are gaps.
SweepResult gptSweep() {
    const Profile profile = loadValidProfile(SPILLWAY_SOURCE_DIR "/samples/lessons/small-gpt.profile.json");
    SweepSpec spec;
    spec.baseHardware = hardwarePreset("g10-a100");
    spec.parameter = "gpu_capacity";
    spec.values = {"16MiB", "256MiB", "1GiB"};
    spec.policies = {"uvm", "g10", "most"};
    return runSweep(profile, spec);
}

// What the chart must show for `r`: the speedup, a gap (NaN) where a cell did not run.
void checkDrawn(const views::SweepWidget& chart, const SweepResult& r) {
    QCOMPARE(chart.plot()->graphCount(), int(r.spec.policies.size()));
    for (size_t p = 0; p < r.spec.policies.size(); ++p) {
        QCOMPARE(chart.plot()->graph(int(p))->name(), QString::fromStdString(r.spec.policies[p]));
        for (size_t v = 0; v < r.spec.values.size(); ++v) {
            const double s = r.speedup(v, p);
            if (s > 0)
                QCOMPARE(chart.plottedSpeedup(int(p), int(v)), s);
            else
                QVERIFY(std::isnan(chart.plottedSpeedup(int(p), int(v))));
        }
    }
}

}  // namespace

class TestSweepOpen : public QObject {
    Q_OBJECT
private slots:
    void opensAHardwareSweep() {
        const SweepResult r = gptSweep();
        QVERIFY(!r.at(0, 1).ok);
        QVERIFY(r.speedup(1, 1) > 1.0);
        QTemporaryDir dir;
        const QString path = dir.filePath("gpu.sweep.json");
        writeSweepResult(r, path.toStdString());
        auto page = makePage();
        QSignalSpy finished(page.get(), &app::SweepPage::finished);
        QVERIFY(page->openResults(path));
        checkDrawn(*page->chart(), r);
        QCOMPARE(page->chart()->plot()->xAxis->label(), QString("gpu_capacity"));
        QCOMPARE(finished.count(), 1);
        QCOMPARE(page->parameterBox()->currentText(), QString("gpu_capacity"));
        QCOMPARE(page->valuesEdit()->text(), QString("16MiB, 256MiB, 1GiB"));
        QCOMPARE(page->policiesEdit()->text(), QString("uvm, g10, most"));
        QVERIFY(page->statusLabel()->text().contains("gpu.sweep.json"));
        QVERIFY(page->statusLabel()->text().contains("could not run"));
    }

    void opensABatchSweep() {
        std::vector<BatchProfile> profiles;
        for (std::int64_t batch : {4, 1, 2}) {
            profiles.push_back({"gpt-b" + std::to_string(batch) + ".json", test::tinyGpt(batch, 1)});
        }
        SweepSpec spec;
        spec.baseHardware = hardwarePreset("g10-a100");
        applyHardwareOverrides(spec.baseHardware, {"gpu_capacity=8MiB"});
        spec.policies = {"uvm", "most"};
        const SweepResult r = runBatchSweep(std::move(profiles), spec);
        QTemporaryDir dir;
        const QString path = dir.filePath("batch.sweep.json");
        writeSweepResult(r, path.toStdString());
        auto page = makePage();
        QVERIFY(page->openResults(path));
        checkDrawn(*page->chart(), r);
        QCOMPARE(page->chart()->plot()->xAxis->label(), QString("batch size (one profile each)"));
        QVERIFY(page->sweepsBatchProfiles());
        QVERIFY(page->chart()->plottedStallShare(0, 2) > 0);
    }

    void brokenFileKeepsTheChart() {
        const SweepResult r = gptSweep();
        QTemporaryDir dir;
        const QString good = dir.filePath("good.sweep.json"), bad = dir.filePath("bad.sweep.json");
        writeSweepResult(r, good.toStdString());
        nlohmann::json doc = nlohmann::json::parse(sweepResultToJson(r));
        doc["cells"][4]["iteration_ns"] = "fast";
        QFile file(bad);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray::fromStdString(doc.dump()));
        file.close();
        auto page = makePage();
        QVERIFY(page->openResults(good));
        QSignalSpy failed(page.get(), &app::SweepPage::failed);
        QSignalSpy finished(page.get(), &app::SweepPage::finished);
        QVERIFY(!page->openResults(bad));
        QCOMPARE(failed.count(), 1);
        QCOMPARE(finished.count(), 0);
        const QString status = page->statusLabel()->text();
        QVERIFY2(status.contains(bad + ": /cells/4/iteration_ns"), qPrintable(status));
        QVERIFY2(status.contains("expected"), qPrintable(status));
        checkDrawn(*page->chart(), r);  // still the good file's sweep
        QVERIFY(!page->openResults(dir.filePath("missing.sweep.json")));
        QVERIFY(page->statusLabel()->text().contains("missing.sweep.json"));
        checkDrawn(*page->chart(), r);
    }
};

QTEST_MAIN(TestSweepOpen)
#include "tst_sweep_open.moc"
