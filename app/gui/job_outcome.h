#pragma once
// How a worker-thread job (open a profile, run a workload) turns its work into an outcome value:
// timed, and never throwing. A cancellation, an input error the core diagnosed (with its place)
// and any other failure each land in the outcome's fields, so the GUI thread shows them instead
// of the app ending.
#include "core/io/base/import_error.h"
#include "core/io/base/load_progress.h"

#include <QElapsedTimer>
#include <QString>

#include <exception>

namespace spillway::app {

// `Outcome` has cancelled, errorWhere, errorMessage and elapsedNs; `work` fills its data and may
// throw LoadCancelled to stop. Other failures are reported against `path`.
template <typename Outcome, typename Work>
void runJobInto(Outcome& outcome, const QString& path, Work&& work) {
    QElapsedTimer timer;
    timer.start();
    try {
        work();
    } catch (const LoadCancelled&) {
        outcome.cancelled = true;
    } catch (const ImportError& e) {
        outcome.errorWhere = QString::fromStdString(e.location().describe());
        outcome.errorMessage = QString::fromStdString(e.message());
    } catch (const std::exception& e) {
        // Not an input problem the reader diagnosed (out of memory, a filesystem error, an
        // unknown policy, a planner's bad plan): still reported against the file.
        outcome.errorWhere = path;
        outcome.errorMessage = QString::fromLocal8Bit(e.what());
    }
    outcome.elapsedNs = timer.nsecsElapsed();
}

}  // namespace spillway::app
