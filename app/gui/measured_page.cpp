#include "app/gui/measured_page.h"

#include "core/io/base/import_error.h"
#include "core/io/native/profile_hash.h"
#include "views/format_units.h"
#include "views/measured_comparison_model.h"
#include "views/table_roles.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace spillway::app {

namespace {

QString signedDuration(Nanoseconds ns) { return (ns > 0 ? QStringLiteral("+") : QString()) + views::formatDuration(ns); }

// The comparison pairs kernels by run index; a plan replayed in another order than the run
// simulates (the What-if run replays program order) would pair different kernels without a word.
QString runOrderDifference(const MeasuredTimeline& m, const views::RunViewData& run) {
    if (m.iterations.empty()) return {};
    const auto& kernels = m.iterations.back().kernels;
    const auto& order = run.plan.order;
    const Profile& profile = *run.profile->profile;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        const std::int64_t simulated = i < order.size() ? order[i] : static_cast<std::int64_t>(i);
        if (kernels[i].position == simulated) continue;
        const std::string simulatedName = simulated >= 0 && simulated < std::int64_t(profile.kernels.size())
                                              ? profile.kernels[static_cast<std::size_t>(simulated)].name
                                              : std::string("?");
        return QObject::tr("The plan ran the kernels in another order than %1 (run step %2: '%3' measured, '%4' "
                           "simulated): the comparison would pair different kernels. The What-if run replays "
                           "the profile's order; replay a plan exported with --order program to compare.")
            .arg(run.name.toHtmlEscaped())
            .arg(i)
            .arg(QString::fromStdString(kernels[i].name).toHtmlEscaped(),
                 QString::fromStdString(simulatedName).toHtmlEscaped());
    }
    return {};
}

}  // namespace

MeasuredPage::MeasuredPage(RunSource currentRun, QWidget* parent)
    : QWidget(parent), currentRun_(std::move(currentRun)) {
    setObjectName("measuredPage");
    auto* layout = new QVBoxLayout(this);
    summary_ = new QLabel(tr("No measured timeline open. Replay a plan with spillway-replay, then use "
                             "File ▸ Open Measured Timeline… to compare it with the current run."),
                          this);
    summary_->setObjectName("measuredSummary");
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(summary_);
    model_ = new views::MeasuredComparisonModel(this);
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(model_);
    proxy->setSortRole(views::kSortRole);
    table_ = new QTableView(this);
    table_->setObjectName("measuredTable");
    table_->setModel(proxy);
    table_->setSortingEnabled(true);
    table_->sortByColumn(views::MeasuredComparisonModel::RunIndex, Qt::AscendingOrder);
    table_->horizontalHeader()->setSectionResizeMode(views::MeasuredComparisonModel::Kernel, QHeaderView::Stretch);
    table_->verticalHeader()->hide();
    layout->addWidget(table_, 1);
}

void MeasuredPage::chooseFile() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Measured Timeline"), QFileInfo(path_).path(),
                                                      tr("Measured timelines (*.json);;All files (*)"));
    if (!path.isEmpty()) openTimeline(path);
}

bool MeasuredPage::openTimeline(const QString& path) {
    try {
        timeline_ = readMeasuredTimeline(QFile::encodeName(path).toStdString());
    } catch (const std::exception& e) {
        const QString message = QString::fromStdString(e.what());
        emit loadFailed(path, message);
        showProblem(tr("Cannot open the measured timeline"), message);
        return false;
    }
    path_ = path;
    refresh();
    emit timelineLoaded(path);
    return true;
}

void MeasuredPage::refresh() {
    compared_ = false;
    if (!timeline_) return;
    const MeasuredTimeline& m = *timeline_;
    const QString file = QFileInfo(path_).fileName();
    QString text = tr("<b>%1</b>: %2 replay on %3 of plan <i>%4</i> (made for %5), profile %6, %7 iteration(s).")
                       .arg(file.toHtmlEscaped(), QString::fromStdString(m.backend),
                            QString::fromStdString(m.device).toHtmlEscaped(),
                            QString::fromStdString(m.planPolicy).toHtmlEscaped(),
                            QString::fromStdString(m.planHardware).toHtmlEscaped(),
                            QString::fromStdString(m.profileName).toHtmlEscaped())
                       .arg(m.iterations.size());
    for (const MeasuredNote& n : m.fallbacks) text += tr("<br>Fallback: %1").arg(QString::fromStdString(n.message).toHtmlEscaped());
    for (const MeasuredNote& n : m.failures) text += tr("<br>Failure: %1").arg(QString::fromStdString(n.message).toHtmlEscaped());

    const auto run = currentRun_ ? currentRun_() : nullptr;
    QString problem;
    if (!run || !run->profile || !run->profile->profile) {
        problem = tr("No simulated run to compare with: open the profile the plan was made for.");
    } else {
        if (hashedProfile_ != run->profile->profile) {
            hashedProfile_ = run->profile->profile;
            hash_ = profileHash(*hashedProfile_);
        }
        if (hash_ != m.profileHash) {
            problem = tr("This timeline was measured on another profile (%1, %2); the open profile is %3 (%4). "
                         "Open the profile the plan was made for.")
                          .arg(QString::fromStdString(m.profileName).toHtmlEscaped(), QString::fromStdString(m.profileHash),
                               QString::fromStdString(hashedProfile_->metadata.model).toHtmlEscaped(),
                               QString::fromStdString(hash_));
        } else if (const QString differs = runOrderDifference(m, *run); !differs.isEmpty()) {
            problem = differs;
        } else {
            try {
                MeasuredComparison c = compareMeasured(m, run->result, -1, 5);
                text += tr("<br>Against <b>%1</b> (iteration %2 measured): %3 measured vs %4 simulated, error %5 "
                           "(%6%); mean kernel error %7.")
                            .arg(run->name.toHtmlEscaped())
                            .arg(c.iteration)
                            .arg(views::formatDuration(c.measuredTotal), views::formatDuration(c.simulatedTotal),
                                 signedDuration(c.totalError))
                            .arg(100.0 * c.totalRelativeError, 0, 'f', 1)
                            .arg(views::formatDuration(c.meanAbsDurationError));
                QStringList worst;
                for (const std::int64_t i : c.worst) {
                    const KernelError& k = c.kernels[static_cast<std::size_t>(i)];
                    worst << tr("%1 %2").arg(QString::fromStdString(k.name).toHtmlEscaped(), signedDuration(k.durationError));
                }
                if (!worst.isEmpty()) text += tr("<br>Worst kernels: %1.").arg(worst.join(QStringLiteral(", ")));
                const std::string runPolicy = run->plan.policy, runHardware = run->hardware.id;
                if (runPolicy != m.planPolicy || runHardware != m.planHardware)
                    text += tr("<br><i>The current run is %1 on %2; the plan was %3 on %4. Set the What-if dock to "
                               "the plan's policy and machine to compare like with like.</i>")
                                .arg(QString::fromStdString(runPolicy).toHtmlEscaped(),
                                     QString::fromStdString(runHardware).toHtmlEscaped(),
                                     QString::fromStdString(m.planPolicy).toHtmlEscaped(),
                                     QString::fromStdString(m.planHardware).toHtmlEscaped());
                model_->setComparison(std::move(c));
                compared_ = true;
            } catch (const std::invalid_argument& e) {
                problem = tr("Cannot compare with %1: %2").arg(run->name.toHtmlEscaped(), QString::fromStdString(e.what()).toHtmlEscaped());
            }
        }
    }
    if (!compared_) {
        model_->clear();
        text += QStringLiteral("<br><b>") + problem + QStringLiteral("</b>");
    }
    summary_->setText(text);
}

QString MeasuredPage::summaryText() const { return summary_->text(); }

void MeasuredPage::showProblem(const QString& title, const QString& message) {
    if (!errorDialogs_) return;
    auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

}  // namespace spillway::app
