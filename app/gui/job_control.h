#pragma once
// What the GUI thread and a job on a worker share while the job runs, and nothing else: two
// atomics. The GUI sets `cancel` (the job stops at its next check) and may poll `percent` for a
// progress bar; the job never touches a widget.
#include <atomic>

namespace spillway::app {

struct JobControl {
    std::atomic<bool> cancel{false};
    std::atomic<int> percent{0};  // 0-100; what each stage is worth is the job's to say
};

}  // namespace spillway::app
