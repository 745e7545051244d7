#include "app/gui/offsets_page.h"

#include "core/layout/layout_verifier.h"
#include "core/layout/operator_order.h"
#include "core/layout/placement.h"
#include "core/layout/profile_allocation.h"
#include "views/format_units.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace spillway::app {

namespace {

void fillBox(QComboBox* box, const std::vector<std::string>& names) {
    for (const std::string& n : names) box->addItem(QString::fromStdString(n));
}

}  // namespace

LayoutOutcome planLayoutsForView(std::shared_ptr<const views::ProfileViewData> profile, const LayoutRequest& request) {
    LayoutOutcome outcome;
    QElapsedTimer timer;
    timer.start();
    try {
        if (!profile) throw std::invalid_argument("no profile is open");
        const Profile& p = *profile->profile;
        OrderOptions orderOptions;
        orderOptions.timeLimitSecondsPerSegment = request.orderSecondsPerSegment;
        const OrderResult order = orderOperators(request.order.toStdString(), p, orderOptions);
        AllocationProblem problem = allocationProblemFromProfile(p, order.order);
        QStringList placements{request.placement};
        if (!request.comparePlacement.isEmpty() && request.comparePlacement != request.placement)
            placements << request.comparePlacement;
        QStringList lines;
        lines << QObject::tr("order %1: theoretical peak %2")
                     .arg(request.order, views::formatBytes(loadLowerBound(problem)));
        std::vector<std::pair<QString, Layout>> layouts;
        for (const QString& method : placements) {
            PlacementOptions options;
            options.timeLimitSeconds = request.placementSeconds;
            options.segmentStarts = order.segmentStarts;
            const PlacementResult placed = place(method.toStdString(), problem, options);
            if (placed.layout.offsets.size() != problem.buffers.size())
                throw std::runtime_error(method.toStdString() + " found no layout: " + placed.note);
            if (const auto bad = verifyLayout(problem, placed.layout); !bad.empty())
                throw std::runtime_error("the " + method.toStdString() + " layout failed verification");
            const double frag = placed.arena > 0 ? double(placed.arena - placed.lowerBound) / double(placed.arena) : 0.0;
            lines << QObject::tr("%1: arena %2, fragmentation %3%, %4 s")
                         .arg(method, views::formatBytes(placed.arena))
                         .arg(frag * 100.0, 0, 'f', 1)
                         .arg(placed.seconds, 0, 'f', 2);
            layouts.emplace_back(QStringLiteral("%1 + %2").arg(request.order, method), placed.layout);
        }
        // The ViewLink selects tensors by position; the problem names them by id.
        const ProfileIndex index(p);
        for (Buffer& b : problem.buffers)
            if (b.origin.tensor >= 0) b.origin.tensor = static_cast<TensorId>(index.tensorPos(b.origin.tensor));
        for (auto& [name, layout] : layouts)
            outcome.arenas.push_back(std::make_shared<const views::PlacedArena>(views::PlacedArena{name, problem, std::move(layout)}));
        outcome.summary = lines.join(QStringLiteral(" · "));
    } catch (const std::exception& e) {
        outcome.error = QString::fromUtf8(e.what());
    }
    outcome.elapsedNs = timer.nsecsElapsed();
    return outcome;
}

OffsetsPage::OffsetsPage(views::ViewLink* link, QWidget* parent) : QWidget(parent), link_(link) {
    order_ = new QComboBox(this);
    order_->setObjectName("offsetsOrder");
    fillBox(order_, orderMethodNames());
    placement_ = new QComboBox(this);
    placement_->setObjectName("offsetsPlacement");
    fillBox(placement_, placementMethodNames());
    placement_->setCurrentText("best");
    compare_ = new QComboBox(this);
    compare_->setObjectName("offsetsCompare");
    compare_->addItem(tr("(none)"), QString());
    for (const std::string& n : placementMethodNames()) compare_->addItem(QString::fromStdString(n), QString::fromStdString(n));
    summary_ = new QLabel(this);
    summary_->setObjectName("offsetsSummary");
    summary_->setWordWrap(true);
    map_ = new views::OffsetMapWidget(link_, this);
    map_->setObjectName("offsetMap");

    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Order:"), this));
    controls->addWidget(order_);
    controls->addWidget(new QLabel(tr("Placement:"), this));
    controls->addWidget(placement_);
    controls->addWidget(new QLabel(tr("Compare with:"), this));
    controls->addWidget(compare_);
    controls->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(summary_);
    layout->addWidget(map_, 1);
    for (QComboBox* box : {order_, placement_, compare_})
        connect(box, &QComboBox::currentIndexChanged, this, [this] {
            dirty_ = true;
            planIfShown();
        });
}

void OffsetsPage::setProfile(std::shared_ptr<const views::ProfileViewData> profile) {
    profile_ = std::move(profile);
    planning_.cancel();  // a plan still running is for the previous profile
    map_->setArenas({});
    summary_->clear();
    dirty_ = true;
    planIfShown();
}

LayoutRequest OffsetsPage::request() const {
    LayoutRequest r;
    r.order = order_->currentText();
    r.placement = placement_->currentText();
    r.comparePlacement = compare_->currentData().toString();
    return r;
}

void OffsetsPage::setMethods(const QString& order, const QString& placement, const QString& comparePlacement) {
    const QSignalBlocker a(order_), b(placement_), c(compare_);
    if (order_->findText(order) >= 0) order_->setCurrentText(order);
    if (placement_->findText(placement) >= 0) placement_->setCurrentText(placement);
    const int compare = compare_->findData(comparePlacement);
    if (compare >= 0) compare_->setCurrentIndex(compare);
    dirty_ = true;
    planIfShown();
}

QString OffsetsPage::summaryText() const { return summary_->text(); }

void OffsetsPage::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    planIfShown();
}

// Planning costs seconds on large profiles (search methods run to their time limit), so it runs
// only for a visible tab, once per change.
void OffsetsPage::planIfShown() {
    if (!dirty_ || !profile_ || !isVisible()) return;
    dirty_ = false;
    summary_->setText(tr("Planning the layout (%1, %2)…").arg(order_->currentText(), placement_->currentText()));
    // The planners take no cancel flag: a superseded plan runs to its time limit, then is dropped.
    planning_.start([profile = profile_, request = request()](JobControl&) { return planLayoutsForView(profile, request); },
                    [this](const LayoutOutcome& outcome) { showLayouts(outcome); });
}

void OffsetsPage::showLayouts(const LayoutOutcome& outcome) {
    if (!outcome.error.isEmpty()) {
        map_->setArenas({});
        summary_->setText(tr("Layout failed: %1").arg(outcome.error));
        emit planFailed(outcome.error);
        return;
    }
    map_->setArenas(outcome.arenas);
    summary_->setText(tr("%1 · planned in %2").arg(outcome.summary, views::formatDuration(outcome.elapsedNs)));
    emit layoutsShown(outcome.elapsedNs);
}

}  // namespace spillway::app
