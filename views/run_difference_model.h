#pragma once
// The table of differences between runs (compare mode): one row per metric (iteration time,
// each stall kind, transfer overlap, traffic per link and direction, peak GPU bytes), one
// value column per run, and for every run after the first (the baseline) a difference column
// (run - baseline) and a ratio column (run / baseline). Display text is human-readable;
// kSortRole gives the raw number (ns, bytes, ratio), so sorting by a ratio column lists the
// metrics that changed most. toTsv() gives the raw numbers for a spreadsheet.
#include "views/run_view_data.h"

#include <QAbstractTableModel>

#include <memory>
#include <optional>
#include <vector>

namespace spillway::views {

class RunDifferenceModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum class Unit { Nanoseconds, Bytes };
    enum class ColumnKind { Metric, Value, Delta, Ratio };

    explicit RunDifferenceModel(QObject* parent = nullptr);

    // The first run is the baseline. Resets the model.
    void setRuns(std::vector<std::shared_ptr<const RunViewData>> runs);
    const std::vector<std::shared_ptr<const RunViewData>>& runs() const { return runs_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Raw numbers: the metric of a run, its difference to the baseline, its ratio to it (nullopt
    // when the baseline is 0 and the run is not: no finite ratio).
    static int metricCount();
    QString metricName(int row) const;
    Unit metricUnit(int row) const;
    std::int64_t value(int row, int run) const;
    std::int64_t delta(int row, int run) const { return value(row, run) - value(row, 0); }
    std::optional<double> ratio(int row, int run) const;
    // Which run and what a column shows (run = -1 for the metric column).
    std::pair<ColumnKind, int> columnMeaning(int column) const;

    // Header line, then one line per metric: name (with its unit), then per column the raw
    // number (integers for values and differences, ratios with 6 significant digits, empty
    // when there is no ratio). Tab-separated, newline-terminated.
    QString toTsv() const;

private:
    std::vector<std::shared_ptr<const RunViewData>> runs_;
};

}  // namespace spillway::views
