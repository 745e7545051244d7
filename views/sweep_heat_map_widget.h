#pragma once
// Two settings of a merged sweep table as a heat map (issue 21): the x and y axes are the two
// settings' values (evenly spaced, labelled with units), each cell's colour is one result number,
// a colour scale beside it says which and how much, and hovering a cell reads it out. Plain
// drawing of a grid the app computed (core/sweep/sweep_grid.h); before there is one, it says how
// to get one.
#include "core/sweep/sweep_grid.h"

#include <QStringList>
#include <QWidget>

class QCPColorMap;
class QCPColorScale;
class QCustomPlot;
class QLabel;
class QStackedWidget;
class QMouseEvent;

namespace spillway::views {

struct SweepHeatMapData {
    std::string xName, yName;  // column names, unit included
    std::vector<std::string> xLabels, yLabels;  // one per grid column / row, as the table has them
    std::vector<double> xValues, yValues;  // numeric axes' values (empty for a text axis)
    std::string valueName;  // the result column
    QString valueCaption;   // what the colour scale says: the result and how cells were combined
    SweepGrid grid;
};

class SweepHeatMapWidget : public QWidget {
    Q_OBJECT
public:
    explicit SweepHeatMapWidget(QWidget* parent = nullptr);

    void setData(SweepHeatMapData data);
    // Back to the empty state, saying `message` (what to do to see a heat map).
    void clear(const QString& message = {});

    bool showsData() const { return shown_; }
    QCustomPlot* plot() const { return plot_; }
    QCPColorMap* colorMap() const { return map_; }
    QCPColorScale* colorScale() const { return scale_; }
    QLabel* emptyLabel() const { return empty_; }
    QLabel* readout() const { return readout_; }
    const SweepHeatMapData& data() const { return data_; }
    // What the hover readout says for grid cell (x, y): both settings, the value, with units.
    QString describeCell(int x, int y) const;

    static QString defaultEmptyText();

private:
    void hover(QMouseEvent* event);
    QString axisLabel(std::size_t index, bool xAxis) const;
    void setTicks(bool xAxis);

    QStackedWidget* stack_;
    QLabel* empty_;
    QCustomPlot* plot_;
    QCPColorMap* map_;
    QCPColorScale* scale_;
    QLabel* readout_;
    SweepHeatMapData data_;
    bool shown_ = false;
};

}  // namespace spillway::views
