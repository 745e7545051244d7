#include "app/gui/sweep_table_panel.h"

#include "views/format_units.h"
#include "views/sweep_heat_map_widget.h"
#include "views/sweep_value_format.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

#include <new>

namespace spillway::app {

struct SweepTableLoad {
    std::shared_ptr<const SweepTable> table;
    std::shared_ptr<const std::vector<SweepAxis>> axes;
    QString error;
    bool cancelled = false;
    qint64 milliseconds = 0;
};

namespace {

// Reading is most of the work (90%); indexing the axes the rest.
SweepTableLoad loadOnWorker(const QString& path, JobControl& control) {
    SweepTableLoad out;
    QElapsedTimer clock;
    clock.start();
    try {
        LoadProgress progress;
        progress.cancel = &control.cancel;
        progress.report = [&control](double fraction, std::string_view) { control.percent = int(fraction * 90); };
        auto table = std::make_shared<const SweepTable>(loadSweepTable(path.toStdString(), progress));
        if (control.cancel) throw LoadCancelled();
        auto axes = std::make_shared<const std::vector<SweepAxis>>(sweepTableAxes(*table));
        out.table = std::move(table);
        out.axes = std::move(axes);
    } catch (const LoadCancelled&) {
        out.cancelled = true;
    } catch (const std::bad_alloc&) {
        out.error = QObject::tr("%1: not enough memory to read this table").arg(path);
    } catch (const std::exception& e) {
        out.error = QString::fromUtf8(e.what());
    }
    out.milliseconds = clock.elapsed();
    return out;
}

const std::vector<SweepAxis> kNoAxes;

}  // namespace

QString SweepTablePanel::anyItem() { return tr("any"); }

SweepTablePanel::SweepTablePanel(QWidget* parent) : QWidget(parent) {
    setObjectName("sweepTablePanel");
    openButton_ = new QPushButton(tr("Open sweep &table…"), this);
    openButton_->setObjectName("sweepOpenTable");
    openButton_->setToolTip(tr("A merged design sweep: spillway-cli sweep merge … --sqlite OUT.sqlite (or --csv)"));
    cancelButton_ = new QPushButton(tr("Cancel"), this);
    cancelButton_->setObjectName("sweepTableCancel");
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 100);
    status_ = new QLabel(this);
    status_->setObjectName("sweepTableStatus");
    status_->setWordWrap(true);
    x_ = new QComboBox(this);
    x_->setObjectName("sweepTableX");
    y_ = new QComboBox(this);
    y_->setObjectName("sweepTableY");
    result_ = new QComboBox(this);
    result_->setObjectName("sweepTableResult");
    combine_ = new QComboBox(this);
    combine_->setObjectName("sweepTableCombine");
    combine_->addItems({tr("mean"), tr("min"), tr("max")});  // SweepAggregate's order
    combine_->setToolTip(tr("How the cells an “any” filter leaves in one square are combined"));
    filterArea_ = new QWidget(this);
    filterForm_ = new QFormLayout(filterArea_);
    filterForm_->setContentsMargins(0, 0, 0, 0);
    heatMap_ = new views::SweepHeatMapWidget(this);
    poll_ = new QTimer(this);
    poll_->setInterval(100);
    connect(poll_, &QTimer::timeout, this, [this] {
        if (const JobControl* control = job_.control()) progress_->setValue(control->percent);
    });

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(openButton_);
    buttons->addWidget(cancelButton_);
    buttons->addWidget(progress_, 1);
    auto* choices = new QFormLayout;
    choices->addRow(tr("X axis"), x_);
    choices->addRow(tr("Y axis"), y_);
    choices->addRow(tr("Colour"), result_);
    choices->addRow(tr("Combine “any”"), combine_);
    auto* controls = new QVBoxLayout;
    controls->addLayout(choices);
    controls->addWidget(filterArea_);
    controls->addStretch(1);
    auto* body = new QHBoxLayout;
    body->addLayout(controls);
    body->addWidget(heatMap_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(status_);
    layout->addLayout(body, 1);

    connect(openButton_, &QPushButton::clicked, this, &SweepTablePanel::choose);
    connect(cancelButton_, &QPushButton::clicked, this, &SweepTablePanel::cancel);
    connect(x_, &QComboBox::currentIndexChanged, this, [this] { axisChosen(x_, y_, previousX_); });
    connect(y_, &QComboBox::currentIndexChanged, this, [this] { axisChosen(y_, x_, previousY_); });
    for (QComboBox* box : {result_, combine_})
        connect(box, &QComboBox::currentIndexChanged, this, [this] {
            if (!filling_) redraw();
        });
    showLoading(false);
    for (QComboBox* box : {x_, y_, result_, combine_}) box->setEnabled(false);
}

const std::vector<SweepAxis>& SweepTablePanel::axes() const { return axes_ ? *axes_ : kNoAxes; }

void SweepTablePanel::showLoading(bool loading) {
    openButton_->setEnabled(!loading);
    cancelButton_->setVisible(loading);
    progress_->setVisible(loading);
    if (loading) {
        progress_->setValue(0);
        poll_->start();
    } else {
        poll_->stop();
    }
}

void SweepTablePanel::choose() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open sweep table"), {},
                                                      tr("Merged sweep tables (*.sqlite *.csv);;All files (*)"));
    if (!path.isEmpty()) open(path);
}

void SweepTablePanel::cancel() {
    if (!job_.cancel()) return;
    showLoading(false);
    status_->setText(tr("Cancelled."));
}

void SweepTablePanel::open(const QString& path) {
    showLoading(true);
    status_->setText(tr("Reading %1…").arg(path));
    job_.start([path](JobControl& control) { return loadOnWorker(path, control); },
               [this, path](SweepTableLoad load) { showLoad(load, path); });
}

void SweepTablePanel::showLoad(const SweepTableLoad& load, const QString& path) {
    showLoading(false);
    if (load.cancelled) {
        status_->setText(tr("Cancelled."));
        return;
    }
    if (!load.error.isEmpty()) {  // the table shown before stays
        status_->setText(load.error);
        emit failed(load.error);
        return;
    }
    table_ = load.table;
    axes_ = load.axes;
    status_->setText(tr("%1: %2 cells, %3 axes, read in %4 s.")
                         .arg(path)
                         .arg(table_->rows())
                         .arg(axes_->size())
                         .arg(double(load.milliseconds) / 1000.0, 0, 'f', 2));
    fillBoxes();
    emit loaded(path);
}

// The axes into X and Y (the first two), the result numbers (iteration time first if there),
// every filter at the axis' first value.
void SweepTablePanel::fillBoxes() {
    filling_ = true;
    for (QComboBox* box : {x_, y_, result_}) box->clear();
    for (const SweepAxis& axis : axes()) {
        x_->addItem(views::toQString(axis.name));
        y_->addItem(views::toQString(axis.name));
    }
    for (const SweepTableColumn& column : table_->results) result_->addItem(views::toQString(column.name));
    const int time = table_->resultIndex("iteration_time_s");
    result_->setCurrentIndex(time >= 0 ? time : 0);
    filters_.assign(axes().size(), 0);
    previousX_ = 0;
    previousY_ = axes().size() > 1 ? 1 : 0;
    x_->setCurrentIndex(previousX_);
    y_->setCurrentIndex(previousY_);
    const bool usable = axes().size() >= 2;
    for (QComboBox* box : {x_, y_, result_, combine_}) box->setEnabled(usable);
    filling_ = false;
    rebuildFilters();
    redraw();
}

// X and Y must differ: choosing Y's axis for X swaps them.
void SweepTablePanel::axisChosen(QComboBox* changed, QComboBox* other, int& previous) {
    if (filling_) return;
    const int now = changed->currentIndex();
    if (now == other->currentIndex()) {
        filling_ = true;
        other->setCurrentIndex(previous);
        (other == x_ ? previousX_ : previousY_) = previous;
        filling_ = false;
    }
    previous = now;
    rebuildFilters();
    redraw();
}

QComboBox* SweepTablePanel::filterBox(const QString& name) const {
    for (const auto& [axis, box] : filterBoxes_)
        if (views::toQString(axes()[axis].name) == name) return box;
    return nullptr;
}

// One box per axis that is neither X nor Y: its values (with units), then "any".
void SweepTablePanel::rebuildFilters() {
    while (filterForm_->rowCount() > 0) filterForm_->removeRow(0);
    filterBoxes_.clear();
    for (std::size_t a = 0; a < axes().size(); ++a) {
        if (int(a) == x_->currentIndex() || int(a) == y_->currentIndex()) continue;
        const SweepAxis& axis = axes()[a];
        auto* box = new QComboBox(filterArea_);
        box->setObjectName(QStringLiteral("sweepTableFilter_%1").arg(views::toQString(axis.name)));
        for (std::size_t v = 0; v < axis.size(); ++v)
            box->addItem(axis.text ? views::toQString(axis.labels[v]) : views::formatSweepValue(axis.name, axis.numbers[v]));
        box->addItem(anyItem());
        box->setCurrentIndex(filters_[a] == kSweepAnyValue ? int(axis.size()) : filters_[a]);
        connect(box, &QComboBox::currentIndexChanged, this, [this, a, box, size = int(axis.size())] {
            filters_[a] = box->currentIndex() >= size ? kSweepAnyValue : box->currentIndex();
            redraw();
        });
        filterForm_->addRow(views::toQString(axis.name), box);
        filterBoxes_[a] = box;
    }
}

SweepGridQuery SweepTablePanel::currentQuery() const {
    SweepGridQuery q;
    q.x = std::size_t(std::max(0, x_->currentIndex()));
    q.y = std::size_t(std::max(0, y_->currentIndex()));
    q.result = std::size_t(std::max(0, result_->currentIndex()));
    q.filters = filters_;
    q.aggregate = SweepAggregate(std::max(0, combine_->currentIndex()));
    return q;
}

void SweepTablePanel::redraw() {
    if (!table_ || axes().size() < 2) {
        heatMap_->clear(table_ ? tr("This table has fewer than two settings that vary: nothing to draw as a map.")
                               : QString());
        return;
    }
    const SweepGridQuery q = currentQuery();
    views::SweepHeatMapData data;
    const SweepAxis& x = axes()[q.x];
    const SweepAxis& y = axes()[q.y];
    data.xName = x.name;
    data.yName = y.name;
    data.xLabels = x.labels;
    data.yLabels = y.labels;
    if (!x.text) data.xValues = x.numbers;
    if (!y.text) data.yValues = y.numbers;
    data.valueName = table_->results[q.result].name;
    const bool anyLeft = std::any_of(filterBoxes_.begin(), filterBoxes_.end(),
                                     [this](const auto& entry) { return filters_[entry.first] == kSweepAnyValue; });
    data.valueCaption = anyLeft ? tr("%1 (%2 over “any”)").arg(views::toQString(data.valueName), combine_->currentText())
                                : views::toQString(data.valueName);
    data.grid = sweepGrid(*table_, axes(), q);
    heatMap_->setData(std::move(data));
}

}  // namespace spillway::app
