#include "runtime/replay/replay_call.h"

namespace spillway::replay {

ReplayCall replayCallFor(ArenaKind kind, const ReplayDirective& d) {
    if (d.range.bytes == 0) return ReplayCall::Nothing;
    if (kind == ArenaKind::Device) {
        if (d.action == ReplayAction::Prefetch) return d.afterDrop ? ReplayCall::Nothing : ReplayCall::CopyToDevice;
        if (d.action == ReplayAction::PreEvict) return ReplayCall::CopyToHost;
        return ReplayCall::Nothing;
    }
    switch (d.action) {
        case ReplayAction::Prefetch: return ReplayCall::PrefetchToDevice;  // after a drop too: its pages are discarded
        case ReplayAction::PreEvict: return ReplayCall::PrefetchToHost;
        case ReplayAction::Discard:
        case ReplayAction::DiscardLazy:
        case ReplayAction::Free:
        case ReplayAction::Recompute: return ReplayCall::Discard;
        case ReplayAction::Advise: return ReplayCall::Advise;
    }
    return ReplayCall::Nothing;
}

ReplayCall replayCallFor(const ReplayProgram& program, const ReplayDirective& d) {
    const ReplayCall call = replayCallFor(program.arenaKind, d);
    if (call != ReplayCall::Discard) return call;
    if (!program.discards.issues(d.planIndex)) return ReplayCall::Nothing;
    return program.fenceDiscards ? ReplayCall::FencedDiscard : call;
}

std::optional<ReplayCall> replayCallNamed(std::string_view call) {
    const auto starts = [&](std::string_view prefix) { return call.substr(0, prefix.size()) == prefix; };
    if (call == "cudaMemcpyAsync host->device") return ReplayCall::CopyToDevice;
    if (call == "cudaMemcpyAsync device->host") return ReplayCall::CopyToHost;
    if (call == "cudaMemPrefetchAsync to device") return ReplayCall::PrefetchToDevice;
    if (call == "cudaMemPrefetchAsync to host") return ReplayCall::PrefetchToHost;
    if (call == "cudaMemDiscardAndPrefetchBatchAsync") return ReplayCall::DiscardAndPrefetch;
    if (call == "cudaMemDiscardBatchAsync") return ReplayCall::Discard;
    if (call == "cudaMemDiscardBatchAsync, then a fence prefetch") return ReplayCall::FencedDiscard;
    if (starts("cudaMemAdvise")) return ReplayCall::Advise;
    if (starts("nothing")) return ReplayCall::Nothing;
    return std::nullopt;
}

bool discardsPages(ReplayCall call) {
    return call == ReplayCall::Discard || call == ReplayCall::FencedDiscard || call == ReplayCall::DiscardAndPrefetch;
}

bool discardsPages(std::string_view call) {
    const auto c = replayCallNamed(call);
    return c && discardsPages(*c);
}

std::string callName(ReplayCall call, const ReplayDirective& d) {
    switch (call) {
        case ReplayCall::CopyToDevice: return "cudaMemcpyAsync host->device";
        case ReplayCall::CopyToHost: return "cudaMemcpyAsync device->host";
        case ReplayCall::PrefetchToDevice: return "cudaMemPrefetchAsync to device";
        case ReplayCall::PrefetchToHost: return "cudaMemPrefetchAsync to host";
        case ReplayCall::DiscardAndPrefetch: return "cudaMemDiscardAndPrefetchBatchAsync";
        case ReplayCall::Discard: return "cudaMemDiscardBatchAsync";
        case ReplayCall::FencedDiscard: return "cudaMemDiscardBatchAsync, then a fence prefetch";
        case ReplayCall::Advise: return "cudaMemAdvise " + std::string(toString(d.advice)) + " (from the host at its anchor)";
        case ReplayCall::Nothing: break;
    }
    if (d.range.bytes == 0) return "nothing (tensor not in the arena)";
    if (d.action == ReplayAction::Prefetch) return "nothing (device memory: dropped contents need no copy)";
    return "nothing (device memory)";
}

}  // namespace spillway::replay
