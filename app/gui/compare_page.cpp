#include "app/gui/compare_page.h"

#include "views/format_units.h"
#include "views/memory_timeline_widget.h"
#include "views/run_difference_model.h"
#include "views/stall_breakdown_widget.h"
#include "views/table_roles.h"

#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace spillway::app {

namespace {

// Pixels per run's memory timeline: two runs' timelines, the table and the stall bars fit a
// 1600x1000 window without scrolling (issue 20).
constexpr int kTimelineHeight = 200;

}  // namespace

ComparePage::ComparePage(views::ViewLink* link, QWidget* parent) : QWidget(parent), link_(link) {
    setObjectName("comparePage");
    // Left: the runs and what to do with them.
    list_ = new QListWidget(this);
    list_->setObjectName("compareRunList");
    removeButton_ = new QPushButton(tr("Remove"), this);
    baselineButton_ = new QPushButton(tr("Make Baseline"), this);
    clearButton_ = new QPushButton(tr("Clear"), this);
    copyButton_ = new QPushButton(tr("Copy Table"), this);
    copyButton_->setToolTip(tr("Copy the table of differences as tab-separated raw numbers (ns, bytes)"));
    auto* hint = new QLabel(tr("Add runs with <b>Add Run to Comparison</b> (What if dock or Ctrl+Shift+K). "
                               "The first run is the baseline."),
                            this);
    hint->setWordWrap(true);
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(hint);
    leftLayout->addWidget(list_, 1);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(removeButton_);
    buttons->addWidget(baselineButton_);
    leftLayout->addLayout(buttons);
    auto* buttons2 = new QHBoxLayout;
    buttons2->addWidget(clearButton_);
    buttons2->addWidget(copyButton_);
    leftLayout->addLayout(buttons2);
    connect(removeButton_, &QPushButton::clicked, this, [this] { removeRun(list_->currentRow()); });
    connect(baselineButton_, &QPushButton::clicked, this, [this] { makeBaseline(list_->currentRow()); });
    connect(clearButton_, &QPushButton::clicked, this, &ComparePage::clear);
    connect(copyButton_, &QPushButton::clicked, this, &ComparePage::copyTable);
    connect(list_, &QListWidget::currentRowChanged, this, [this](int row) {
        removeButton_->setEnabled(row >= 0);
        baselineButton_->setEnabled(row > 0);
    });

    // Right: the table, the stalls of every run, one memory timeline per run.
    model_ = new views::RunDifferenceModel(this);
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(model_);
    proxy->setSortRole(views::kSortRole);
    table_ = new QTableView(this);
    table_->setObjectName("differenceTable");
    table_->setModel(proxy);
    table_->setSortingEnabled(true);
    table_->sortByColumn(0, Qt::AscendingOrder);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->setAlternatingRowColors(true);
    stalls_ = new views::StallBreakdownWidget(link_, this);
    // The runs' bars only: the per-kernel bars of the first run are the Stalls tab's; here the
    // room goes to the timelines, so two runs fit a 1600x1000 window without scrolling.
    stalls_->kernelPlot()->hide();
    timelineBox_ = new QWidget(this);
    timelineLayout_ = new QVBoxLayout(timelineBox_);
    timelineLayout_->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setWidget(timelineBox_);
    auto* right = new QSplitter(Qt::Vertical, this);
    right->addWidget(table_);
    right->addWidget(stalls_);
    right->addWidget(scroll);
    right->setStretchFactor(0, 1);
    right->setStretchFactor(1, 2);
    right->setStretchFactor(2, 4);
    right->setSizes({150, 220, 2 * (kTimelineHeight + 24)});

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(1, 4);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
    rebuild();
}

void ComparePage::addRun(std::shared_ptr<const views::RunViewData> run) {
    if (!run || std::find(runs_.begin(), runs_.end(), run) != runs_.end()) return;
    auto taken = [&](const QString& name) {
        return std::any_of(runs_.begin(), runs_.end(), [&](const auto& r) { return r->name == name; });
    };
    if (taken(run->name)) {
        // The data is immutable and shared: a renamed copy, made only for this clash.
        auto renamed = std::make_shared<views::RunViewData>(*run);
        for (int n = 2; taken(renamed->name); ++n) renamed->name = QStringLiteral("%1 #%2").arg(run->name).arg(n);
        run = std::move(renamed);
    }
    runs_.push_back(std::move(run));
    rebuild();
}

void ComparePage::removeRun(int index) {
    if (index < 0 || index >= runCount()) return;
    runs_.erase(runs_.begin() + index);
    rebuild();
}

void ComparePage::makeBaseline(int index) {
    if (index <= 0 || index >= runCount()) return;
    std::rotate(runs_.begin(), runs_.begin() + index, runs_.begin() + index + 1);
    rebuild();
}

void ComparePage::clear() {
    runs_.clear();
    rebuild();
}

QList<QWidget*> ComparePage::timeViews() const { return {stalls_, timelineBox_}; }

QString ComparePage::tableTsv() const { return model_->toTsv(); }

void ComparePage::copyTable() { QApplication::clipboard()->setText(tableTsv()); }

void ComparePage::rebuild() {
    list_->clear();
    for (size_t i = 0; i < runs_.size(); ++i) {
        const auto& r = runs_[i]->result;
        auto* item = new QListWidgetItem(tr("%1%2\n%3, peak %4")
                                             .arg(runs_[i]->name, i == 0 ? tr(" (baseline)") : QString(),
                                                  views::formatDuration(r.iterationTime),
                                                  views::formatBytes(r.peakGpuBytes)),
                                         list_);
        item->setToolTip(tr("GPU %1, policy %2, hardware %3")
                             .arg(views::formatBytes(runs_[i]->hardware.gpuCapacity),
                                  views::toQString(r.policy), views::toQString(r.hardware)));
    }
    removeButton_->setEnabled(false);
    baselineButton_->setEnabled(false);
    clearButton_->setEnabled(!runs_.empty());
    copyButton_->setEnabled(!runs_.empty());
    model_->setRuns(runs_);
    stalls_->setRuns(runs_);
    // One timeline per run, all on the longest run's time scale so the same x is the same time.
    for (auto* t : timelines_) t->deleteLater();
    timelines_.clear();
    while (QLayoutItem* item = timelineLayout_->takeAt(0)) {
        if (item->widget()) item->widget()->deleteLater();
        delete item;
    }
    Nanoseconds longest = 0;
    for (const auto& run : runs_) longest = std::max(longest, run->result.iterationTime);
    for (const auto& run : runs_) {
        auto* title = new QLabel(QStringLiteral("<b>%1</b>").arg(run->name.toHtmlEscaped()), timelineBox_);
        auto* timeline = new views::MemoryTimelineWidget(link_, timelineBox_);
        timeline->setMinimumHeight(kTimelineHeight);
        timeline->setTimeAxisEnd(longest);
        timeline->setRun(run);
        timelineLayout_->addWidget(title);
        timelineLayout_->addWidget(timeline);
        timelines_.push_back(timeline);
    }
    timelineLayout_->addStretch(1);
    emit runsChanged(runCount());
}

}  // namespace spillway::app
