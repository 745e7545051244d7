#pragma once
// Everything an SQLite-backed file refuses or fails at: always names the file and what was being
// done. The workspace (core/store) throws it as WorkspaceError; the nsys importer catches it.
#include <stdexcept>
#include <string>

namespace spillway::sqlite {

class DatabaseError : public std::runtime_error {
public:
    enum class Reason {
        NotFound,       // the file, or a row id in it, does not exist
        AlreadyExists,  // creating a file that exists: never overwritten
        NotSqlite,      // not an SQLite database at all (a text file, empty, too short)
        NotSpillway,    // an SQLite database without the application_id its reader expects
        TooNew,         // written by a newer Spillway (user_version above what we know)
        Corrupt,        // SQLite says the file is damaged (truncated, overwritten pages)
        Sqlite,         // any other SQLite failure (disk full, locked, ...)
        BadData,        // a stored document that does not parse
    };
    DatabaseError(Reason reason, const std::string& file, const std::string& message)
        : std::runtime_error(file + ": " + message), reason_(reason), file_(file) {}
    Reason reason() const { return reason_; }
    const std::string& file() const { return file_; }

private:
    Reason reason_;
    std::string file_;
};

}  // namespace spillway::sqlite
