#pragma once
// Everything the workspace refuses or fails at: always names the file and what was being done.
#include <stdexcept>
#include <string>

namespace spillway::store {

class WorkspaceError : public std::runtime_error {
public:
    enum class Reason {
        NotFound,       // the file, or a profile/run/plan id in it, does not exist
        AlreadyExists,  // create() on a path that exists: never overwritten
        NotSqlite,      // not an SQLite database at all (a text file, empty, too short)
        NotSpillway,    // an SQLite database without Spillway's application_id
        TooNew,         // written by a newer Spillway (schema version above what we know)
        Corrupt,        // SQLite says the file is damaged (truncated, overwritten pages)
        Sqlite,         // any other SQLite failure (disk full, locked, ...)
        BadData,        // a stored document that does not parse
    };
    WorkspaceError(Reason reason, const std::string& file, const std::string& message)
        : std::runtime_error(file + ": " + message), reason_(reason), file_(file) {}
    Reason reason() const { return reason_; }
    const std::string& file() const { return file_; }

private:
    Reason reason_;
    std::string file_;
};

}  // namespace spillway::store
