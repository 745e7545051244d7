#pragma once
// The Sweep tab's "Sweep table" pane (issue 21): opens a merged design-sweep table (`spillway-cli
// sweep merge --sqlite/--csv`) on a worker with progress and Cancel, then shows any two of its
// axes as a heat map of one result column; every other axis is fixed at one value or left as
// "any", whose cells are combined by mean, min or max. The table stays in memory, so changing a
// box only recomputes the grid (one pass over the rows) and redraws.
#include "app/gui/latest_job.h"
#include "core/sweep/sweep_grid.h"

#include <QWidget>

#include <map>
#include <memory>

class QComboBox;
class QFormLayout;
class QLabel;
class QProgressBar;
class QPushButton;
class QTimer;

namespace spillway::views {
class SweepHeatMapWidget;
}

namespace spillway::app {

struct SweepTableLoad;

class SweepTablePanel : public QWidget {
    Q_OBJECT
public:
    explicit SweepTablePanel(QWidget* parent = nullptr);

    // Starts reading `path` on a worker; `loaded` or `failed` follows (nothing after cancel()).
    void open(const QString& path);
    // Asks for the file (*.sqlite, *.csv), then open()s it.
    void choose();
    void cancel();
    bool isLoading() const { return job_.isRunning(); }

    // The filter entry meaning "every value of this axis".
    static QString anyItem();

    QComboBox* xBox() const { return x_; }
    QComboBox* yBox() const { return y_; }
    QComboBox* resultBox() const { return result_; }
    QComboBox* combineBox() const { return combine_; }
    // The filter box of axis `name` (null while that axis is x or y, or unknown).
    QComboBox* filterBox(const QString& name) const;
    views::SweepHeatMapWidget* heatMap() const { return heatMap_; }
    QLabel* statusLabel() const { return status_; }
    QPushButton* openButton() const { return openButton_; }
    std::shared_ptr<const SweepTable> table() const { return table_; }
    const std::vector<SweepAxis>& axes() const;
    // The grid drawn now (what the heat map shows).
    SweepGridQuery currentQuery() const;

signals:
    void loaded(const QString& path);
    void failed(const QString& message);

private:
    void showLoading(bool loading);
    void showLoad(const SweepTableLoad& load, const QString& path);
    void fillBoxes();
    void rebuildFilters();
    void axisChosen(QComboBox* changed, QComboBox* other, int& previous);
    void redraw();

    QPushButton* openButton_;
    QPushButton* cancelButton_;
    QProgressBar* progress_;
    QLabel* status_;
    QComboBox* x_;
    QComboBox* y_;
    QComboBox* result_;
    QComboBox* combine_;
    QWidget* filterArea_;
    QFormLayout* filterForm_;
    std::map<std::size_t, QComboBox*> filterBoxes_;  // by axis index
    views::SweepHeatMapWidget* heatMap_;
    QTimer* poll_;
    std::shared_ptr<const SweepTable> table_;
    std::shared_ptr<const std::vector<SweepAxis>> axes_;
    std::vector<int> filters_;  // per axis: a value index or kSweepAnyValue; kept across x/y changes
    int previousX_ = 0, previousY_ = 1;
    bool filling_ = false;  // boxes being refilled: their signals are not choices
    LatestJob<SweepTableLoad> job_{this};
};

}  // namespace spillway::app
