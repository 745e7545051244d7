#pragma once
// Traffic of a run: bytes per link and direction over time (the simulator's transfer log, binned
// about one bin per pixel and drawn as stacked bars of the mean bandwidth in each bin), and a
// table beside it of the bytes each link moved per run (and, for the first run, inside the
// ViewLink's time range). Dragging selects a time range on the shared ViewLink (double-click
// clears it); the selected range is drawn as a band.
#include "views/run_view_data.h"
#include "views/view_link.h"

#include <QWidget>

#include <array>
#include <memory>
#include <vector>

class QCustomPlot;
class QCPItemRect;
class QTableWidget;

namespace spillway::views {

class TrafficWidget : public QWidget {
    Q_OBJECT
public:
    explicit TrafficWidget(ViewLink* link, QWidget* parent = nullptr);

    // The first run is drawn over time; the table has a column per run. Empty: nothing drawn.
    void setRuns(std::vector<std::shared_ptr<const RunViewData>> runs);
    void setRun(std::shared_ptr<const RunViewData> run);

    // What is drawn, for tests and export: bins over [0, binCount * binWidth) of the first run's
    // iteration clock, bytes per link moved inside each bin (a transfer's bytes are spread over
    // its duration at a constant rate, summed exactly).
    QCustomPlot* plot() const { return plot_; }
    QTableWidget* totalsTable() const { return table_; }
    int binCount() const { return binCount_; }
    Nanoseconds binWidth() const { return binWidth_; }
    Bytes binnedBytes(LinkId link, int bin) const;
    // The table's value for run `run` and `link` (the bytes, not the text); -1 when not shown.
    Bytes tableBytes(int run, LinkId link) const;
    Bytes tableRangeBytes(LinkId link) const;  // "selected range" column; -1 without a range
    TimeRange shownRange() const;

    // Bytes of `run`'s transfers on `link` that move inside [from, to) of its iteration clock
    // (transfers spread at a constant rate over their duration).
    static Bytes bytesWithin(const RunViewData& run, LinkId link, Nanoseconds from, Nanoseconds to);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void redraw();
    void rebin();
    void fillTable();
    void showRange(TimeRange range);
    void selectFromPixels(int fromX, int toX);
    int wantedBinCount() const;

    ViewLink* link_;
    std::vector<std::shared_ptr<const RunViewData>> runs_;
    QCustomPlot* plot_;
    QTableWidget* table_;
    QCPItemRect* rangeBand_ = nullptr;
    int binCount_ = 0;
    Nanoseconds binWidth_ = 1;
    std::array<std::vector<Bytes>, kLinkCount> bins_;
};

}  // namespace spillway::views
