#pragma once
// Importers that infer what a tensor holds (weights, gradients, ...) from evidence say which
// rule classified how many bytes, so a user can judge the result. The tally is written into the
// profile's notes under one convention, read back by the CLI (`info`) and the app's Overview:
//
//   kind_rule.<rule id>       "<kind>: <n> tensors, <bytes> bytes (<p>% of tensor bytes); <rule text>"
//   kind_rule.unclassified_share   the share of bytes no evidence rule classified, "0.1234"
//   warning.unclassified_kinds     written when that share exceeds kUnclassifiedWarning
//
// Notes whose key starts with "warning." are warnings for the user, from any importer (the
// CUPTI importer's caching-allocator hint is one); the CLI and the app show them highlighted.
#include "core/trace/tensor.h"
#include "core/trace/units.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace spillway {

inline constexpr double kUnclassifiedWarning = 0.25;
inline constexpr const char* kWarningNotePrefix = "warning.";

class KindEvidence {
public:
    // `rule` is a short id ("persistent, matches a gradient"); `text` says the rule in words
    // (the same text for every tensor of the rule). `unclassified`: no evidence decided the kind,
    // it is the importer's fallback.
    void add(const std::string& rule, const std::string& text, TensorKind kind, Bytes bytes,
             bool unclassified = false);

    // Writes the notes above into `notes`; shares are of the bytes added.
    void writeNotes(std::map<std::string, std::string>& notes) const;

    Bytes totalBytes() const { return total_; }
    Bytes unclassifiedBytes() const { return unclassified_; }

private:
    struct Rule {
        std::string text;
        TensorKind kind = TensorKind::Activation;
        std::int64_t tensors = 0;
        Bytes bytes = 0;
    };
    std::map<std::string, Rule> rules_;
    Bytes total_ = 0;
    Bytes unclassified_ = 0;
};

// The share written as kind_rule.unclassified_share; -1 when the notes have none.
double unclassifiedKindShare(const std::map<std::string, std::string>& notes);

// The notes that are warnings ("warning.*"), in key order: {key without the prefix, text}.
std::vector<std::pair<std::string, std::string>> warningNotes(const std::map<std::string, std::string>& notes);

}  // namespace spillway
