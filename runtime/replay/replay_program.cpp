#include "runtime/replay/replay_program.h"

#include <stdexcept>

namespace spillway::replay {

namespace {
constexpr ReplayAction kActions[] = {ReplayAction::Prefetch, ReplayAction::PreEvict, ReplayAction::Discard,
                                     ReplayAction::DiscardLazy, ReplayAction::Free, ReplayAction::Recompute,
                                     ReplayAction::Advise};
}  // namespace

std::string_view toString(ReplayAction action) {
    // The names the plan format gives its directive kinds (core/plan/plan.cpp).
    switch (action) {
        case ReplayAction::Prefetch: return "prefetch";
        case ReplayAction::PreEvict: return "pre-evict";
        case ReplayAction::Discard: return "discard";
        case ReplayAction::DiscardLazy: return "discard-lazy";
        case ReplayAction::Free: return "free";
        case ReplayAction::Recompute: return "recompute";
        case ReplayAction::Advise: return "advise";
    }
    return "?";
}

ReplayAction replayActionFor(std::string_view directiveKind) {
    std::string known;
    for (const ReplayAction a : kActions) {
        if (toString(a) == directiveKind) return a;
        known += (known.empty() ? "" : ", ") + std::string(toString(a));
    }
    throw std::invalid_argument("directive kind \"" + std::string(directiveKind) +
                                "\" is not one this replay runtime knows (" + known + ")");
}

bool dropsContents(ReplayAction action) {
    return action == ReplayAction::Discard || action == ReplayAction::DiscardLazy || action == ReplayAction::Free ||
           action == ReplayAction::Recompute;
}

SideStream sideStreamOf(ReplayAction action) {
    return action == ReplayAction::Prefetch ? SideStream::In : SideStream::Out;
}

std::string_view toString(ArenaKind kind) {
    return kind == ArenaKind::Managed ? "managed" : "device";
}

}  // namespace spillway::replay
