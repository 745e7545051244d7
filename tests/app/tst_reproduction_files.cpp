// What `spillway-cli reproduce` writes into its folder (app/cli/reproduction_files.cpp, compiled
// here as spillway-cli compiles it in the GUI build): report.md first, each figure's CSV, SVG and
// PNG, each sweep's spillway.sweep/1 file that reads back; a bad name writes nothing, and a
// folder that cannot be made is an error naming it.
#define SPILLWAY_CLI_PLOTS
#include "app/cli/reproduction_files.cpp"

#include "core/hardware/hardware_presets.h"
#include "core/io/base/file_text.h"
#include "core/io/valid_profile.h"

#include <QtTest>
#include <QImage>
#include <QSvgRenderer>

#include <cmath>

using namespace spillway;

namespace {

Reproduction smallReproduction() {
    Reproduction r;
    r.paper = "Test paper (Fig. 1)";
    r.setup = "The bundled small GPT on G10's A100.";
    FigureTable f;
    f.id = "fig1";
    f.title = "Fig. 1: speedup";
    f.xLabel = "GPU memory";
    f.yLabel = "speedup over uvm (x)";
    f.groups = {"256MiB", "1GiB"};
    f.series = {"uvm", "g10"};
    f.values = {{1.0, 1.0}, {3.5, std::nan("")}};
    f.caption = "A test figure.";
    r.figures.push_back(f);
    f.id = "fig2";
    f.style = FigureStyle::StackedBars;
    f.series = {"compute", "fault stall"};
    r.figures.push_back(f);
    const Profile profile = loadValidProfile(SPILLWAY_SOURCE_DIR "/samples/lessons/small-gpt.profile.json");
    SweepSpec spec;
    spec.baseHardware = hardwarePreset("g10-a100");
    spec.parameter = "gpu_capacity";
    spec.values = {"256MiB", "1GiB"};
    spec.policies = {"uvm", "g10"};
    r.sweeps.push_back({"gpu-memory", "GPU memory", std::make_shared<const SweepResult>(runSweep(profile, spec))});
    r.comparisons.push_back({"g10 vs uvm", "2x", "3.5x", "ours has less memory"});
    return r;
}

QStringList names(const std::vector<std::filesystem::path>& paths) {
    QStringList out;
    for (const auto& p : paths) out << QString::fromStdString(p.filename().string());
    return out;
}

}  // namespace

class TestReproductionFiles : public QObject {
    Q_OBJECT
private slots:
    void writesEveryFile() {
        const Reproduction r = smallReproduction();
        QTemporaryDir tmp;
        const std::filesystem::path dir = std::filesystem::path(tmp.path().toStdString()) / "out" / "most";
        const auto written = cli::writeReproduction(r, dir);
        QCOMPARE(names(written), QStringList({"report.md", "fig1.csv", "fig2.csv", "gpu-memory.sweep.json", "fig1.svg",
                                              "fig1.png", "fig2.svg", "fig2.png"}));
        for (const auto& p : written) QVERIFY2(std::filesystem::is_regular_file(p), p.c_str());
        QCOMPARE(readFileText(dir / "report.md"), reproductionMarkdown(r));
        QCOMPARE(readFileText(dir / "fig1.csv"), figureCsv(r.figures[0]));
        const SweepResult back = readSweepResult(dir / "gpu-memory.sweep.json");
        QCOMPARE(back.cells.size(), r.sweeps[0].result->cells.size());
        QCOMPARE(back.speedup(1, 1), r.sweeps[0].result->speedup(1, 1));
        QVERIFY(QSvgRenderer(QString::fromStdString((dir / "fig2.svg").string())).isValid());
        QCOMPARE(QImage(QString::fromStdString((dir / "fig1.png").string())).size(), QSize(800, 500));
        // Written again over the same folder: the same files, nothing else touched.
        std::filesystem::path other = dir / "notes.txt";
        writeFileAtomically(other, "mine");
        QCOMPARE(names(cli::writeReproduction(r, dir)), names(written));
        QCOMPARE(readFileText(other), std::string("mine"));
    }

    void badNamesWriteNothing() {
        Reproduction r = smallReproduction();
        r.sweeps[0].stem = "../escape";
        QTemporaryDir tmp;
        const std::filesystem::path dir = std::filesystem::path(tmp.path().toStdString()) / "out";
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, cli::writeReproduction(r, dir));
        QVERIFY(!std::filesystem::exists(dir));
        r = smallReproduction();
        r.figures[1].values[1].pop_back();  // a row shorter than the groups
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, cli::writeReproduction(r, dir));
        QVERIFY(!std::filesystem::exists(dir));
    }

    void folderInTheWayNamesIt() {
        QTemporaryDir tmp;
        const std::filesystem::path file = std::filesystem::path(tmp.path().toStdString()) / "taken";
        writeFileAtomically(file, "a file, not a folder");
        try {
            cli::writeReproduction(smallReproduction(), file);
            QFAIL("wrote into a file");
        } catch (const std::runtime_error& e) {
            QVERIFY2(QString(e.what()).contains(QString::fromStdString(file.string())), e.what());
        }
    }
};

QTEST_MAIN(TestReproductionFiles)
#include "tst_reproduction_files.moc"
