#pragma once
// The "Overview" tab: what the profile is (model, source, counts), how much memory it needs
// (footprint, theoretical peak and its kernel, largest tensors), where the time goes (per phase),
// and the theoretical live memory over the iteration as a chart.
#include "views/profile_view_data.h"

#include <QWidget>

#include <memory>

class QCustomPlot;
class QTextBrowser;

namespace spillway::views {

class ProfileOverviewWidget : public QWidget {
    Q_OBJECT
public:
    explicit ProfileOverviewWidget(QWidget* parent = nullptr);

    // nullptr shows a short "open a profile" hint.
    void setViewData(std::shared_ptr<const ProfileViewData> data);

    // The summary as plain text (what the user reads), for tests and copying.
    QString summaryText() const;
    // Points in the live-memory chart (one per kernel).
    int chartPointCount() const;

private:
    void showSummary();
    void showChart();
    void shadePhases(double top);

    std::shared_ptr<const ProfileViewData> data_;
    QTextBrowser* text_;
    QCustomPlot* chart_;
};

// The overview as HTML, from the data alone (no widget needed).
QString overviewHtml(const ProfileViewData& data);

}  // namespace spillway::views
