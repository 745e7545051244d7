#include "app/gui/sweep_page.h"

#include "app/gui/sweep_table_panel.h"

#include "core/io/base/load_progress.h"
#include "core/hardware/hardware_presets.h"
#include "core/sweep/sweep_result_json.h"
#include "views/sweep_widget.h"

#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTabWidget>
#include <QVBoxLayout>

namespace spillway::app {

struct SweepOutcome {
    std::shared_ptr<const SweepResult> result;
    QString error;
    bool cancelled = false;
};

namespace {

std::vector<std::string> splitList(const QString& text) {
    std::vector<std::string> out;
    for (const QString& part : text.split(',', Qt::SkipEmptyParts))
        if (!part.trimmed().isEmpty()) out.push_back(part.trimmed().toStdString());
    return out;
}

}  // namespace

SweepPage::SweepPage(std::function<std::shared_ptr<const views::ProfileViewData>()> currentProfile,
                     std::function<views::WhatIfSettings()> currentMachine, QWidget* parent)
    : QWidget(parent), currentProfile_(std::move(currentProfile)), currentMachine_(std::move(currentMachine)) {
    setObjectName("sweepPage");
    parameter_ = new QComboBox(this);
    parameter_->setObjectName("sweepParameter");
    parameter_->setEditable(true);  // any key `spillway-cli presets` lists
    parameter_->addItems({"ssd.bandwidth", "pcie.bandwidth", "gpu_capacity", "host_capacity", "fault_latency",
                          batchProfilesItem()});
    values_ = new QLineEdit("3.2GB/s, 6.4GB/s, 12.8GB/s, 25.6GB/s", this);
    values_->setObjectName("sweepValues");
    values_->setToolTip(tr("Comma-separated, with units: 3.2GB/s, 24GiB, 45us"));
    profiles_ = new SweepProfileList(this);
    policies_ = new QLineEdit("uvm, deepum, g10, most", this);
    policies_->setObjectName("sweepPolicies");
    policies_->setToolTip(tr("Comma-separated; speedups are over the first"));
    runButton_ = new QPushButton(tr("&Run sweep"), this);
    cancelButton_ = new QPushButton(tr("Cancel"), this);
    openButton_ = new QPushButton(tr("&Open results…"), this);
    openButton_->setObjectName("sweepOpenResults");
    openButton_->setToolTip(tr("Show a sweep saved as a .sweep.json file (spillway-cli reproduce writes them)"));
    progress_ = new QProgressBar(this);
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    chart_ = new views::SweepWidget(this);
    form_ = new QFormLayout;
    form_->addRow(tr("Sweep"), parameter_);
    form_->addRow(tr("Values"), values_);
    form_->addRow(tr("Profiles"), profiles_);
    form_->addRow(tr("Policies"), policies_);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(runButton_);
    buttons->addWidget(cancelButton_);
    buttons->addWidget(progress_, 1);
    buttons->addWidget(openButton_);
    auto* oneParameter = new QWidget(this);
    auto* layout = new QVBoxLayout(oneParameter);
    layout->addLayout(form_);
    layout->addLayout(buttons);
    layout->addWidget(status_);
    layout->addWidget(chart_, 1);
    // A merged design sweep (millions of cells, many axes) has its own pane: the one-parameter
    // chart cannot show it.
    tablePanel_ = new SweepTablePanel(this);
    modes_ = new QTabWidget(this);
    modes_->setObjectName("sweepModes");
    modes_->setDocumentMode(true);
    modes_->addTab(oneParameter, tr("One parameter"));
    modes_->addTab(tablePanel_, tr("Sweep table"));
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(modes_);
    connect(runButton_, &QPushButton::clicked, this, &SweepPage::run);
    connect(cancelButton_, &QPushButton::clicked, this, &SweepPage::cancel);
    connect(openButton_, &QPushButton::clicked, this, &SweepPage::chooseResults);
    connect(parameter_, &QComboBox::currentTextChanged, this, &SweepPage::showParameterRows);
    showRunning(false);
    showParameterRows();
}

QString SweepPage::batchProfilesItem() { return tr("batch profiles"); }

void SweepPage::openTable(const QString& path) {
    modes_->setCurrentWidget(tablePanel_);
    tablePanel_->open(path);
}

bool SweepPage::sweepsBatchProfiles() const {
    const QString p = parameter_->currentText().trimmed();
    return p == batchProfilesItem() || p == QLatin1String(kBatchSweepParameter);
}

// Values for a hardware key, the list of profiles for a batch sweep.
void SweepPage::showParameterRows() {
    form_->setRowVisible(values_, !sweepsBatchProfiles());
    form_->setRowVisible(profiles_, sweepsBatchProfiles());
}

void SweepPage::showRunning(bool running) {
    runButton_->setEnabled(!running);
    openButton_->setEnabled(!running);  // a running sweep's result would replace the file's
    cancelButton_->setEnabled(running);
    progress_->setVisible(running);
}

void SweepPage::cancel() { job_.requestStop(); }

void SweepPage::run() {
    if (job_.isRunning()) return;
    const auto profile = sweepsBatchProfiles() ? nullptr : currentProfile_();
    if (!sweepsBatchProfiles() && !profile) {
        status_->setText(tr("Open a profile first."));
        emit failed(status_->text());
        return;
    }
    SweepSpec spec;
    try {
        const views::WhatIfSettings machine = currentMachine_();
        spec.baseHardware = loadHardware(machine.preset.toStdString());
        applyHardwareOverrides(spec.baseHardware, machine.hardwareOverrides());
    } catch (const std::exception& e) {
        status_->setText(tr("The what-if machine is not valid: %1").arg(QString::fromUtf8(e.what())));
        emit failed(status_->text());
        return;
    }
    spec.policies = splitList(policies_->text());
    if (sweepsBatchProfiles()) {
        runBatchProfiles(spec);
        return;
    }
    spec.parameter = parameter_->currentText().trimmed().toStdString();
    spec.values = splitList(values_->text());
    start(
        [profile, spec](const std::atomic<bool>* cancel, const std::function<void(size_t)>& progress) {
            SweepOptions options;
            options.cancel = cancel;
            options.progress = [&progress](size_t done, size_t) { progress(done); };
            return runSweep(*profile->profile, spec, options);
        },
        spec.values.size() * spec.policies.size(),
        tr("Sweeping %1 over %2 values for %3 policies…")
            .arg(parameter_->currentText())
            .arg(spec.values.size())
            .arg(spec.policies.size()));
}

void SweepPage::runBatchProfiles(const SweepSpec& base) {
    const std::vector<SweepProfileSource> sources = profiles_->sources();
    if (sources.empty()) {
        status_->setText(tr("Add the profiles to sweep: one per batch size of the same model."));
        emit failed(status_->text());
        return;
    }
    const size_t n = sources.size();
    // The bar counts the profiles read, then the cells run.
    start(
        [sources, base, n](const std::atomic<bool>* cancel, const std::function<void(size_t)>& progress) {
            size_t loaded = 0;
            auto profiles = loadSweepProfiles(sources, cancel, [&] { progress(++loaded); });
            SweepOptions options;
            options.cancel = cancel;
            options.progress = [&progress, n](size_t done, size_t) { progress(n + done); };
            return runBatchSweep(std::move(profiles), base, options);
        },
        n + n * base.policies.size(),
        tr("Reading %1 profiles, then sweeping their batch sizes for %2 policies…").arg(n).arg(base.policies.size()));
}

void SweepPage::start(std::function<SweepResult(const std::atomic<bool>* cancel,
                                                const std::function<void(size_t done)>& progress)> work,
                      size_t total, const QString& message) {
    QPointer<QProgressBar> bar = progress_;
    job_.start(
        [work = std::move(work), bar](JobControl& control) {
            SweepOutcome outcome;
            const std::function<void(size_t)> progress = [bar](size_t done) {
                QMetaObject::invokeMethod(bar, [bar, done] { if (bar) bar->setValue(int(done)); }, Qt::QueuedConnection);
            };
            try {
                outcome.result = std::make_shared<const SweepResult>(work(&control.cancel, progress));
            } catch (const SweepCancelled&) {
                outcome.cancelled = true;
            } catch (const LoadCancelled&) {
                outcome.cancelled = true;
            } catch (const std::exception& e) {
                outcome.error = QString::fromUtf8(e.what());
            }
            return outcome;
        },
        [this](const SweepOutcome& outcome) { showOutcome(outcome); });
    progress_->setRange(0, int(total));
    progress_->setValue(0);
    status_->setText(message);
    showRunning(true);
}

void SweepPage::showOutcome(const SweepOutcome& outcome) {
    showRunning(false);
    if (outcome.cancelled) {
        status_->setText(tr("Cancelled."));
        return;
    }
    if (!outcome.result) {
        status_->setText(tr("The sweep could not run: %1").arg(outcome.error));
        emit failed(outcome.error);
        return;
    }
    showResult(outcome.result, tr("Done."));
}

void SweepPage::showResult(std::shared_ptr<const SweepResult> result, const QString& done) {
    chart_->setResult(result);
    QStringList problems;
    for (const SweepCell& c : result->cells)
        if (!c.ok)
            problems << tr("%1 at %2 %3: %4")
                            .arg(QString::fromStdString(c.policy), QString::fromStdString(result->spec.parameter),
                                 QString::fromStdString(c.value), QString::fromStdString(c.error));
    status_->setText(problems.isEmpty() ? done
                                        : tr("%1 %2 cells could not run (gaps in the chart):\n%3")
                                              .arg(done)
                                              .arg(problems.size())
                                              .arg(problems.mid(0, 3).join('\n')));
    emit finished(result);
}

void SweepPage::chooseResults() {
    QSettings settings;
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Sweep Results"),
                                                      settings.value("lastSweepDir").toString(),
                                                      tr("Sweep results (*.sweep.json *.json);;All files (*)"));
    if (path.isEmpty()) return;
    settings.setValue("lastSweepDir", QFileInfo(path).absolutePath());
    openResults(path);
}

bool SweepPage::openResults(const QString& path) {
    std::shared_ptr<const SweepResult> result;
    try {
        result = std::make_shared<const SweepResult>(readSweepResult(QFile::encodeName(path).toStdString()));
    } catch (const std::exception& e) {
        const QString message = QString::fromUtf8(e.what());
        status_->setText(tr("Cannot open the sweep results: %1").arg(message));
        emit failed(message);
        return false;
    }
    showSpec(result->spec);
    showResult(result, tr("Opened %1 (%2 on %3).")
                           .arg(QFileInfo(path).fileName(), QString::fromStdString(result->spec.parameter),
                                QString::fromStdString(result->spec.baseHardware.id)));
    return true;
}

// The form says what the opened sweep was, so Run repeats it here (a batch sweep's profiles are
// listed in the file but not added: they may not be on this machine).
void SweepPage::showSpec(const SweepSpec& spec) {
    auto join = [](const std::vector<std::string>& items) {
        QStringList list;
        for (const auto& item : items) list << QString::fromStdString(item);
        return list.join(", ");
    };
    parameter_->setCurrentText(spec.sweepsBatch() ? batchProfilesItem() : QString::fromStdString(spec.parameter));
    if (!spec.sweepsBatch()) values_->setText(join(spec.values));
    policies_->setText(join(spec.policies));
}

}  // namespace spillway::app
