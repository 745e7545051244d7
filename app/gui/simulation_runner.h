#pragma once
// Runs what the what-if panel asks for on a worker thread: plan, simulate, derive the views'
// data. A newer request cancels the one still running (the simulator checks the flag between
// kernels) and only the latest request's result is delivered, so the views never go back to a
// stale setting however fast the user turns the knobs.
#include "app/gui/latest_job.h"
#include "views/profile_view_data.h"
#include "views/run_view_data.h"
#include "views/what_if_settings.h"

#include <QObject>

#include <atomic>
#include <memory>

namespace spillway::app {

struct SimulationOutcome {
    std::shared_ptr<const views::RunViewData> run;  // null on failure or cancellation
    QString error;                                  // why it failed ("" when it ran or was cancelled)
    // When it failed on the machine's GPU memory (a kernel larger than the GPU, an arena out of
    // room): the least GPU memory on which it runs, to 1 MiB (core/experiment/smallest_gpu.h); 0
    // when more memory would not help or it was not looked for.
    qint64 minimumGpuBytes = 0;
    bool cancelled = false;
    qint64 elapsedNs = 0;  // plan + simulate + view data
};

// Never throws. `cancel` may be null.
SimulationOutcome simulateForViews(std::shared_ptr<const views::ProfileViewData> profile,
                                   const views::WhatIfSettings& settings, const std::atomic<bool>* cancel);

class SimulationRunner : public QObject {
    Q_OBJECT
public:
    explicit SimulationRunner(QObject* parent = nullptr);

    void request(std::shared_ptr<const views::ProfileViewData> profile, const views::WhatIfSettings& settings);
    // Until every worker is back, a cancelled or superseded one included.
    bool isRunning() const { return job_.unfinished() > 0; }
    // Drops the request in flight (its result is never delivered): the app shows a stored run.
    void cancel();

signals:
    void runReady(std::shared_ptr<const spillway::views::RunViewData> run, qint64 elapsedNs);
    void runFailed(const QString& message);
    // Before runFailed, when more GPU memory would let the run go: how much.
    void runNeedsGpu(const QString& message, qint64 minimumGpuBytes);

private:
    LatestJob<SimulationOutcome> job_{this};
};

}  // namespace spillway::app
