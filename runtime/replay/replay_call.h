#pragma once
// The CUDA call a directive becomes: one rule, used by the CUDA backend to issue it and by the
// replay model (model_backend.h) to charge it. A measured timeline records each call by name
// ("cudaMemcpyAsync host->device", ...), so the model can also follow what a past replay did.
#include "runtime/replay/replay_program.h"

#include <optional>
#include <string>
#include <string_view>

namespace spillway::replay {

enum class ReplayCall {
    CopyToDevice,        // device arena: cudaMemcpyAsync from the pinned host copy
    CopyToHost,          // device arena: cudaMemcpyAsync to the pinned host copy
    PrefetchToDevice,    // managed: cudaMemPrefetchAsync to the GPU
    PrefetchToHost,      // managed: cudaMemPrefetchAsync to the host
    DiscardAndPrefetch,  // managed, after a drop, before issue 16 (what old timelines recorded)
    Discard,             // managed: cudaMemDiscardBatchAsync
    FencedDiscard,       // managed, --fence-discards: the discard, then a one-page prefetch on its stream
    Advise,              // managed: cudaMemAdvise from the host
    Nothing,             // nothing to act on
};

// What the runtime issues for `directive` in an arena of `kind`: in a device arena a prefetch of
// dropped contents has nothing to copy (the slot is already device memory), so it is Nothing.
ReplayCall replayCallFor(ArenaKind kind, const ReplayDirective& directive);
// The same, with the program's choice of drops (ReplayOptions::discards): a drop it leaves out
// is Nothing.
ReplayCall replayCallFor(const ReplayProgram& program, const ReplayDirective& directive);

// A measured timeline's call name, as the CUDA backend writes it (prefix match: "nothing (...)",
// "cudaMemAdvise set-read-mostly ..."); nullopt for a name it does not know (the host backend's
// "host model: ...").
std::optional<ReplayCall> replayCallNamed(std::string_view call);
// A call that discards its range's pages (alone, fenced or before a prefetch); by name, a recorded one.
bool discardsPages(ReplayCall call);
bool discardsPages(std::string_view call);

// The name the CUDA backend writes for a call (the model's timeline uses the same).
std::string callName(ReplayCall call, const ReplayDirective& directive);

}  // namespace spillway::replay
