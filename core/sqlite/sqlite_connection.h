#pragma once
// Small RAII wrappers over the SQLite C API: a connection, a prepared statement with bound
// parameters (values never go into SQL text), and an IMMEDIATE transaction that rolls back
// unless committed. Every failure becomes a DatabaseError naming the file and the operation.
#include "core/sqlite/sqlite_error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace spillway::sqlite {

class SqliteConnection {
public:
    enum class Mode { ReadOnly, ReadWrite, Create };
    SqliteConnection(const std::string& file, Mode mode);
    // Opens an SQLite URI ("file:...?immutable=1"); `file` is what errors name.
    SqliteConnection(const std::string& file, const std::string& uri, Mode mode);
    ~SqliteConnection();
    SqliteConnection(const SqliteConnection&) = delete;
    SqliteConnection& operator=(const SqliteConnection&) = delete;

    // Runs SQL without parameters (schema, pragmas); `operation` says what for in errors.
    void exec(std::string_view sql, const std::string& operation);
    // The first column of the first row of a parameterless query.
    std::int64_t queryInt(std::string_view sql, const std::string& operation);
    std::vector<std::string> queryStrings(std::string_view sql, const std::string& operation);

    // Throws for a failed SQLite call `rc`; the message carries SQLite's explanation.
    [[noreturn]] void fail(int rc, const std::string& operation) const;
    void check(int rc, const std::string& operation) const;

    std::int64_t lastInsertId() const;
    std::int64_t changes() const;
    sqlite3* handle() const { return db_; }
    const std::string& file() const { return file_; }

private:
    sqlite3* db_ = nullptr;
    std::string file_;
};

class SqliteStatement {
public:
    SqliteStatement(SqliteConnection& db, std::string_view sql, std::string operation);
    ~SqliteStatement();
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;

    // Parameters are 1-based, as in SQLite. Text and blobs are copied (SQLITE_TRANSIENT).
    SqliteStatement& bind(int index, std::int64_t value);
    SqliteStatement& bind(int index, std::string_view text);
    SqliteStatement& bind(int index, const std::vector<std::uint8_t>& blob);
    SqliteStatement& bindNull(int index);
    SqliteStatement& bind(int index, std::optional<std::int64_t> value);
    // Not an overload of bind: bind(1, 0) would be ambiguous between int64 and double.
    SqliteStatement& bindReal(int index, double value);

    // true while a row is available; false when done.
    bool step();
    // Runs a statement that returns no rows.
    void run();
    void reset();

    std::int64_t columnInt(int column) const;
    std::optional<std::int64_t> columnOptionalInt(int column) const;
    // SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, SQLITE_BLOB or SQLITE_NULL: for readers of files
    // Spillway did not write (an nsys export), which check a value's type before using it.
    int columnType(int column) const;
    std::string columnText(int column) const;
    std::vector<std::uint8_t> columnBlob(int column) const;

private:
    SqliteConnection& db_;
    sqlite3_stmt* stmt_ = nullptr;
    std::string operation_;
};

class SqliteTransaction {
public:
    // BEGIN IMMEDIATE: takes the write lock at once, so a write never fails half-way on a lock.
    SqliteTransaction(SqliteConnection& db, std::string operation);
    ~SqliteTransaction();
    SqliteTransaction(const SqliteTransaction&) = delete;
    SqliteTransaction& operator=(const SqliteTransaction&) = delete;
    void commit();

private:
    SqliteConnection& db_;
    std::string operation_;
    bool done_ = false;
};

}  // namespace spillway::sqlite
