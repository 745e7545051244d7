#include "core/experiment/simulate_workload.h"

namespace spillway {

WorkloadResult simulateWorkload(const Workload& workload, std::string_view plannerId) {
    return simulateWorkload(workload, multiJobPlanner(plannerId));
}

}  // namespace spillway
