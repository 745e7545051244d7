#include "app/gui/simulation_runner.h"

#include "core/experiment/smallest_gpu.h"
#include "core/policy/planner.h"
#include "core/hardware/hardware_presets.h"
#include "core/sim/simulator.h"

#include <QElapsedTimer>

#include <stdexcept>

namespace spillway::app {

SimulationOutcome simulateForViews(std::shared_ptr<const views::ProfileViewData> profile,
                                   const views::WhatIfSettings& settings, const std::atomic<bool>* cancel) {
    SimulationOutcome outcome;
    QElapsedTimer timer;
    timer.start();
    try {
        if (!profile) throw std::invalid_argument("no profile is open");
        HardwareConfig hw = loadHardware(settings.preset.toStdString());
        applyHardwareOverrides(hw, settings.hardwareOverrides());
        const std::string policy = settings.policy.toStdString();
        try {
            Plan plan = makePlan(policy, *profile->profile, hw);
            SimulationOptions options;
            options.cancel = cancel;
            SimulationResult result = simulate(*profile->profile, plan, hw, options);
            // A plan the machine cannot run at all (FlashNeuron's allocator out of contiguous room):
            // say why instead of showing an empty run.
            if (!result.cannotRun.empty()) throw std::runtime_error("cannot run: " + result.cannotRun);
            const QString name = QStringLiteral("%1 on %2").arg(settings.policy, QString::fromStdString(hw.id));
            outcome.run = views::makeRunViewData(name, profile, std::move(plan), hw, std::move(result));
        } catch (const SimulationCancelled&) {
            throw;
        } catch (const std::exception& e) {
            // The settings were valid; the run failed on this machine. Would more GPU memory do?
            outcome.error = QString::fromUtf8(e.what());
            if (const auto s = smallestRunnableGpu(*profile->profile, policy, hw, kMiB, cancel); s && s->bytes > hw.gpuCapacity)
                outcome.minimumGpuBytes = s->bytes;
            if (cancel && cancel->load()) outcome.cancelled = true;
        }
    } catch (const SimulationCancelled&) {
        outcome.cancelled = true;
    } catch (const std::exception& e) {
        outcome.error = QString::fromUtf8(e.what());
    }
    outcome.elapsedNs = timer.nsecsElapsed();
    return outcome;
}

SimulationRunner::SimulationRunner(QObject* parent) : QObject(parent) {}

void SimulationRunner::cancel() { job_.cancel(); }

void SimulationRunner::request(std::shared_ptr<const views::ProfileViewData> profile,
                               const views::WhatIfSettings& settings) {
    // The simulator checks the flag between kernels, so a superseded run stops early.
    job_.start([profile = std::move(profile), settings](JobControl& control) {
                   return simulateForViews(profile, settings, &control.cancel);
               },
               [this](const SimulationOutcome& outcome) {
                   if (outcome.cancelled) return;
                   if (outcome.run) {
                       emit runReady(outcome.run, outcome.elapsedNs);
                       return;
                   }
                   if (outcome.minimumGpuBytes > 0) emit runNeedsGpu(outcome.error, outcome.minimumGpuBytes);
                   emit runFailed(outcome.error);
               });
}

}  // namespace spillway::app
