#pragma once
// The work behind File ▸ Open, run on a worker thread: read the profile with the core loader and
// derive everything the views show. The outcome is a value (data or error, never both) handed
// to the GUI thread; nothing is shared while the job runs.
#include "app/gui/job_control.h"
#include "core/io/base/import_options.h"
#include "views/profile_view_data.h"

#include <QString>

#include <memory>

namespace spillway::app {

struct ProfileLoadOutcome {
    QString path;
    ImportOptions options;
    std::shared_ptr<const views::ProfileViewData> data;  // null on failure
    QString errorWhere;    // "file:12:5", "file: /kernels/3/phase" ...
    QString errorMessage;  // what was expected there
    qint64 elapsedNs = 0;  // wall time of the load and the derived data
    bool cancelled = false;  // stopped on JobControl::cancel: neither data nor an error

    bool ok() const { return data != nullptr; }
};

// Never throws: every failure (ImportError, out of memory, anything else) becomes an error outcome.
// `control` may be null (no progress, no cancel); its `percent` is the core loader's progress as
// 0-90, the views' derived data as 90-100.
ProfileLoadOutcome loadProfileForViews(const QString& path, const ImportOptions& options,
                                       JobControl* control = nullptr);

}  // namespace spillway::app
