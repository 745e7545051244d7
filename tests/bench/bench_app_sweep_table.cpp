// A merged sweep table opened in the app's Sweep tab (issue 21), as a user would: the wall time
// from "open" to the heat map drawn (read on a worker, axes indexed, first grid drawn), then
// the median time of switching the X axis (a grid and a redraw from the table in memory). Run
// by hand, offscreen: QT_QPA_PLATFORM=offscreen build/tests/bench_app_sweep_table merged.sqlite
#include "bench_timing.h"
#include "app/gui/sweep_page.h"
#include "app/gui/sweep_table_panel.h"

#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QThread>

#include <fmt/format.h>

using namespace spillway;

int main(int argc, char** argv) {
    QApplication application(argc, argv);
    if (argc < 2) {
        fmt::print(stderr, "usage: bench_app_sweep_table TABLE.sqlite|TABLE.csv...\n");
        return 2;
    }
    for (int i = 1; i < argc; ++i) {
        app::SweepPage page([] { return std::shared_ptr<const views::ProfileViewData>(); },
                            [] { return views::WhatIfSettings(); });
        page.resize(1200, 800);
        page.show();
        app::SweepTablePanel* panel = page.tablePanel();
        bool loaded = false, failed = false;
        QObject::connect(panel, &app::SweepTablePanel::loaded, [&] { loaded = true; });
        QObject::connect(panel, &app::SweepTablePanel::failed, [&] { failed = true; });
        QElapsedTimer clock;
        clock.start();
        page.openTable(QString::fromLocal8Bit(argv[i]));
        while (!loaded && !failed) {
            QApplication::processEvents();
            QThread::msleep(1);
        }
        const double open = double(clock.elapsed());
        if (failed) {
            fmt::print("{}: {}\n", argv[i], panel->statusLabel()->text().toStdString());
            continue;
        }
        int flip = 0;
        const double redraw = timing::medianMs(9, [&] {
            panel->xBox()->setCurrentIndex(panel->xBox()->count() - 1 - (flip++ % 2));
            QApplication::processEvents();
        });
        fmt::print("{}: {} rows; open to drawn {:.0f} ms; switch X axis and redraw {:.1f} ms\n", argv[i],
                   panel->table()->rows(), open, redraw);
    }
    return 0;
}
