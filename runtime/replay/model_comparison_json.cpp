#include "runtime/replay/model_comparison_json.h"


namespace spillway::replay {

namespace {

nlohmann::ordered_json partJson(const char* cause, const ErrorBreakdown::Part& p) {
    return {{"cause", cause}, {"kernels", p.kernels}, {"run_error_ns", p.runError}, {"wait_error_ns", p.waitError}};
}

nlohmann::ordered_json kernelJson(const KernelError& k, const KernelErrorCauses& c) {
    return {{"run_index", k.runIndex},
            {"name", k.name},
            {"measured_ns", k.measuredDuration},
            {"model_ns", k.simulatedDuration},
            {"error_ns", k.durationError},
            {"wait_error_ns", c.waitError},
            {"run_error_ns", c.runError},
            {"modelled_fault_ns", c.modelledFaults},
            {"refilled_bytes", c.refilledBytes},
            {"dropped_bytes", c.droppedBytes},
            {"slot_race", c.slotRace},
            {"why", c.text}};
}

}  // namespace

nlohmann::ordered_json modelComparisonJson(const MeasuredTimeline& measured, const ReplayModelComparison& rc,
                                           const HardwareConfig& machine) {
    const MeasuredComparison& c = rc.comparison;
    const ErrorBreakdown& split = rc.breakdown;
    nlohmann::ordered_json j;
    j["plan"] = {{"policy", measured.planPolicy}, {"hardware", measured.planHardware}};
    j["arena"] = measured.arenaKind;
    j["machine"] = machine.id;
    j["iteration"] = c.iteration;
    j["measured_ns"] = c.measuredTotal;
    j["model_ns"] = c.simulatedTotal;
    j["error_ns"] = c.totalError;
    j["relative_error"] = c.totalRelativeError;
    j["breakdown"] = nlohmann::ordered_json::array({partJson("slot race", split.slotRaces),
                                                    partJson("dropped", split.dropped),
                                                    partJson("dropped and refilled", split.refilled),
                                                    partJson("other", split.other)});
    auto& kernels = j["kernels"] = nlohmann::ordered_json::array();
    for (const KernelError& k : c.kernels) kernels.push_back(kernelJson(k, rc.causes.at(static_cast<std::size_t>(k.runIndex))));
    return j;
}

}  // namespace spillway::replay
