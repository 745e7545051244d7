#include "core/trace/kind_evidence.h"

#include <fmt/format.h>

#include <cstdlib>

namespace spillway {

void KindEvidence::add(const std::string& rule, const std::string& text, TensorKind kind, Bytes bytes,
                       bool unclassified) {
    auto& r = rules_[rule];
    r.text = text;
    r.kind = kind;
    ++r.tensors;
    r.bytes += bytes;
    total_ += bytes;
    if (unclassified) unclassified_ += bytes;
}

void KindEvidence::writeNotes(std::map<std::string, std::string>& notes) const {
    auto share = [&](Bytes b) { return total_ > 0 ? static_cast<double>(b) / static_cast<double>(total_) : 0.0; };
    for (const auto& [id, r] : rules_)
        notes["kind_rule." + id] = fmt::format("{}: {} tensors, {} bytes ({:.1f}% of tensor bytes); {}",
                                               toString(r.kind), r.tensors, r.bytes, 100.0 * share(r.bytes), r.text);
    notes["kind_rule.unclassified_share"] = fmt::format("{:.4f}", share(unclassified_));
    if (share(unclassified_) > kUnclassifiedWarning)
        notes[std::string(kWarningNotePrefix) + "unclassified_kinds"] =
            fmt::format("{:.0f}% of the tensor bytes were classified by no evidence (their kind is a "
                        "fallback): planners that treat kinds differently may mislead",
                        100.0 * share(unclassified_));
}

double unclassifiedKindShare(const std::map<std::string, std::string>& notes) {
    const auto it = notes.find("kind_rule.unclassified_share");
    if (it == notes.end()) return -1.0;
    return std::strtod(it->second.c_str(), nullptr);
}

std::vector<std::pair<std::string, std::string>> warningNotes(const std::map<std::string, std::string>& notes) {
    std::vector<std::pair<std::string, std::string>> out;
    const std::string prefix = kWarningNotePrefix;
    for (auto it = notes.lower_bound(prefix); it != notes.end() && it->first.starts_with(prefix); ++it)
        out.emplace_back(it->first.substr(prefix.size()), it->second);
    return out;
}

}  // namespace spillway
