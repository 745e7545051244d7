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
