#include "app/gui/lesson_player.h"

#include "app/gui/lesson_stage.h"
#include "app/gui/simulation_runner.h"
#include "core/io/base/import_error.h"
#include "core/layout/operator_order.h"
#include "core/layout/placement.h"
#include "core/layout/profile_allocation.h"
#include "views/format_units.h"
#include "views/view_link.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace spillway::app {

// Plans every (order, placement) pair a step names: the order, its allocation problem, and the
// placement of that problem. Small lesson profiles make this milliseconds; it runs off the GUI
// thread anyway, like every planner call in the app.
struct PlannedLayouts {
    std::vector<LessonLayout> layouts;
    QString error;  // what went wrong; the layouts are then empty
};

namespace {

QString describe(const ImportError& e) {
    return QString::fromStdString(e.location().describe() + ": " + e.message());
}

bool samePath(const QString& a, const std::filesystem::path& b) {
    const QString other = QString::fromStdString(b.string());
    return !a.isEmpty() && QFileInfo(a).canonicalFilePath() == QFileInfo(other).canonicalFilePath();
}

std::vector<LessonLayout> planLayoutsOrThrow(const Profile& profile, const std::vector<std::string>& orders,
                                             const std::vector<std::string>& placements) {
    std::vector<LessonLayout> out;
    for (const std::string& order : orders) {
        OrderOptions orderOptions;
        orderOptions.timeLimitSecondsPerSegment = 1.0;
        const OrderResult ordered = orderOperators(order, profile, orderOptions);
        AllocationProblem problem = allocationProblemFromProfile(profile, ordered.order);
        for (const std::string& placement : placements) {
            PlacementOptions options;
            options.timeLimitSeconds = 2.0;
            options.segmentStarts = ordered.segmentStarts;
            const PlacementResult placed = place(placement, problem, options);
            LessonLayout l;
            l.order = order;
            l.placement = placement;
            l.theoreticalPeak = placed.lowerBound;
            l.arenaBytes = placed.arena;
            auto arena = std::make_shared<views::PlacedArena>();
            arena->name = QStringLiteral("%1 order, %2").arg(QString::fromStdString(order), QString::fromStdString(placement));
            arena->problem = problem;
            arena->layout = placed.layout;
            l.arena = std::move(arena);
            out.push_back(std::move(l));
        }
    }
    return out;
}

PlannedLayouts planLayouts(std::shared_ptr<const views::ProfileViewData> data, std::vector<std::string> orders,
                           std::vector<std::string> placements) {
    PlannedLayouts planned;
    try {
        planned.layouts = planLayoutsOrThrow(*data->profile, orders, placements);
    } catch (const std::exception& e) {
        planned.error = QString::fromUtf8(e.what());
    }
    return planned;
}

}  // namespace

LessonPlayer::LessonPlayer(LessonStage* stage, QWidget* parent) : QWidget(parent), stage_(stage) {
    setObjectName("lessonPlayer");
    lessonTitle_ = new QLabel(this);
    lessonTitle_->setObjectName("lessonTitle");
    lessonTitle_->setWordWrap(true);
    QFont big = lessonTitle_->font();
    big.setPointSizeF(big.pointSizeF() * 1.25);
    big.setBold(true);
    lessonTitle_->setFont(big);
    stepTitle_ = new QLabel(this);
    stepTitle_->setObjectName("lessonStepTitle");
    stepTitle_->setWordWrap(true);
    QFont bold = stepTitle_->font();
    bold.setBold(true);
    stepTitle_->setFont(bold);
    text_ = new QTextBrowser(this);
    text_->setObjectName("lessonText");
    text_->setOpenExternalLinks(true);
    runSummary_ = new QLabel(this);
    runSummary_->setObjectName("lessonRunSummary");
    runSummary_->setWordWrap(true);
    runSummary_->setTextFormat(Qt::RichText);
    figureCaption_ = new QLabel(this);
    figureCaption_->setObjectName("lessonFigureCaption");
    figureCaption_->setWordWrap(true);
    figure_ = new views::OffsetMapWidget(stage_->viewLink(), this);
    figure_->setObjectName("lessonLayoutFigure");
    figure_->setMinimumHeight(220);
    counter_ = new QLabel(this);
    counter_->setObjectName("lessonCounter");
    back_ = new QPushButton(QIcon::fromTheme("go-previous"), tr("&Back"), this);
    back_->setObjectName("lessonBack");
    next_ = new QPushButton(QIcon::fromTheme("go-next"), tr("&Next"), this);
    next_->setObjectName("lessonNext");
    connect(back_, &QPushButton::clicked, this, &LessonPlayer::back);
    connect(next_, &QPushButton::clicked, this, &LessonPlayer::next);
    end_ = new QPushButton(tr("&End lesson"), this);
    end_->setObjectName("lessonEnd");
    end_->setToolTip(tr("Close the lesson and go back to your own what-if settings"));
    end_->setEnabled(false);
    connect(end_, &QPushButton::clicked, this, [this] { closeLesson(true); });

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(back_);
    buttons->addStretch();
    buttons->addWidget(counter_);
    buttons->addStretch();
    buttons->addWidget(next_);
    buttons->addWidget(end_);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(lessonTitle_);
    layout->addWidget(stepTitle_);
    layout->addWidget(text_, 2);
    layout->addWidget(runSummary_);
    layout->addWidget(figureCaption_);
    layout->addWidget(figure_, 3);
    layout->addLayout(buttons);
    figureCaption_->hide();
    figure_->hide();

    StageSignals* news = stage_->stageSignals();
    connect(news, &StageSignals::profileLoaded, this, [this](const QString& path) {
        if (!waitingForProfile_ || !lesson_ || !samePath(path, lesson_->profileOf(size_t(step_)))) return;
        waitingForProfile_ = false;
        applyStep();
    });
    connect(news, &StageSignals::loadFailed, this, [this](const QString&, const QString& where, const QString& message) {
        if (!waitingForProfile_) return;
        waitingForProfile_ = false;
        emit lessonFailed(where + ": " + message);
    });
    connect(news, &StageSignals::runShown, this, &LessonPlayer::onRunShown);
    connect(news, &StageSignals::runFailed, this, [this](const QString& message) {
        if (!waitingForRun_) return;
        waitingForRun_ = false;
        text_->append(tr("<p style='color:#b00'>The simulation failed: %1</p>").arg(message.toHtmlEscaped()));
        finishPart();
    });
    updateText();
}

QString LessonPlayer::bundledLessonFolder() {
    const QString fromEnv = qEnvironmentVariable("SPILLWAY_LESSONS");
    if (!fromEnv.isEmpty()) return fromEnv;
    const QDir app(QCoreApplication::applicationDirPath());
    // Installed (bin/ beside share/spillway/samples), then the build tree (build/app/ or build/tests/).
    for (const QString& relative : {QStringLiteral("../share/spillway/samples/lessons"), QStringLiteral("../../samples/lessons"),
                                    QStringLiteral("../../../samples/lessons")})
        if (QFileInfo(app.filePath(relative)).isDir()) return QDir::cleanPath(app.filePath(relative));
    return QDir::current().filePath("samples/lessons");
}

bool LessonPlayer::openLesson(const QString& path, QString* error) {
    try {
        lesson_ = readLesson(std::filesystem::path(QFile::encodeName(path).toStdString()));
    } catch (const ImportError& e) {
        if (error) *error = describe(e);
        return false;
    } catch (const std::exception& e) {
        if (error) *error = QString::fromLocal8Bit(e.what());
        return false;
    }
    if (!end_->isEnabled()) userSettings_ = stage_->whatIfSettings();  // not when one lesson follows another
    step_ = -1;
    end_->setEnabled(true);
    goToStep(0);
    return true;
}

void LessonPlayer::closeLesson(bool rerun) {
    if (!lesson_) return;
    comparisons_.cancel();
    layoutJob_.cancel();
    lesson_.reset();
    step_ = -1;
    compared_.clear();
    layouts_.clear();
    runSummary_->clear();
    figureCaption_->hide();
    figure_->hide();
    waitingForRun_ = waitingForProfile_ = false;
    partsPending_ = 0;
    end_->setEnabled(false);
    updateText();
    stage_->showStallRuns({});
    if (rerun) stage_->applyWhatIf(userSettings_);
    else stage_->restoreWhatIf(userSettings_);
    emit lessonClosed();
}

void LessonPlayer::goToStep(int step) {
    if (!lesson_ || step < 0 || step >= stepCount()) return;
    step_ = step;
    comparisons_.cancel();
    layoutJob_.cancel();
    compared_.clear();
    layouts_.clear();
    runSummary_->clear();
    waitingForRun_ = false;
    partsPending_ = 0;
    updateText();
    const std::filesystem::path& profile = lesson_->profileOf(size_t(step_));
    if (!samePath(stage_->currentPath(), profile) || !stage_->viewData()) {
        waitingForProfile_ = true;
        stage_->openProfileWith(QString::fromStdString(profile.string()), {});
        return;
    }
    waitingForProfile_ = false;
    applyStep();
}

void LessonPlayer::applyStep() {
    const LessonStep& step = lesson_->steps[size_t(step_)];
    const LessonSettings settings = effectiveLessonSettings(*lesson_, size_t(step_));
    try {
        checkLessonSelection(*lesson_, size_t(step_), *stage_->viewData()->profile);
    } catch (const ImportError& e) {
        emit lessonFailed(describe(e));
        return;
    }
    // Three parts: the main run, the compared runs, the layouts; each finishes once.
    partsPending_ = 3;
    // The Offsets tab plans with the step's order and placement, so the tab matches the text.
    if (settings.order || settings.placement)
        stage_->setLayoutMethods(QString::fromStdString(settings.order.value_or("")),
                                 QString::fromStdString(settings.placement.value_or("")));
    switchTab(step.view);
    applySelection(step.select);
    waitingForRun_ = true;
    applySettings(settings);
    startComparisons(step);
    startLayouts(step, settings);
}

void LessonPlayer::applySettings(const LessonSettings& s) {
    // Every step starts from its preset's values, so Back shows exactly what it showed before.
    if (s.preset) stage_->selectWhatIfPreset(QString::fromStdString(*s.preset));
    views::WhatIfSettings w = stage_->whatIfSettings();
    if (s.policy) w.policy = QString::fromStdString(*s.policy);
    if (s.gpuMemory) w.gpuBytes = s.gpuMemory->resolve(stage_->viewData()->summary.peakBytes);
    if (s.hostMemory) w.hostBytes = *s.hostMemory;
    if (s.ssdBytesPerSecond) w.ssdBytesPerSecond = *s.ssdBytesPerSecond;
    if (s.pcieBytesPerSecond) w.pcieBytesPerSecond = *s.pcieBytesPerSecond;
    if (s.faultLatency) w.faultLatencyNs = *s.faultLatency;
    // A lesson step is a change the user asked for: the window re-simulates.
    stage_->applyWhatIf(w);
}

void LessonPlayer::applySelection(const LessonSelection& sel) {
    views::ViewLink* link = stage_->viewLink();
    if (sel.rangeStart && sel.rangeEnd) link->setTimeRange({*sel.rangeStart, *sel.rangeEnd});
    else link->clearTimeRange();
    link->selectKernel(sel.kernel ? *sel.kernel : -1);
    link->selectTensor(selectedTensorPosition(sel, *stage_->viewData()->profile));
}

void LessonPlayer::switchTab(const std::string& view) {
    const QString id = QString::fromStdString(view);
    for (int i = 0; i < stage_->tabCount(); ++i)
        if (stage_->tabTitle(i).remove('&').startsWith(id, Qt::CaseInsensitive)) {
            stage_->showTab(i);
            return;
        }
    // A view this build has no tab for (the lesson is newer than the app): stay where we are.
}

void LessonPlayer::startComparisons(const LessonStep& step) {
    if (step.compare.policies.empty()) {
        finishPart();
        return;
    }
    comparisons_.start(
        [data = stage_->viewData(), base = stage_->whatIfSettings(), policies = step.compare.policies](JobControl&) {
            std::vector<std::shared_ptr<const views::RunViewData>> runs;
            for (const std::string& policy : policies) {
                views::WhatIfSettings s = base;
                s.policy = QString::fromStdString(policy);
                SimulationOutcome outcome = simulateForViews(data, s, nullptr);
                if (outcome.run) runs.push_back(std::move(outcome.run));
            }
            return runs;
        },
        [this](std::vector<std::shared_ptr<const views::RunViewData>> runs) {
            compared_ = std::move(runs);
            if (!waitingForRun_) stage_->showStallRuns(compared_);
            updateRunSummary();
            finishPart();
        });
}

void LessonPlayer::startLayouts(const LessonStep& step, const LessonSettings& settings) {
    const bool wanted = settings.order || settings.placement || !step.compare.orders.empty() || !step.compare.placements.empty();
    figure_->setVisible(wanted);
    figureCaption_->setVisible(wanted);
    figure_->setArenas({});
    figureCaption_->clear();
    if (!wanted) {
        finishPart();
        return;
    }
    std::vector<std::string> orders = step.compare.orders;
    if (orders.empty()) orders.push_back(settings.order.value_or("program"));
    std::vector<std::string> placements = step.compare.placements;
    if (placements.empty()) placements.push_back(settings.placement.value_or("exact"));
    figureCaption_->setText(tr("Planning the layout…"));
    layoutJob_.start([data = stage_->viewData(), orders, placements](JobControl&) { return planLayouts(data, orders, placements); },
                     [this](PlannedLayouts planned) { showLayouts(std::move(planned)); });
}

void LessonPlayer::showLayouts(PlannedLayouts planned) {
    if (!planned.error.isEmpty()) {
        figureCaption_->setText(tr("Could not plan the layout: %1").arg(planned.error));
        finishPart();
        return;
    }
    layouts_ = std::move(planned.layouts);
    std::vector<std::shared_ptr<const views::PlacedArena>> arenas;
    QStringList lines;
    for (const LessonLayout& l : layouts_) {
        arenas.push_back(l.arena);
        lines << tr("%1 order, %2: theoretical peak %3, arena %4")
                     .arg(QString::fromStdString(l.order), QString::fromStdString(l.placement),
                          views::formatBytes(l.theoreticalPeak), views::formatBytes(l.arenaBytes));
    }
    figure_->setArenas(std::move(arenas));
    figureCaption_->setText(lines.join('\n'));
    finishPart();
}

void LessonPlayer::onRunShown() {
    updateRunSummary();
    if (!waitingForRun_) return;
    waitingForRun_ = false;
    // The window just showed its own run alone; the step's comparison, if ready, goes back in.
    if (!compared_.empty()) stage_->showStallRuns(compared_);
    finishPart();
}

void LessonPlayer::finishPart() {
    if (partsPending_ <= 0) return;
    if (--partsPending_ == 0) emit stepReady(step_);
}

namespace {

QString runLine(const views::RunViewData& run) {
    const SimulationResult& r = run.result;
    const Nanoseconds stalls = r.iterationTime - r.totals.compute;
    const Bytes pcie = r.traffic[int(LinkId::HostToGpu)] + r.traffic[int(LinkId::GpuToHost)];
    const Bytes ssd = r.traffic[int(LinkId::SsdToGpu)] + r.traffic[int(LinkId::GpuToSsd)] +
                      r.traffic[int(LinkId::SsdToHost)] + r.traffic[int(LinkId::HostToSsd)];
    QString line = QObject::tr("<b>%1</b>: %2 (stalls %3: oversubscription %4, fault %5, late prefetch %6); "
                               "traffic host&#8596;GPU %7, SSD %8")
                       .arg(run.name.toHtmlEscaped(), views::formatDuration(r.iterationTime), views::formatDuration(stalls),
                            views::formatDuration(r.totals.oversubStall), views::formatDuration(r.totals.faultStall),
                            views::formatDuration(r.totals.latePrefetchStall), views::formatBytes(pcie), views::formatBytes(ssd));
    if (r.discardSavedBytes > 0) line += QObject::tr("; discard saved %1").arg(views::formatBytes(r.discardSavedBytes));
    return line;
}

}  // namespace

QString LessonPlayer::runSummaryText() const { return runSummary_->text(); }

void LessonPlayer::updateRunSummary() {
    if (!lesson_) return;
    QStringList lines;
    if (compared_.empty() && stage_->currentRun()) lines << runLine(*stage_->currentRun());
    for (const auto& run : compared_) lines << runLine(*run);
    runSummary_->setText(lines.join("<br>"));
}

QString LessonPlayer::stepTitleText() const {
    return lesson_ ? QString::fromStdString(lesson_->steps[size_t(step_)].title) : QString();
}

QString LessonPlayer::counterText() const {
    return lesson_ ? tr("Step %1 of %2").arg(step_ + 1).arg(stepCount()) : QString();
}

void LessonPlayer::updateText() {
    if (!lesson_ || step_ < 0) {
        lessonTitle_->setText(tr("No lesson"));
        stepTitle_->clear();
        text_->setHtml(tr("<p>Pick a lesson in the <b>Lessons</b> menu. Each lesson opens a small profile and "
                          "walks through one idea step by step: the what-if settings, the view and the "
                          "selection change with each step.</p>"));
        counter_->clear();
        back_->setEnabled(false);
        next_->setEnabled(false);
        return;
    }
    const LessonStep& step = lesson_->steps[size_t(step_)];
    lessonTitle_->setText(QString::fromStdString(lesson_->title));
    stepTitle_->setText(QString::fromStdString(step.title));
    QString html;
    for (const QString& paragraph : QString::fromStdString(step.text).split("\n\n", Qt::SkipEmptyParts))
        html += "<p>" + paragraph.toHtmlEscaped() + "</p>";
    text_->setHtml(html);
    counter_->setText(counterText());
    back_->setEnabled(step_ > 0);
    next_->setEnabled(step_ + 1 < stepCount());
}

}  // namespace spillway::app
