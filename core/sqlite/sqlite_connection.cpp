#include "core/sqlite/sqlite_connection.h"

#include <sqlite3.h>

namespace spillway::sqlite {

namespace {

DatabaseError::Reason reasonFor(int rc) {
    switch (rc & 0xff) {
        case SQLITE_CORRUPT: return DatabaseError::Reason::Corrupt;
        case SQLITE_NOTADB: return DatabaseError::Reason::NotSqlite;
        default: return DatabaseError::Reason::Sqlite;
    }
}

}  // namespace

SqliteConnection::SqliteConnection(const std::string& file, Mode mode) : SqliteConnection(file, file, mode) {}

SqliteConnection::SqliteConnection(const std::string& file, const std::string& uri, Mode mode) : file_(file) {
    int flags = SQLITE_OPEN_NOMUTEX;  // one connection per thread; see docs/store.md
    // Only the URI constructor's caller means a URI; a plain path named "file:x" stays a path.
    if (uri != file) flags |= SQLITE_OPEN_URI;
    switch (mode) {
        case Mode::ReadOnly: flags |= SQLITE_OPEN_READONLY; break;
        case Mode::ReadWrite: flags |= SQLITE_OPEN_READWRITE; break;
        case Mode::Create: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE; break;
    }
    const int rc = sqlite3_open_v2(uri.c_str(), &db_, flags, nullptr);
    if (rc != SQLITE_OK) {
        const std::string message = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
        sqlite3_close(db_);
        db_ = nullptr;
        throw DatabaseError(reasonFor(rc), file_, "cannot open: " + message);
    }
    sqlite3_extended_result_codes(db_, 1);
    // Another process (a second app window) may hold the write lock for a moment.
    sqlite3_busy_timeout(db_, 5000);
}

SqliteConnection::~SqliteConnection() { sqlite3_close_v2(db_); }

void SqliteConnection::fail(int rc, const std::string& operation) const {
    throw DatabaseError(reasonFor(rc), file_, operation + " failed: " + sqlite3_errmsg(db_));
}

void SqliteConnection::check(int rc, const std::string& operation) const {
    if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) fail(rc, operation);
}

void SqliteConnection::exec(std::string_view sql, const std::string& operation) {
    check(sqlite3_exec(db_, std::string(sql).c_str(), nullptr, nullptr, nullptr), operation);
}

std::int64_t SqliteConnection::queryInt(std::string_view sql, const std::string& operation) {
    SqliteStatement s(*this, sql, operation);
    if (!s.step()) throw DatabaseError(DatabaseError::Reason::Sqlite, file_, operation + " returned no row");
    return s.columnInt(0);
}

std::vector<std::string> SqliteConnection::queryStrings(std::string_view sql, const std::string& operation) {
    SqliteStatement s(*this, sql, operation);
    std::vector<std::string> out;
    while (s.step()) out.push_back(s.columnText(0));
    return out;
}

std::int64_t SqliteConnection::lastInsertId() const { return sqlite3_last_insert_rowid(db_); }
std::int64_t SqliteConnection::changes() const { return sqlite3_changes64(db_); }

// ---- statement -------------------------------------------------------------------------------

SqliteStatement::SqliteStatement(SqliteConnection& db, std::string_view sql, std::string operation)
    : db_(db), operation_(std::move(operation)) {
    db_.check(sqlite3_prepare_v2(db_.handle(), sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr),
              operation_);
}

SqliteStatement::~SqliteStatement() { sqlite3_finalize(stmt_); }

SqliteStatement& SqliteStatement::bind(int index, std::int64_t value) {
    db_.check(sqlite3_bind_int64(stmt_, index, value), operation_);
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, std::string_view text) {
    db_.check(sqlite3_bind_text64(stmt_, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8),
              operation_);
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, const std::vector<std::uint8_t>& blob) {
    db_.check(sqlite3_bind_blob64(stmt_, index, blob.data(), blob.size(), SQLITE_TRANSIENT), operation_);
    return *this;
}

SqliteStatement& SqliteStatement::bindNull(int index) {
    db_.check(sqlite3_bind_null(stmt_, index), operation_);
    return *this;
}

SqliteStatement& SqliteStatement::bindReal(int index, double value) {
    db_.check(sqlite3_bind_double(stmt_, index, value), operation_);
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, std::optional<std::int64_t> value) {
    return value ? bind(index, *value) : bindNull(index);
}

bool SqliteStatement::step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    db_.fail(rc, operation_);
}

void SqliteStatement::run() {
    while (step()) {
    }
}

void SqliteStatement::reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
}

std::int64_t SqliteStatement::columnInt(int column) const { return sqlite3_column_int64(stmt_, column); }

int SqliteStatement::columnType(int column) const { return sqlite3_column_type(stmt_, column); }

std::optional<std::int64_t> SqliteStatement::columnOptionalInt(int column) const {
    if (sqlite3_column_type(stmt_, column) == SQLITE_NULL) return std::nullopt;
    return sqlite3_column_int64(stmt_, column);
}

std::string SqliteStatement::columnText(int column) const {
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
    return text ? std::string(text, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column))) : std::string();
}

std::vector<std::uint8_t> SqliteStatement::columnBlob(int column) const {
    const auto* data = static_cast<const std::uint8_t*>(sqlite3_column_blob(stmt_, column));
    const auto size = static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column));
    return data ? std::vector<std::uint8_t>(data, data + size) : std::vector<std::uint8_t>();
}

// ---- transaction -----------------------------------------------------------------------------

SqliteTransaction::SqliteTransaction(SqliteConnection& db, std::string operation)
    : db_(db), operation_(std::move(operation)) {
    db_.exec("BEGIN IMMEDIATE", operation_ + " (begin)");
}

SqliteTransaction::~SqliteTransaction() {
    if (!done_) sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void SqliteTransaction::commit() {
    db_.exec("COMMIT", operation_ + " (commit)");
    done_ = true;
}

}  // namespace spillway::sqlite
