#include "core/plan/plan.h"

namespace spillway {

std::string_view toString(DirectiveKind kind) {
    switch (kind) {
        case DirectiveKind::Prefetch: return "prefetch";
        case DirectiveKind::PreEvict: return "pre-evict";
        case DirectiveKind::Discard: return "discard";
        case DirectiveKind::DiscardLazy: return "discard-lazy";
        case DirectiveKind::Free: return "free";
        case DirectiveKind::Recompute: return "recompute";
        case DirectiveKind::Advise: return "advise";
    }
    return "?";
}

std::string_view toString(MemAdvice advice) {
    switch (advice) {
        case MemAdvice::None: return "none";
        case MemAdvice::SetReadMostly: return "set-read-mostly";
        case MemAdvice::UnsetReadMostly: return "unset-read-mostly";
        case MemAdvice::SetPreferredLocation: return "set-preferred-location";
        case MemAdvice::UnsetPreferredLocation: return "unset-preferred-location";
        case MemAdvice::SetAccessedBy: return "set-accessed-by";
        case MemAdvice::UnsetAccessedBy: return "unset-accessed-by";
    }
    return "?";
}

std::string_view toString(MemoryModel model) {
    switch (model) {
        case MemoryModel::UnifiedPaging: return "unified-paging";
        case MemoryModel::ContiguousFirstFit: return "contiguous-first-fit";
    }
    return "?";
}

}  // namespace spillway
