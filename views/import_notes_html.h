#pragma once
// What an importer wrote into the profile's notes, as the Overview shows it: the iterations it
// found and which one it imported (ImportOptions::iteration), the rules that decided the tensor
// kinds with the share of bytes each classified (core/trace/kind_evidence.h), its warnings
// ("warning.*", and too large an unclassified share) highlighted, and every other note.
#include <QString>

#include <cstdint>
#include <map>
#include <string>

namespace spillway::views {

using ProfileNotes = std::map<std::string, std::string>;

// "3 found; showing iteration 2", "3 found; showing all of them, as one profile"; empty without
// the notes.
QString iterationsHtml(const ProfileNotes& notes);
// What the footprint adds up: "all 1515 tensors of iteration 2 (3 found) added up, each once, as
// if none were freed" (the peak, not this, is what must fit at once).
QString footprintMeaning(const ProfileNotes& notes, std::int64_t tensorCount);
// The warnings, one highlighted paragraph each; empty when there are none.
QString importWarningsHtml(const ProfileNotes& notes);
// How many warnings importWarningsHtml shows.
int importWarningCount(const ProfileNotes& notes);
// The kind rules with their shares, then the other notes; empty without notes.
QString importNotesHtml(const ProfileNotes& notes);

}  // namespace spillway::views
