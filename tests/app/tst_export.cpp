// File > Export: the files it writes are real files of their kind. The current view as PNG
// (loads, the view's size, not blank), SVG (well-formed XML with drawing elements and the chart's
// text as text, i.e. vectors) and PDF (%PDF, one page); the run as CSV (one row per kernel, the
// columns sum to the run's totals, names with commas and quotes survive); the Chrome trace (one
// slice per kernel); a run's plan through writeVerifiedPlan (spillway.plan/1 that reads back
// equal, or refused with the verifier's problems and nothing written). Errors name the file.
// (Run as Plan's planning of the What-if settings, against the CLI: tst_plan_round_trip.)
#include "app/gui/export_actions.h"
#include "app/gui/export_plan.h"
#include "core/io/native/profile_hash.h"
#include "core/plan/exported_plan.h"
#include "core/deploy/plan_verifier.h"
#include "app/gui/export_run_csv.h"
#include "app/gui/export_view.h"
#include "app/gui/main_window.h"
#include "app_fixtures.h"
#include "core/policy/planner.h"
#include "core/sim/simulator.h"
#include "tests/core/policy/training_step_8.h"
#include "tests/core/sim/sim_test_support.h"
#include "views/memory_timeline_widget.h"

#include <QAction>
#include <QMenu>
#include <QPainter>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTabWidget>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <map>
#include <set>

using namespace spillway;

namespace {

// The eight-kernel step on a GPU too small for it, with a kernel name that needs CSV quoting.
std::shared_ptr<const views::RunViewData> quotedNameRun() {
    Profile profile = testing::trainingStep8();
    profile.kernels[0].name = "f1, \"fast\"";
    auto shared = std::make_shared<const Profile>(std::move(profile));
    HardwareConfig hw = testing::unitMachine(30 * kMiB);
    hw.iterations = 2;
    Plan plan = makePlan("uvm", *shared, hw);
    SimulationResult result = simulate(*shared, plan, hw);
    return views::makeRunViewData("uvm", views::makeProfileViewData(shared), std::move(plan), hw, std::move(result));
}

// What export_plan does after planning: verify, then write.
app::PlanExportOutcome writeRunPlan(const views::RunViewData& run, const QString& path) {
    const Profile& profile = *run.profile->profile;
    return app::writeVerifiedPlan(profile, makeExportedPlan(profile, run.hardware, run.plan), path);
}

// RFC 4180 rows: quoted fields may hold commas and doubled quotes.
std::vector<QStringList> parseCsv(const QString& text) {
    std::vector<QStringList> rows;
    QStringList row;
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
            else if (c == '"') quoted = false;
            else field += c;
        } else if (c == '"') quoted = true;
        else if (c == ',') row << field, field.clear();
        else if (c == '\n') row << field, field.clear(), rows.push_back(row), row.clear();
        else field += c;
    }
    return rows;
}

// The box around every dark pixel (luminance below 80): axes, ticks and text.
QRect darkBox(const QImage& image) {
    QRect box;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            if (qGray(image.pixel(x, y)) < 80) box |= QRect(x, y, 1, 1);
    return box;
}

QString readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

}  // namespace

class TestExport : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("SpillwayTests");
        QCoreApplication::setApplicationName("tst_export");
        spillway::test::startFromCleanAppState();
    }

    void csvRowsSumToTheRunsTotals() {
        const auto run = quotedNameRun();
        const auto& r = run->result;
        QTemporaryDir dir;
        const QString path = dir.filePath("run.csv");
        QCOMPARE(app::exportRunCsv(*run, path), QString());
        const auto rows = parseCsv(readAll(path));
        QCOMPARE(rows.size(), r.kernels.size() + 1);
        const QStringList header = rows.front();
        QCOMPARE(header.size(), 13);
        auto column = [&](const char* name) { return header.indexOf(QString::fromLatin1(name)); };
        QCOMPARE(rows[1][column("name")], QString("f1, \"fast\""));
        std::map<QString, qint64> sums;
        for (size_t i = 1; i < rows.size(); ++i) {
            QCOMPARE(rows[i].size(), header.size());
            QCOMPARE(rows[i][column("index")].toLongLong(), qint64(i - 1));
            const qint64 start = rows[i][column("start_ns")].toLongLong(), end = rows[i][column("end_ns")].toLongLong();
            QCOMPARE(end - start, r.kernels[i - 1].end - r.kernels[i - 1].start);
            qint64 parts = 0;
            for (const char* c : {"compute_ns", "fault_stall_ns", "oversub_stall_ns", "late_prefetch_stall_ns", "nvlink_stall_ns"}) {
                sums[c] += rows[i][column(c)].toLongLong();
                parts += rows[i][column(c)].toLongLong();
            }
            QCOMPARE(parts, end - start);  // every nanosecond of the window is one part
            sums["overlap_ns"] += rows[i][column("overlap_ns")].toLongLong();
        }
        QCOMPARE(rows[1][column("start_ns")].toLongLong(), qint64(0));  // times from the iteration's start
        QVERIFY(sums["fault_stall_ns"] > 0);  // the small GPU makes it fault
        QCOMPARE(sums["compute_ns"], r.totals.compute);
        QCOMPARE(sums["fault_stall_ns"], r.totals.faultStall);
        QCOMPARE(sums["oversub_stall_ns"], r.totals.oversubStall);
        QCOMPARE(sums["late_prefetch_stall_ns"], r.totals.latePrefetchStall);
        QCOMPARE(sums["overlap_ns"], r.totals.overlap);

        // The totals file beside it: quantity,value,unit.
        QCOMPARE(app::totalsCsvPathFor(path), dir.filePath("run.totals.csv"));
        std::map<QString, qint64> totals;
        const auto totalRows = parseCsv(readAll(dir.filePath("run.totals.csv")));
        QCOMPARE(totalRows.front(), (QStringList{"quantity", "value", "unit"}));
        for (size_t i = 1; i < totalRows.size(); ++i) totals[totalRows[i][0]] = totalRows[i][1].toLongLong();
        QCOMPARE(totals["compute"], sums["compute_ns"]);
        QCOMPARE(totals["fault_stall"], sums["fault_stall_ns"]);
        QCOMPARE(totals["iteration_time"], r.iterationTime);
        QCOMPARE(totals["traffic_host_to_gpu"], r.traffic[static_cast<int>(LinkId::HostToGpu)]);
        QCOMPARE(totals["kernels"], qint64(r.kernels.size()));
    }

    // Issue 15: QSaveFile renamed a file over a FIFO (or, as root, over /dev/null); the app's
    // exports now go through core's one write path, which writes into what is not a regular file.
    void exportsIntoAFifoKeepTheFifo() {
        const auto run = quotedNameRun();
        QTemporaryDir dir;
        const QString fifo = dir.filePath("run.csv");
        const QByteArray name = QFile::encodeName(fifo);
        QCOMPARE(::mkfifo(name.constData(), 0600), 0);
        // The reader is this test itself, opened first and non-blocking, so the write neither
        // blocks nor depends on another thread.
        const int reader = ::open(name.constData(), O_RDWR | O_NONBLOCK);
        QVERIFY(reader >= 0);
        const QString error = app::exportRunCsv(*run, fifo);
        QCOMPARE(error, QString());
        struct stat st {};
        QCOMPARE(::stat(name.constData(), &st), 0);
        QVERIFY2(S_ISFIFO(st.st_mode), "the FIFO was replaced by a file");
        QByteArray got(1 << 16, '\0');
        const auto n = ::read(reader, got.data(), got.size());
        ::close(reader);
        QVERIFY(n > 0);
        QVERIFY(got.startsWith("index,position,kernel_id,name"));
        QVERIFY(!QFileInfo::exists(fifo + ".part"));
    }

    void viewImagesAreRealFiles() {
        app::MainWindow window;
        window.setErrorDialogsEnabled(false);
        window.resize(1100, 760);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy shown(&window, &app::MainWindow::runShown);
        window.openProfileWith(test::fixtureProfilePath("tiny-mlp.profile.json"), {});
        QVERIFY(shown.wait(30000));
        window.tabs()->setCurrentWidget(window.memoryTimeline());
        QWidget* view = window.tabs()->currentWidget();
        QTest::qWait(50);
        QTemporaryDir dir;

        const QString png = dir.filePath("view.png");
        QCOMPARE(app::exportViewImage(view, png), QString());
        QImage image(png);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), view->size() * view->devicePixelRatio());
        std::set<QRgb> colours;
        for (int y = 0; y < image.height(); y += 4)
            for (int x = 0; x < image.width(); x += 4) colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() > 10, qPrintable(QString::number(colours.size())));

        const QString svg = dir.filePath("view.svg");
        QCOMPARE(app::exportViewImage(view, svg), QString());
        QFile svgFile(svg);
        QVERIFY(svgFile.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&svgFile);
        std::map<QString, int> elements;
        QString text;
        while (!xml.atEnd()) {
            if (xml.readNext() == QXmlStreamReader::StartElement) {
                ++elements[xml.name().toString()];
                if (xml.name() == QLatin1String("text")) text += xml.readElementText(QXmlStreamReader::IncludeChildElements);
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(elements["svg"] == 1);
        QVERIFY2(elements["path"] + elements["polyline"] + elements["rect"] > 20, qPrintable(QString::number(elements["path"])));
        // The chart's axis label is text, not pixels: the chart was drawn as vectors.
        QVERIFY2(text.contains("time (ms)"), qPrintable(text.left(200)));
        // And at the screen's scale: drawn back, its dark pixels (axes, ticks, text) span the
        // same box as the PNG's, within a few pixels.
        QSvgRenderer renderer(svg);
        QImage fromSvg(view->size(), QImage::Format_ARGB32);
        fromSvg.fill(Qt::white);
        QPainter painter(&fromSvg);
        renderer.render(&painter);
        painter.end();
        const QRect svgBox = darkBox(fromSvg), pngBox = darkBox(image.scaled(view->size()));
        QVERIFY2(std::abs(svgBox.left() - pngBox.left()) <= 6 && std::abs(svgBox.right() - pngBox.right()) <= 6 &&
                     std::abs(svgBox.top() - pngBox.top()) <= 6 && std::abs(svgBox.bottom() - pngBox.bottom()) <= 6,
                 qPrintable(QString("svg %1,%2 %3x%4 vs png %5,%6 %7x%8")
                                .arg(svgBox.x()).arg(svgBox.y()).arg(svgBox.width()).arg(svgBox.height())
                                .arg(pngBox.x()).arg(pngBox.y()).arg(pngBox.width()).arg(pngBox.height())));

        const QString pdf = dir.filePath("view.pdf");
        QCOMPARE(app::exportViewImage(view, pdf), QString());
        QFile pdfFile(pdf);
        QVERIFY(pdfFile.open(QIODevice::ReadOnly));
        const QByteArray bytes = pdfFile.readAll();
        QVERIFY(bytes.startsWith("%PDF-"));
        const auto pages = QString::fromLatin1(bytes).count(QRegularExpression("/Type\\s*/Page[^s]"));
        QCOMPARE(pages, 1);
        QVERIFY(bytes.size() > 2000);

        // Unknown type: refused, naming the file; nothing written.
        const QString bmp = dir.filePath("view.bmp");
        QVERIFY(app::exportViewImage(view, bmp).contains(bmp));
        QVERIFY(!QFile::exists(bmp));
    }

    void chromeTraceAndMenuFollowTheRun() {
        app::MainWindow window;
        window.setErrorDialogsEnabled(false);
        app::ExportActions* actions = window.exportActions();
        QVERIFY(actions);
        QCOMPARE(actions->menu()->actions().size(), 7);  // three images, a separator, CSV, trace, plan
        QVERIFY(!actions->csvAction()->isEnabled());
        QVERIFY(!actions->chromeTraceAction()->isEnabled());
        QVERIFY(!actions->planAction()->isEnabled());
        QSignalSpy shown(&window, &app::MainWindow::runShown);
        window.openProfileWith(test::fixtureProfilePath("tiny-mlp.profile.json"), {});
        QVERIFY(shown.wait(30000));
        QVERIFY(actions->csvAction()->isEnabled());
        QVERIFY(actions->chromeTraceAction()->isEnabled());
        QVERIFY(actions->planAction()->isEnabled());

        QTemporaryDir dir;
        const QString path = dir.filePath("run.trace.json");
        const auto run = window.currentRun();
        QCOMPARE(app::exportChromeTrace(*run, path), QString());
        const auto trace = nlohmann::json::parse(readAll(path).toStdString());
        int kernels = 0;
        for (const auto& e : trace.at("traceEvents")) kernels += e.at("ph") == "X" && e.value("cat", "") == "kernel";
        QCOMPARE(kernels, int(run->result.kernels.size()));

        const QString bad = "/nonexistent-folder/run.csv";
        QVERIFY(app::exportRunCsv(*run, bad).contains(bad));
        QVERIFY(app::exportChromeTrace(*run, "/nonexistent-folder/t.json").contains("/nonexistent-folder/t.json"));
    }

    void planWritesAFileThatReadsBack() {
        const auto run = quotedNameRun();
        QTemporaryDir dir;
        const QString path = dir.filePath("run.plan.json");
        const app::PlanExportOutcome outcome = writeRunPlan(*run, path);
        QVERIFY2(outcome.written(), qPrintable(outcome.error + outcome.problems.join("\n")));
        const ExportedPlan back = readExportedPlan(path.toStdString());
        const Profile& profile = *run->profile->profile;
        QCOMPARE(back.profileHash, profileHash(profile));
        QVERIFY(back.hardware == run->hardware);
        QCOMPARE(back.plan.directives.size(), run->plan.directives.size());
        QVERIFY(back.plan.directives == run->plan.directives);
        QCOMPARE(back.plan.order.size(), profile.kernels.size());  // spelt out
        QVERIFY(verifyPlan(profile, back).ok());
    }

    void refusedPlanIsListedAndNotWritten() {
        // The same run, but its plan may not fault: on 30 MiB the eight-kernel step must fault.
        const auto run = quotedNameRun();
        views::RunViewData strict = *run;
        strict.plan.allowFaults = false;
        QTemporaryDir dir;
        const QString path = dir.filePath("strict.plan.json");
        const app::PlanExportOutcome outcome = writeRunPlan(strict, path);
        QVERIFY(!outcome.written());
        QVERIFY(!outcome.problems.isEmpty());
        QVERIFY2(outcome.problems.front().startsWith("[used-while-absent] kernel "), qPrintable(outcome.problems.front()));
        QVERIFY(outcome.problems.front().contains("tensor "));
        QVERIFY(!QFile::exists(path));
        const QString bad = "/nonexistent-folder/run.plan.json";
        QVERIFY(writeRunPlan(*run, bad).error.contains(bad));
    }
};

QTEST_MAIN(TestExport)
#include "tst_export.moc"
