// MOST's evaluation as `spillway-cli reproduce most` runs it, on one workload (BERT-512, a few
// seconds): the figures have the paper's shape and agree with the cells they come from, the
// paper's claims that hold on MOST's machine hold, a workload that cannot run says why in every
// figure, and the report and tables are what a reader and a spreadsheet expect.
#include "core/experiment/figure_table.h"
#include "core/experiment/most_reproduction.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace spillway;

class TestMostReproduction : public QObject {
    Q_OBJECT
    Reproduction bert_;

private slots:
    void initTestCase() {
        ReproductionOptions options;
        options.only = {"BERT-512"};
        bert_ = reproduceMost(options);
    }

    void everyFigureIsWellFormed() {
        QCOMPARE(bert_.figures.size(), size_t(6));
        for (const auto& f : bert_.figures) QVERIFY2(f.shapeError().empty(), f.shapeError().c_str());
        QCOMPARE(bert_.sweeps.size(), size_t(4));  // bandwidth, GPU count, latency, fault model
    }

    // Fig. 1's bars are shares of one iteration: they add up to 100%.
    void breakdownSharesAddUp() {
        const FigureTable& f = bert_.figure("fig1");
        QCOMPARE(f.groups.size(), size_t(4));  // BERT-512 with uvm, deepum, g10, most
        for (size_t g = 0; g < f.groups.size(); ++g) {
            double sum = 0;
            for (size_t s = 0; s < f.series.size(); ++s) sum += f.at(s, g);
            QVERIFY2(std::abs(sum - 100.0) < 1e-6, f.groups[g].c_str());
        }
        // UVM stalls on oversubscription, MOST (almost) never: the paper's Figs. 1 and 6.
        const size_t oversub = f.seriesIndex("oversubscription stall");
        QVERIFY(f.at(oversub, 0) > 10.0);
        QVERIFY(f.at(oversub, 3) < f.at(oversub, 0) / 10);
    }

    // Fig. 5 is over UVM: UVM's own bar is 1, and the mean of one workload is that workload.
    void speedupsAreOverUvm() {
        const FigureTable& f = bert_.figure("fig5");
        QCOMPARE(f.groups, (std::vector<std::string>{"BERT-512", "mean"}));
        QCOMPARE(f.at(f.seriesIndex("UVM"), 0), 1.0);
        const size_t most = f.seriesIndex("MOST");
        QCOMPARE(f.at(most, 1), f.at(most, 0));
        QVERIFY(f.at(most, 0) > f.at(f.seriesIndex("DeepUM"), 0));
    }

    // Fig. 8 is over DeepUM, and on BERT-512 MOST is at least as fast as G10 at every bandwidth
    // (issue 18's acceptance, on the generated BERT-512).
    void mostBeatsDeepumAndG10AtEveryBandwidth() {
        const FigureTable& f = bert_.figure("fig8");
        QCOMPARE(f.groups.size(), size_t(4));
        const size_t most = f.seriesIndex("MOST"), g10 = f.seriesIndex("G10"), deepum = f.seriesIndex("DeepUM");
        for (size_t g = 0; g < f.groups.size(); ++g) {
            QCOMPARE(f.at(deepum, g), 1.0);
            QVERIFY2(f.at(most, g) >= f.at(g10, g), f.groups[g].c_str());
            QVERIFY2(f.at(most, g) > 1.0, f.groups[g].c_str());
        }
    }

    void comparisonsCarryThePapersNumbers() {
        QCOMPARE(bert_.comparisons.size(), size_t(12));
        QCOMPARE(bert_.comparisons.front().paper, std::string("2.6x"));
        for (const auto& c : bert_.comparisons) QVERIFY2(!c.ours.empty() && c.ours.find("nan") == std::string::npos, c.claim.c_str());
    }

    // A cell that did not run is a gap in its figure, and the report says why under it.
    void aCellThatDidNotRunSaysWhy() {
        Reproduction r;
        FigureTable t;
        t.id = "fig";
        t.title = "A figure";
        t.groups = {"ViT-4096"};
        t.series = {"G10"};
        t.values = {{std::numeric_limits<double>::quiet_NaN()}};
        t.why = {{"kernel 'k' does not fit"}};
        r.figures.push_back(t);
        const std::string md = reproductionMarkdown(r);
        QVERIFY(md.find("| ViT-4096 | - |") != std::string::npos);
        QVERIFY(md.find("Did not run:\n\n- G10 / ViT-4096: kernel 'k' does not fit") != std::string::npos);
    }

    void unknownWorkloadIsRefusedNamingTheKnownOnes() {
        ReproductionOptions options;
        options.only = {"BERT-999"};
        try {
            reproduceMost(options);
            QFAIL("no error");
        } catch (const std::invalid_argument& e) {
            const std::string what = e.what();
            QVERIFY2(what.find("BERT-999") != std::string::npos && what.find("OPT-1.3B-256") != std::string::npos,
                     e.what());
        }
    }

    void reportLinksEveryFigure() {
        const std::string md = reproductionMarkdown(bert_);
        for (const auto& f : bert_.figures) {
            QVERIFY2(md.find("![" + f.id + "](" + f.id + ".svg)") != std::string::npos, f.id.c_str());
            QVERIFY2(md.find("(" + f.id + ".csv)") != std::string::npos, f.id.c_str());
        }
        QVERIFY(md.find("| Fig. 5: MOST over UVM, mean speedup | 2.6x |") != std::string::npos);
    }

    // RFC 4180 quoting, empty cells for what did not run, the Markdown table's "-".
    void tablesForSpreadsheetsAndReaders() {
        FigureTable t;
        t.id = "t";
        t.xLabel = "workload";
        t.groups = {"a, b", "say \"hi\""};
        t.series = {"x", "y"};
        t.values = {{1.0, std::numeric_limits<double>::quiet_NaN()}, {2.5, 3.0}};
        t.decimals = 1;
        QCOMPARE(figureCsv(t), std::string("workload,x,y\r\n\"a, b\",1.0,2.5\r\n\"say \"\"hi\"\"\",,3.0\r\n"));
        QCOMPARE(figureMarkdown(t),
                 std::string("| workload | x | y |\n|---|---|---|\n| a, b | 1.0 | 2.5 |\n| say \"hi\" | - | 3.0 |\n"));
        t.values[1].pop_back();
        QVERIFY(t.shapeError().find("series 'y' has 1 values for 2 groups") != std::string::npos);
        t.id = "Bad Name";
        QVERIFY(!t.shapeError().empty());
    }
};

QTEST_GUILESS_MAIN(TestMostReproduction)
#include "tst_most_reproduction.moc"
