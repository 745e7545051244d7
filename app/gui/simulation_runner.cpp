#include "app/gui/simulation_runner.h"

#include "core/policy/planner.h"
#include "core/sim/hardware_presets.h"
#include "core/sim/simulator.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QtConcurrent>

#include <stdexcept>

namespace spillway::app {

SimulationOutcome simulateForViews(std::shared_ptr<const views::ProfileViewData> profile,
                                   const views::WhatIfSettings& settings, const std::atomic<bool>* cancel) {
    SimulationOutcome outcome;
    QElapsedTimer timer;
    timer.start();
    try {
        if (!profile) throw std::invalid_argument("no profile is open");
        HardwareConfig hw = hardwarePreset(settings.preset.toStdString());
        applyHardwareOverrides(hw, settings.hardwareOverrides());
        const std::string policy = settings.policy.toStdString();
        Plan plan = makePlan(policy, *profile->profile, hw);
        SimulationOptions options;
        options.cancel = cancel;
        SimulationResult result = simulate(*profile->profile, plan, hw, options);
        // A plan the machine cannot run at all (FlashNeuron's allocator out of contiguous room):
        // say why instead of showing an empty run.
        if (!result.cannotRun.empty()) throw std::runtime_error("cannot run: " + result.cannotRun);
        const QString name = QStringLiteral("%1 on %2").arg(settings.policy, settings.preset);
        outcome.run = views::makeRunViewData(name, std::move(profile), std::move(plan), std::move(hw), std::move(result));
    } catch (const SimulationCancelled&) {
        outcome.cancelled = true;
    } catch (const std::exception& e) {
        outcome.error = QString::fromUtf8(e.what());
    }
    outcome.elapsedNs = timer.nsecsElapsed();
    return outcome;
}

SimulationRunner::SimulationRunner(QObject* parent) : QObject(parent) {}

SimulationRunner::~SimulationRunner() {
    // Let a running simulation stop at the next kernel; its watcher is our child and goes with us.
    if (cancelCurrent_) cancelCurrent_->store(true);
}

void SimulationRunner::cancel() {
    if (cancelCurrent_) cancelCurrent_->store(true);
    ++generation_;  // whatever is still running is now stale
}

void SimulationRunner::request(std::shared_ptr<const views::ProfileViewData> profile,
                               const views::WhatIfSettings& settings) {
    if (cancelCurrent_) cancelCurrent_->store(true);
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    cancelCurrent_ = cancel;
    const quint64 generation = ++generation_;
    ++running_;
    auto* watcher = new QFutureWatcher<SimulationOutcome>(this);
    connect(watcher, &QFutureWatcher<SimulationOutcome>::finished, this, [this, watcher, generation] {
        --running_;
        SimulationOutcome outcome = watcher->result();
        outcome.generation = generation;
        watcher->deleteLater();
        if (generation != generation_ || outcome.cancelled) return;  // a newer request owns the views
        if (outcome.run) emit runReady(outcome.run, outcome.elapsedNs);
        else emit runFailed(outcome.error);
    });
    // The flag is captured by value (shared), so it outlives this call and the runner.
    watcher->setFuture(QtConcurrent::run([profile = std::move(profile), settings, cancel] {
        return simulateForViews(profile, settings, cancel.get());
    }));
}

}  // namespace spillway::app
