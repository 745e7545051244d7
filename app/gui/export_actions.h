#pragma once
// The File > Export submenu: the current view as PNG / SVG / PDF, the run's numbers as CSV, the
// simulated timeline as a Chrome trace (Perfetto), the run's plan as spillway.plan/1 (verified
// first: a refused plan is listed in a message box, not written). The actions ask for a file name and call
// export_view / export_run_csv / core's writeChromeTrace; failures show a message naming the
// file. The run actions are enabled only while there is a run to export.
#include "views/run_view_data.h"

#include <QObject>

#include <functional>
#include <memory>

class QAction;
class QMenu;
class QWidget;

namespace spillway::app {

// Writes core's Chrome trace of the run. Returns "" or why it failed (naming the file).
QString exportChromeTrace(const views::RunViewData& run, const QString& path);

class ExportActions : public QObject {
    Q_OBJECT
public:
    using ViewSource = std::function<QWidget*()>;
    using RunSource = std::function<std::shared_ptr<const views::RunViewData>()>;

    // Adds the Export submenu to `fileMenu`; `window` parents the dialogs.
    ExportActions(QWidget* window, QMenu* fileMenu, ViewSource currentView, RunSource currentRun);

    // Call when the run or the open profile changes.
    void updateEnabled();

    QMenu* menu() const { return menu_; }
    QAction* imageAction() const { return image_; }
    QAction* csvAction() const { return csv_; }
    QAction* chromeTraceAction() const { return trace_; }
    QAction* planAction() const { return plan_; }

private:
    void exportImage(const QString& suffix);
    void exportCsv();
    void exportTrace();
    void exportPlan();
    QString askPath(const QString& title, const QString& suggested, const QString& filter);
    void report(const QString& error, const QString& path);

    QWidget* window_;
    ViewSource currentView_;
    RunSource currentRun_;
    QMenu* menu_;
    QAction* image_;
    QAction* svg_;
    QAction* pdf_;
    QAction* csv_;
    QAction* trace_;
    QAction* plan_;
};

}  // namespace spillway::app
