#include "app/gui/measured_page.h"

#include "core/hardware/hardware_presets.h"
#include "core/io/base/import_error.h"
#include "core/io/native/profile_hash.h"
#include "core/plan/exported_plan.h"
#include "runtime/replay/replay_model_comparison.h"
#include "runtime/replay/replay_program_builder.h"
#include "runtime/replay/replay_runner.h"
#include "views/format_units.h"
#include "views/measured_comparison_model.h"
#include "views/table_roles.h"

#include <algorithm>

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace spillway::app {

namespace {

QString signedDuration(Nanoseconds ns) { return (ns > 0 ? QStringLiteral("+") : QString()) + views::formatDuration(ns); }
QString signedPercent(double fraction) {
    return (fraction > 0 ? QStringLiteral("+") : QString()) + QString::number(100.0 * fraction, 'f', 1);
}

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

// One line per distinct message, in the order they first came, with how many times when more
// than once (a plan's pre-evicts to SSD each make the same fallback).
QString notesText(const std::vector<MeasuredNote>& notes, const QString& label) {
    std::vector<std::pair<std::string, int>> counted;
    for (const MeasuredNote& n : notes) {
        auto it = std::find_if(counted.begin(), counted.end(), [&](const auto& c) { return c.first == n.message; });
        if (it == counted.end()) counted.emplace_back(n.message, 1);
        else ++it->second;
    }
    QString text;
    for (const auto& [message, count] : counted)
        text += QStringLiteral("<br>") + label + (count > 1 ? QStringLiteral(" (%1×)").arg(count) : QString()) +
                QStringLiteral(": ") + QString::fromStdString(message).toHtmlEscaped();
    return text;
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
    auto* modelRow = new QHBoxLayout;
    modelButton_ = new QPushButton(tr("Compare with the replay model…"), this);
    modelButton_->setObjectName("replayModelButton");
    modelButton_->setToolTip(tr("Re-simulate this timeline on the machine it ran on (a preset or a spillway-calibrate "
                                "file), following the calls it made, and say why each kernel differs"));
    modelButton_->setEnabled(false);
    connect(modelButton_, &QPushButton::clicked, this, &MeasuredPage::chooseReplayModel);
    tableSource_ = new QComboBox(this);
    tableSource_->setObjectName("measuredTableSource");
    tableSource_->addItems({tr("Table: against the current run"), tr("Table: against the replay model")});
    tableSource_->setEnabled(false);
    connect(tableSource_, &QComboBox::currentIndexChanged, this, [this] { showTable(); });
    modelRow->addWidget(modelButton_);
    modelRow->addWidget(tableSource_);
    modelRow->addStretch(1);
    layout->addLayout(modelRow);
    modelSummary_ = new QLabel(this);
    modelSummary_->setObjectName("replayModelSummary");
    modelSummary_->setWordWrap(true);
    modelSummary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(modelSummary_);
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
    // Numbers as wide as they are, so the names (and the reasons) get the rest.
    for (int c = views::MeasuredComparisonModel::RunIndex; c < views::MeasuredComparisonModel::Why; ++c)
        if (c != views::MeasuredComparisonModel::Kernel)
            table_->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    table_->setColumnHidden(views::MeasuredComparisonModel::Why, true);
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
    modelComparison_.reset();
    modelSummary_->clear();
    tableSource_->setCurrentIndex(0);
    tableSource_->setEnabled(false);
    modelButton_->setEnabled(true);
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
    text += notesText(m.fallbacks, tr("Fallback")) + notesText(m.failures, tr("Failure"));

    const auto run = currentRun_ ? currentRun_() : nullptr;
    QString problem;
    if (!run || !run->profile || !run->profile->profile) {
        problem = tr("No simulated run to compare with: open the profile the plan was made for.");
    } else {
        if (hashOf(run->profile->profile) != m.profileHash) {
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
                            .arg(signedPercent(c.totalRelativeError))
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
                runComparison_ = std::move(c);
                compared_ = true;
            } catch (const std::invalid_argument& e) {
                problem = tr("Cannot compare with %1: %2").arg(run->name.toHtmlEscaped(), QString::fromStdString(e.what()).toHtmlEscaped());
            }
        }
    }
    if (!compared_) {
        runComparison_.reset();
        text += QStringLiteral("<br><b>") + problem + QStringLiteral("</b>");
    }
    summary_->setText(text);
    showTable();
}

void MeasuredPage::showTable() {
    if (tableSource_->currentIndex() == 1 && modelComparison_)
        model_->setComparison(modelComparison_->comparison, modelComparison_->why, true);
    else if (runComparison_)
        model_->setComparison(*runComparison_);
    else
        model_->clear();
    // Only the model comparison has reasons (the full text is the cell's tooltip); they take the
    // width the kernel names take otherwise.
    using M = views::MeasuredComparisonModel;
    const bool why = model_->againstModel();
    table_->setColumnHidden(M::Why, !why);
    QHeaderView* header = table_->horizontalHeader();
    header->setSectionResizeMode(M::Kernel, why ? QHeaderView::Interactive : QHeaderView::Stretch);
    header->setSectionResizeMode(M::Why, why ? QHeaderView::Stretch : QHeaderView::Interactive);
    if (why) header->resizeSection(M::Kernel, 220);
}

void MeasuredPage::showModelInTable(bool model) { tableSource_->setCurrentIndex(model && modelComparison_ ? 1 : 0); }

QString MeasuredPage::modelSummaryText() const { return modelSummary_->text(); }

const std::string& MeasuredPage::hashOf(const std::shared_ptr<const Profile>& profile) {
    if (hashedProfile_ != profile) {
        hashedProfile_ = profile;
        hash_ = profileHash(*profile);
    }
    return hash_;
}

bool MeasuredPage::modelProblem(const QString& message) {
    modelSummary_->setText(QStringLiteral("<b>") + message.toHtmlEscaped() + QStringLiteral("</b>"));
    showProblem(tr("Cannot compare with the replay model"), message);
    return false;
}

void MeasuredPage::chooseReplayModel() {
    const QString plan = QFileDialog::getOpenFileName(this, tr("The Plan That Ran"), QFileInfo(path_).path(),
                                                      tr("Plans (*.json);;All files (*)"));
    if (plan.isEmpty()) return;
    QStringList machines;
    for (const std::string& id : hardwarePresetIds()) machines << QString::fromStdString(id);
    const QString otherFile = tr("A spillway-calibrate file…");
    machines << otherFile;
    bool ok = false;
    const int h200 = static_cast<int>(machines.indexOf(QStringLiteral("h200")));
    QString machine = QInputDialog::getItem(this, tr("The Machine It Ran On"), tr("Machine:"), machines,
                                            std::max(h200, 0), false, &ok);
    if (!ok) return;
    if (machine == otherFile) {
        machine = QFileDialog::getOpenFileName(this, tr("The Machine It Ran On"), QFileInfo(plan).path(),
                                               tr("Hardware (*.json);;All files (*)"));
        if (machine.isEmpty()) return;
    }
    compareWithReplayModel(plan, machine);
}

bool MeasuredPage::compareWithReplayModel(const QString& planPath, const QString& machineSpec) {
    if (!timeline_) return modelProblem(tr("Open a measured timeline first."));
    const auto run = currentRun_ ? currentRun_() : nullptr;
    try {
        const ExportedPlan plan = readExportedPlan(QFile::encodeName(planPath).toStdString());
        if (plan.profileHash != timeline_->profileHash)
            return modelProblem(tr("%1 was made for profile %2; the timeline was measured on %3.")
                                    .arg(QFileInfo(planPath).fileName(), QString::fromStdString(plan.profileHash),
                                         QString::fromStdString(timeline_->profileHash)));
        if (!run || !run->profile || !run->profile->profile || hashOf(run->profile->profile) != plan.profileHash)
            return modelProblem(tr("Open the profile the plan was made for (%1): the replay model needs its kernels.")
                                    .arg(QString::fromStdString(plan.profileHash)));
        const HardwareConfig machine = loadHardware(QFile::encodeName(machineSpec).toStdString());
        const replay::ReplayProgram program =
            replay::buildReplayProgram(*run->profile->profile, plan, replay::replayOptionsOf(*timeline_));
        replay::ReplayModelComparison c = replay::compareWithReplayModel(program, *timeline_, machine);
        ModelComparison shown{std::move(c.comparison), {}};
        for (const replay::KernelErrorCauses& k : c.causes) shown.why.push_back(QString::fromStdString(k.text));
        const MeasuredComparison& m = shown.comparison;
        QString text = tr("Against the <b>replay model</b> on %1 (plan %2, the calls this replay made; iteration %3): "
                          "%4 measured vs %5 modelled, error %6 (%7%). Where the difference is, measured minus model:")
                           .arg(QString::fromStdString(machine.id).toHtmlEscaped(),
                                QFileInfo(planPath).fileName().toHtmlEscaped())
                           .arg(m.iteration)
                           .arg(views::formatDuration(m.measuredTotal), views::formatDuration(m.simulatedTotal),
                                signedDuration(m.totalError))
                           .arg(signedPercent(m.totalRelativeError));
        for (const QString& line : QString::fromStdString(c.breakdown.text).split('\n', Qt::SkipEmptyParts))
            text += QStringLiteral("<br>") + line.trimmed().toHtmlEscaped();
        if (!c.note.empty()) text += QStringLiteral("<br><i>") + QString::fromStdString(c.note).toHtmlEscaped() + "</i>";
        modelSummary_->setText(text);
        modelComparison_ = std::move(shown);
        tableSource_->setEnabled(true);
        if (tableSource_->currentIndex() == 1) showTable();
        else tableSource_->setCurrentIndex(1);
        return true;
    } catch (const std::exception& e) {
        return modelProblem(QString::fromStdString(e.what()));
    }
}

QString MeasuredPage::summaryText() const { return summary_->text(); }

void MeasuredPage::showProblem(const QString& title, const QString& message) {
    if (!errorDialogs_) return;
    auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

}  // namespace spillway::app
