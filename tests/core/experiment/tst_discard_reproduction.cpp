// UVM Discard's evaluation reproduced (core/experiment/discard_reproduction.h) on a reduced scope
// (every micro-benchmark column, two batches per network): the paper's qualitative claims that
// our model keeps - discard removes the redundant traffic when memory is oversubscribed, eager
// discard costs time when everything fits, lazy discard is never slower than eager - and the
// report's shape (every figure consistent, the sweeps the app opens, progress to the end).
#include "core/experiment/discard_reproduction.h"
#include "core/experiment/paper_reproductions.h"

#include <QtTest>

#include <cmath>
#include <mutex>
#include <set>
#include <string>

using namespace spillway;

namespace {

DiscardReproductionScope reduced() {
    DiscardReproductionScope s;
    s.vgg16Batches = {25, 150};
    s.resnet53Batches = {25, 150};
    s.darknet19Batches = {60, 360};
    s.table1Batches = {40, 80};
    return s;
}

const Reproduction& run() {
    static const Reproduction r = [] {
        ReproductionOptions o;
        o.threads = 2;
        return reproduceDiscardScope(o, reduced());
    }();
    return r;
}

}  // namespace

class TestDiscardReproduction : public QObject {
    Q_OBJECT
private slots:
    void registeredAsDiscard() {
        bool found = false;
        for (const auto& p : paperReproductions()) found |= p.id == "discard" && p.run == &reproduceDiscard;
        QVERIFY(found);
    }

    void everyFigureIsConsistent() {
        const Reproduction& r = run();
        std::set<std::string> ids;
        for (const auto& f : r.figures) {
            QVERIFY2(f.shapeError().empty(), (f.id + ": " + f.shapeError()).c_str());
            QVERIFY2(ids.insert(f.id).second, f.id.c_str());
        }
        for (const char* id : {"table1", "table3", "table4", "table5", "table6", "table7", "table8", "fig5", "fig6", "fig7"})
            QVERIFY2(ids.count(id), id);
        std::set<std::string> stems;
        for (const auto& s : r.sweeps) {
            QVERIFY(s.result && !s.result->cells.empty());
            QVERIFY2(stems.insert(s.stem).second, s.stem.c_str());
        }
        QCOMPARE(r.sweeps.size(), size_t(1 + 3 * 2 + 3 * 2));
        QVERIFY(r.comparisons.size() >= 10);
        for (const auto& c : r.comparisons) QVERIFY2(!c.paper.empty() && !c.ours.empty(), c.claim.c_str());
    }

    void discardRemovesTrafficWhenOversubscribed() {
        for (const char* id : {"table4", "table6", "table8"}) {
            const FigureTable& t = run().figure(id);
            const size_t opt = t.seriesIndex("uvm-opt"), eager = t.seriesIndex("uvm-opt+discard"),
                         lazy = t.seriesIndex("uvm-opt+discard-lazy");
            for (size_t g = 1; g < t.groups.size(); ++g) {  // 200%, 300%, 400%
                qInfo("%s %s: uvm-opt %.2f GB, discard %.2f GB, lazy %.2f GB", id, t.groups[g].c_str(), t.at(opt, g),
                      t.at(eager, g), t.at(lazy, g));
                QVERIFY2(t.at(eager, g) < t.at(opt, g), id);
                QVERIFY2(t.at(lazy, g) < t.at(opt, g), id);
            }
        }
        const FigureTable& fig5 = run().figure("fig5");
        for (size_t g = 0; g < fig5.groups.size(); ++g)
            if (fig5.at(fig5.seriesIndex("uvm-opt"), g) > 0)
                QVERIFY2(fig5.at(fig5.seriesIndex("uvm-opt+discard"), g) < fig5.at(fig5.seriesIndex("uvm-opt"), g),
                         fig5.groups[g].c_str());
    }

    void oversubscribedDiscardIsFaster() {
        for (const char* id : {"table3", "table5", "table7"}) {
            const FigureTable& t = run().figure(id);
            for (size_t g = 0; g < t.groups.size(); ++g)
                if (t.groups[g].rfind("<100%", 0) != 0)
                    QVERIFY2(t.at(t.seriesIndex("uvm-opt+discard"), g) < 1.0, (std::string(id) + " " + t.groups[g]).c_str());
        }
        const FigureTable& fig6 = run().figure("fig6");  // the largest batch of each network oversubscribes
        for (size_t g = 1; g < fig6.groups.size(); g += 2)
            QVERIFY2(fig6.at(fig6.seriesIndex("uvm-opt+discard"), g) > fig6.at(fig6.seriesIndex("uvm-opt"), g),
                     fig6.groups[g].c_str());
    }

    void eagerDiscardCostsWhenItFitsAndLazyDoesNot() {
        for (const char* id : {"table3", "table5", "table7"}) {
            const FigureTable& t = run().figure(id);
            for (size_t g = 0; g < t.groups.size(); ++g) {
                const double eager = t.at(t.seriesIndex("uvm-opt+discard"), g), lazy = t.at(t.seriesIndex("uvm-opt+discard-lazy"), g);
                if (t.groups[g].rfind("<100%", 0) == 0) {
                    QVERIFY2(eager > 1.0, id);
                    QCOMPARE(lazy, 1.0);  // nothing reclaimed, nothing unmapped: exactly UVM-opt
                }
                QVERIFY2(lazy <= eager, (std::string(id) + " " + t.groups[g]).c_str());  // lazy never slower
            }
        }
        const FigureTable& fig6 = run().figure("fig6");  // the smallest batch of each network fits
        for (size_t g = 0; g < fig6.groups.size(); g += 2) {
            QVERIFY(fig6.at(fig6.seriesIndex("uvm-opt+discard"), g) < fig6.at(fig6.seriesIndex("uvm-opt"), g));
            QCOMPARE(fig6.at(fig6.seriesIndex("uvm-opt+discard-lazy"), g), fig6.at(fig6.seriesIndex("uvm-opt"), g));
            QVERIFY(!std::isnan(fig6.at(fig6.seriesIndex("no-uvm"), g)));
        }
    }

    void progressReachesTheEnd() {
        ReproductionOptions o;
        o.threads = 1;
        DiscardReproductionScope s = reduced();
        s.vgg16Batches = {25};
        s.resnet53Batches = {25};
        s.darknet19Batches = {60};
        s.table1Batches = {40};
        size_t last = 0, total = 0, calls = 0;
        std::mutex m;
        o.progress = [&](size_t done, size_t all) {
            std::lock_guard lock(m);
            QVERIFY(done > last);
            last = done;
            total = all;
            ++calls;
        };
        reproduceDiscardScope(o, s);
        QVERIFY(calls > 0);
        QCOMPARE(last, total);
    }

    void onlyRunsTheNamedWorkloads() {
        ReproductionOptions o;
        o.only = {"fir", "Darknet-19"};
        DiscardReproductionScope s = reduced();
        s.darknet19Batches = {60};
        const Reproduction r = reproduceDiscardScope(o, s);
        std::set<std::string> ids;
        for (const auto& f : r.figures) ids.insert(f.id);
        QVERIFY(ids.count("table3") && ids.count("table4") && ids.count("fig6"));
        QVERIFY(!ids.count("table1") && !ids.count("table5") && !ids.count("table7"));
        QCOMPARE(r.figure("fig6").groups.size(), size_t(1));
        o.only = {"resnet50"};
        try {
            reproduceDiscardScope(o, s);
            QFAIL("an unknown workload was accepted");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find("radix-sort") != std::string::npos, e.what());
        }
    }

    void cancelStops() {
        std::atomic<bool> cancel{true};
        ReproductionOptions o;
        o.cancel = &cancel;
        QVERIFY_THROWS_EXCEPTION(SweepCancelled, reproduceDiscardScope(o, reduced()));
    }
};

QTEST_APPLESS_MAIN(TestDiscardReproduction)
#include "tst_discard_reproduction.moc"
