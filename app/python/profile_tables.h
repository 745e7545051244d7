#pragma once
// A profile as the Python module shows it: its kernels and tensors (one row each, in profile
// order), the summary `spillway-cli info --json` prints (flat), and time per phase and bytes
// per kind.
#include "app/python/tables.h"

#include "core/trace/profile.h"

namespace spillway::python {

Table kernelTable(const Profile& profile);
Table tensorTable(const Profile& profile);
// One summarizeProfile (it walks the liveness once): the flat summary, time per phase and
// tensors and bytes per kind.
struct ProfileOverview {
    Record summary;
    Table phases;
    Table kinds;
};
ProfileOverview profileOverview(const Profile& profile);
Record profileNotes(const Profile& profile);

}  // namespace spillway::python
