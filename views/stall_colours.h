#pragma once
// The colours of time spent in the stall views, shared so the single-run breakdown and the
// workload's per-job bars mean the same thing by the same colour.
#include <QColor>

namespace spillway::views::stall_colours {

inline const QColor kCompute(44, 160, 44);         // green
inline const QColor kFault(214, 39, 40);           // red
inline const QColor kOversub(255, 127, 14);        // orange: also the workload's passive swap-out
inline const QColor kLatePrefetch(148, 103, 189);  // purple: also the workload's wait for a swap-in
inline const QColor kNvlink(140, 86, 75);          // brown
inline const QColor kRecompute(23, 190, 207);      // cyan

}  // namespace spillway::views::stall_colours
