#include "core/io/gpu_activity/nsys_sqlite_import.h"

#include "core/io/gpu_activity/gpu_activity_profile.h"
#include "core/io/base/import_error.h"
#include "core/io/gpu_activity/nsys_sqlite_enums.h"
#include "core/sqlite/sqlite_connection.h"
#include "core/sqlite/application_ids.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include <cstring>
#include <set>
#include <unordered_map>

namespace spillway {

using namespace gpu_activity;
using nsys::EnumTable;
using sqlite::SqliteConnection;
using sqlite::SqliteStatement;
using sqlite::DatabaseError;

namespace {

constexpr char kSqliteMagic[] = "SQLite format 3";  // 16 bytes with its NUL
constexpr std::size_t kApplicationIdOffset = 68;    // big-endian, in the 100-byte header

std::uint32_t applicationId(std::string_view head) {
    std::uint32_t id = 0;
    for (std::size_t i = 0; i < 4; ++i)
        id = (id << 8) | static_cast<unsigned char>(head[kApplicationIdOffset + i]);
    return id;
}

bool isSqlite(std::string_view head) {
    return head.size() >= 100 && std::memcmp(head.data(), kSqliteMagic, sizeof(kSqliteMagic)) == 0;
}

// The tables this importer reads. Without the first two there is nothing to import; the others
// add what they hold, and their absence is listed in the notes.
constexpr std::string_view kKernelTable = "CUPTI_ACTIVITY_KIND_KERNEL";
constexpr std::string_view kStringTable = "StringIds";
struct OptionalTable {
    std::string_view name;
    std::string_view without;  // what the profile lacks when it is missing
};
constexpr OptionalTable kOptionalTables[] = {
    {"CUDA_GPU_MEMORY_USAGE_EVENTS", "no allocations: no tensors (capture with --cuda-memory-usage=true)"},
    {"ENUM_CUDA_DEV_MEM_EVENT_OPER", "allocations cannot be told from frees: memory events not read"},
    {"ENUM_CUDA_MEM_KIND", "memory kinds unknown: every memory event taken as device memory"},
    {"CUPTI_ACTIVITY_KIND_MEMCPY", "no memcpy records and no unified-memory migrations"},
    {"ENUM_CUDA_MEMCPY_OPER", "copy kinds unknown: memcpys counted as \"other\", migrations not recognised"},
    {"CUPTI_ACTIVITY_KIND_MEMSET", "no memset records"},
    {"CUDA_UM_GPU_PAGE_FAULT_EVENTS", "no GPU page faults: tensor uses from allocation times only "
                                      "(capture with --cuda-um-gpu-page-faults=true)"},
    {"CUDA_UM_CPU_PAGE_FAULT_EVENTS", "no CPU page faults (--cuda-um-cpu-page-faults=true)"},
    {"ENUM_CUDA_UNIF_MEM_MIGRATION", "migration causes unnamed"},
    {"ENUM_CUDA_UNIF_MEM_ACCESS_TYPE", "fault access types unnamed"},
    {"CUPTI_ACTIVITY_KIND_RUNTIME", "no launch times: phases looked up at kernel start times"},
    {"NVTX_EVENTS", "no NVTX ranges: phases from kernel names only"},
    {"TARGET_INFO_GPU", "no GPU name"},
};

// The open export: its tables and their columns, and errors that name the file.
class Export {
public:
    explicit Export(const std::filesystem::path& path) : file_(path.string()) {
        try {
            db_ = std::make_unique<SqliteConnection>(file_, SqliteConnection::Mode::ReadOnly);
            for (auto& t : db_->queryStrings("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')",
                                             "reading the table list"))
                tables_.insert(std::move(t));
        } catch (const DatabaseError& e) {
            throw ImportError(file_, fmt::format("damaged or not an SQLite database: {}", stripFile(e.what())));
        }
    }

    const std::string& file() const { return file_; }
    bool has(std::string_view table) const { return tables_.contains(std::string(table)); }

    std::set<std::string> columns(std::string_view table) {
        std::set<std::string> out;
        for (auto& c : db_->queryStrings(fmt::format("SELECT name FROM pragma_table_info('{}')", table),
                                         fmt::format("reading the columns of {}", table)))
            out.insert(std::move(c));
        return out;
    }

    // "SELECT rowid, a, b, NULL ..." over `wanted`: a required column that is missing is an
    // error naming the table; an optional one reads as NULL.
    std::string select(std::string_view table, const std::vector<std::pair<std::string_view, bool>>& wanted) {
        const auto present = columns(table);
        std::string sql = "SELECT rowid";
        for (const auto& [column, required] : wanted) {
            if (present.contains(std::string(column))) {
                sql += fmt::format(", \"{}\"", column);
            } else if (required) {
                throw ImportError(file_, fmt::format("table {} has no column \"{}\" (expected the Nsight Systems "
                                                     "SQLite export schema, docs/capture.md)",
                                                     table, column));
            } else {
                sql += ", NULL";
            }
        }
        return sql + fmt::format(" FROM \"{}\"", table);
    }

    // Runs `sql` and calls `row` for each row; SQLite failures name the table.
    template <typename Row>
    void each(std::string_view table, const std::string& sql, Row&& row) {
        try {
            SqliteStatement s(*db_, sql, fmt::format("reading table {}", table));
            while (s.step()) row(s);
        } catch (const DatabaseError& e) {
            throw ImportError(file_, fmt::format("damaged export: {}", stripFile(e.what())));
        }
    }

    EnumTable enumTable(std::string_view table) {
        EnumTable out;
        if (!has(table)) return out;
        out.table = std::string(table);
        const auto sql = select(table, {{"id", true}, {"name", false}, {"label", false}});
        each(table, sql, [&](SqliteStatement& s) {
            out.entries[s.columnInt(1)] = {s.columnText(2), s.columnText(3)};
        });
        return out;
    }

private:
    std::string stripFile(const std::string& what) const {
        return what.starts_with(file_ + ": ") ? what.substr(file_.size() + 2) : what;
    }

    std::string file_;
    std::unique_ptr<SqliteConnection> db_;
    std::set<std::string> tables_;
};

// One row's values, checked: errors name the file, the table, the row and the column.
class Row {
public:
    Row(const Export& ex, std::string_view table, const SqliteStatement& s,
        const std::vector<std::pair<std::string_view, bool>>& columns)
        : ex_(ex), table_(table), s_(s), columns_(columns), rowid_(s.columnInt(0)) {}

    std::int64_t integer(int i) const {
        const auto v = optionalInteger(i);
        if (!v) fail(i, "expected an integer, found NULL");
        return *v;
    }
    std::optional<std::int64_t> optionalInteger(int i) const {
        const int type = s_.columnType(i + 1);
        if (type == SQLITE_NULL) return std::nullopt;
        if (type != SQLITE_INTEGER)
            fail(i, fmt::format("expected an integer, found {}", type == SQLITE_TEXT    ? "text"
                                                                 : type == SQLITE_FLOAT ? "a real number"
                                                                                        : "a blob"));
        return s_.columnInt(i + 1);
    }
    std::string text(int i) const { return s_.columnText(i + 1); }
    std::int64_t rowid() const { return rowid_; }
    std::string where() const { return fmt::format("{} row {}", table_, rowid_); }

    [[noreturn]] void fail(int i, const std::string& message) const {
        throw ImportError(ex_.file(),
                          fmt::format("table {}, row {}, column \"{}\": {}", table_, rowid_, columns_[i].first, message));
    }

private:
    const Export& ex_;
    std::string_view table_;
    const SqliteStatement& s_;
    const std::vector<std::pair<std::string_view, bool>>& columns_;
    std::int64_t rowid_;
};

using Columns = std::vector<std::pair<std::string_view, bool>>;

std::unordered_map<std::int64_t, std::string> readStrings(Export& ex) {
    std::unordered_map<std::int64_t, std::string> out;
    const Columns cols{{"id", true}, {"value", true}};
    ex.each(kStringTable, ex.select(kStringTable, cols), [&](SqliteStatement& s) {
        const Row r(ex, kStringTable, s, cols);
        out[r.integer(0)] = r.text(1);
    });
    return out;
}

void readKernels(Export& ex, const std::unordered_map<std::int64_t, std::string>& strings, Capture& capture) {
    const auto present = ex.columns(kKernelTable);
    // The full name with templates when the export has it, else the base name.
    const std::string_view nameColumn = present.contains("demangledName") ? "demangledName" : "shortName";
    const Columns cols{{"start", true}, {"end", true}, {nameColumn, true}, {"deviceId", false},
                       {"streamId", false}, {"correlationId", false}};
    ex.each(kKernelTable, ex.select(kKernelTable, cols), [&](SqliteStatement& s) {
        const Row r(ex, kKernelTable, s, cols);
        KernelRecord k;
        k.start = r.integer(0);
        k.end = r.integer(1);
        if (k.end < k.start) r.fail(1, fmt::format("the kernel ends ({}) before it starts ({})", k.end, k.start));
        const auto nameId = r.integer(2);
        const auto it = strings.find(nameId);
        if (it == strings.end()) r.fail(2, fmt::format("string id {} is not in StringIds", nameId));
        k.name = it->second;
        k.deviceId = r.optionalInteger(3).value_or(0);
        k.streamId = r.optionalInteger(4).value_or(0);
        k.correlationId = r.optionalInteger(5).value_or(0);
        k.where = r.where();
        capture.kernels.push_back(std::move(k));
    });
}

// Host launch times from the runtime API rows with the kernels' correlation ids.
void readLaunchTimes(Export& ex, Capture& capture) {
    constexpr std::string_view table = "CUPTI_ACTIVITY_KIND_RUNTIME";
    std::unordered_map<std::int64_t, Nanoseconds> launch;
    const Columns cols{{"start", true}, {"correlationId", true}};
    ex.each(table, ex.select(table, cols), [&](SqliteStatement& s) {
        const Row r(ex, table, s, cols);
        if (const auto id = r.optionalInteger(1)) launch.emplace(*id, r.integer(0));
    });
    for (auto& k : capture.kernels)
        if (const auto it = launch.find(k.correlationId); it != launch.end()) k.launchTime = it->second;
}

void readMemory(Export& ex, Capture& capture) {
    constexpr std::string_view table = "CUDA_GPU_MEMORY_USAGE_EVENTS";
    const EnumTable operations = ex.enumTable("ENUM_CUDA_DEV_MEM_EVENT_OPER");
    if (!operations.present()) return;
    const EnumTable kinds = ex.enumTable("ENUM_CUDA_MEM_KIND");
    // Classified once per id, not per row (exports hold millions of memory events).
    std::unordered_map<std::int64_t, std::optional<bool>> isAllocation;
    for (const auto& [id, entry] : operations.entries) isAllocation[id] = nsys::classifyMemoryOperation(entry);
    std::unordered_map<std::int64_t, MemoryKind> kindOf;
    for (const auto& [id, entry] : kinds.entries) kindOf[id] = nsys::classifyMemoryKind(entry);
    const Columns cols{{"start", true}, {"address", true}, {"bytes", true}, {"memoryOperationType", true},
                       {"memKind", false}, {"deviceId", false}};
    std::int64_t unknownOperations = 0;
    ex.each(table, ex.select(table, cols), [&](SqliteStatement& s) {
        const Row r(ex, table, s, cols);
        const auto op = isAllocation.find(r.integer(3));
        const auto allocation = op != isAllocation.end() ? op->second : std::nullopt;
        if (!allocation) {
            ++unknownOperations;
            return;
        }
        MemoryRecord m;
        m.allocation = *allocation;
        m.time = r.integer(0);
        m.address = static_cast<std::uint64_t>(r.integer(1));
        m.bytes = r.integer(2);
        if (m.bytes < 0) r.fail(2, fmt::format("expected a size in bytes, found {}", m.bytes));
        if (const auto kind = r.optionalInteger(4); kind && kinds.present()) {
            const auto it = kindOf.find(*kind);
            m.kind = it != kindOf.end() ? it->second : MemoryKind::Unknown;
        }
        m.deviceId = r.optionalInteger(5).value_or(0);
        m.where = r.where();
        capture.memory.push_back(std::move(m));
    });
    if (unknownOperations)
        capture.notes["nsys.memory_operations"] = fmt::format(
            "{} memory events whose memoryOperationType is neither an allocation nor a free in "
            "ENUM_CUDA_DEV_MEM_EVENT_OPER were skipped",
            unknownOperations);
}

// Memcpys, and the unified-memory migrations nsys stores among them (unified copy kinds).
void readCopies(Export& ex, Capture& capture) {
    constexpr std::string_view table = "CUPTI_ACTIVITY_KIND_MEMCPY";
    const EnumTable copyKinds = ex.enumTable("ENUM_CUDA_MEMCPY_OPER");
    const EnumTable causes = ex.enumTable("ENUM_CUDA_UNIF_MEM_MIGRATION");
    std::unordered_map<std::int64_t, nsys::CopyKind> kindOf;
    for (const auto& [id, entry] : copyKinds.entries) kindOf[id] = nsys::classifyCopyKind(entry);
    const Columns cols{{"start", true},         {"end", true},         {"bytes", true},
                       {"copyKind", true},      {"deviceId", false},   {"srcDeviceId", false},
                       {"dstDeviceId", false},  {"virtualAddress", false}, {"migrationCause", false}};
    ex.each(table, ex.select(table, cols), [&](SqliteStatement& s) {
        const Row r(ex, table, s, cols);
        const auto start = r.integer(0), end = r.integer(1), bytes = r.integer(2);
        if (end < start) r.fail(1, fmt::format("the copy ends ({}) before it starts ({})", end, start));
        if (bytes < 0) r.fail(2, fmt::format("expected a size in bytes, found {}", bytes));
        nsys::CopyKind kind;
        if (const auto it = kindOf.find(r.integer(3)); it != kindOf.end()) kind = it->second;
        const auto device = r.optionalInteger(4).value_or(0);
        if (!kind.unified) {
            capture.copies.push_back({false, kind.direction, bytes, start, end, device});
            return;
        }
        UnifiedMemoryRecord u;
        u.start = start;
        u.end = end;
        u.value = static_cast<std::uint64_t>(bytes);
        u.address = static_cast<std::uint64_t>(r.optionalInteger(7).value_or(0));
        switch (kind.direction) {
        case CopyDirection::HostToDevice:
            u.event = UnifiedMemoryEvent::MigrationToDevice;
            u.deviceId = r.optionalInteger(6).value_or(device);
            break;
        case CopyDirection::DeviceToHost:
            u.event = UnifiedMemoryEvent::MigrationToHost;
            u.deviceId = r.optionalInteger(5).value_or(device);
            break;
        case CopyDirection::DeviceToDevice:
        case CopyDirection::PeerToPeer:
            u.event = UnifiedMemoryEvent::MigrationDeviceToDevice;
            u.deviceId = r.optionalInteger(6).value_or(device);
            break;
        default: u.event = UnifiedMemoryEvent::Other; break;
        }
        if (const auto cause = r.optionalInteger(8)) u.cause = causes.present() ? causes.describe(*cause) : "";
        capture.unifiedMemory.push_back(std::move(u));
    });
}

void readMemsets(Export& ex, Capture& capture) {
    constexpr std::string_view table = "CUPTI_ACTIVITY_KIND_MEMSET";
    const Columns cols{{"start", true}, {"end", true}, {"bytes", true}, {"deviceId", false}};
    ex.each(table, ex.select(table, cols), [&](SqliteStatement& s) {
        const Row r(ex, table, s, cols);
        const auto bytes = r.integer(2);
        if (bytes < 0) r.fail(2, fmt::format("expected a size in bytes, found {}", bytes));
        capture.copies.push_back({true, CopyDirection::Other, bytes, r.integer(0), r.integer(1),
                                  r.optionalInteger(3).value_or(0)});
    });
}

void readFaults(Export& ex, Capture& capture) {
    if (ex.has("CUDA_UM_GPU_PAGE_FAULT_EVENTS")) {
        constexpr std::string_view table = "CUDA_UM_GPU_PAGE_FAULT_EVENTS";
        const EnumTable access = ex.enumTable("ENUM_CUDA_UNIF_MEM_ACCESS_TYPE");
        const Columns cols{{"start", true}, {"end", false}, {"address", true}, {"deviceId", false},
                           {"numberOfPageFaults", false}, {"faultAccessType", false}};
        ex.each(table, ex.select(table, cols), [&](SqliteStatement& s) {
            const Row r(ex, table, s, cols);
            UnifiedMemoryRecord u;
            u.event = UnifiedMemoryEvent::GpuPageFault;
            u.start = r.integer(0);
            u.end = r.optionalInteger(1).value_or(u.start);
            u.address = static_cast<std::uint64_t>(r.integer(2));
            u.deviceId = r.optionalInteger(3).value_or(-1);
            u.value = static_cast<std::uint64_t>(std::max<std::int64_t>(1, r.optionalInteger(4).value_or(1)));
            if (const auto type = r.optionalInteger(5); type && access.present()) u.cause = access.describe(*type);
            capture.unifiedMemory.push_back(std::move(u));
        });
    }
    if (ex.has("CUDA_UM_CPU_PAGE_FAULT_EVENTS")) {
        constexpr std::string_view table = "CUDA_UM_CPU_PAGE_FAULT_EVENTS";
        const Columns cols{{"start", true}, {"address", true}};
        ex.each(table, ex.select(table, cols), [&](SqliteStatement& s) {
            const Row r(ex, table, s, cols);
            UnifiedMemoryRecord u;
            u.event = UnifiedMemoryEvent::CpuPageFault;
            u.start = u.end = r.integer(0);
            u.address = static_cast<std::uint64_t>(r.integer(1));
            u.value = 1;
            capture.unifiedMemory.push_back(std::move(u));
        });
    }
}

void readRanges(Export& ex, const std::unordered_map<std::int64_t, std::string>& strings, Capture& capture) {
    constexpr std::string_view table = "NVTX_EVENTS";
    const Columns cols{{"start", true}, {"end", false}, {"text", false}, {"textId", false}};
    ex.each(table, ex.select(table, cols), [&](SqliteStatement& s) {
        const Row r(ex, table, s, cols);
        const auto end = r.optionalInteger(1);
        if (!end) return;  // a mark, not a range
        std::string name = r.text(2);
        if (name.empty())
            if (const auto id = r.optionalInteger(3))
                if (const auto it = strings.find(*id); it != strings.end()) name = it->second;
        // Every named range: spillway.* marks, emit_nvtx's operators, torch.optim's steps, the
        // user's (kernel_phases.h decides which say a phase).
        if (!name.empty()) capture.ranges.push_back({name, r.integer(0), *end});
    });
}

void readGpuNames(Export& ex, Capture& capture) {
    constexpr std::string_view table = "TARGET_INFO_GPU";
    const Columns cols{{"id", true}, {"name", false}};
    ex.each(table, ex.select(table, cols), [&](SqliteStatement& s) {
        const Row r(ex, table, s, cols);
        if (const auto name = r.text(1); !name.empty()) capture.deviceNames.emplace(r.integer(0), name);
    });
}

}  // namespace

bool looksLikeForeignSqlite(std::string_view head) {
    return isSqlite(head) && applicationId(head) != static_cast<std::uint32_t>(sqlite::kWorkspaceApplicationId);
}

bool looksLikeWorkspace(std::string_view head) {
    return isSqlite(head) && applicationId(head) == static_cast<std::uint32_t>(sqlite::kWorkspaceApplicationId);
}

Profile importNsysSqlite(const std::filesystem::path& path, const ImportOptions& options) {
    Export ex(path);
    const bool anyNsysTable = ex.has(kStringTable) || ex.has(kKernelTable) || ex.has("CUDA_GPU_MEMORY_USAGE_EVENTS");
    if (!anyNsysTable)
        throw ImportError(ex.file(), "an SQLite database without Nsight Systems tables (no StringIds, no "
                                     "CUPTI_ACTIVITY_KIND_KERNEL): expected `nsys export --type sqlite` output");
    for (const auto required : {kKernelTable, kStringTable})
        if (!ex.has(required))
            throw ImportError(ex.file(),
                              fmt::format("table {} is missing: {}", required,
                                          required == kKernelTable
                                              ? "the report has no CUDA kernels (was it captured with --trace=cuda?)"
                                              : "kernel names cannot be read"));

    Capture capture;
    capture.source = std::string(kNsysSqliteSource);
    capture.sourcePath = ex.file();
    const auto strings = readStrings(ex);
    readKernels(ex, strings, capture);
    std::string missing;
    for (const auto& t : kOptionalTables)
        if (!ex.has(t.name)) missing += fmt::format("{}{} ({})", missing.empty() ? "" : "; ", t.name, t.without);
    if (!missing.empty()) capture.notes["nsys.missing_tables"] = missing;

    if (ex.has("CUPTI_ACTIVITY_KIND_RUNTIME")) readLaunchTimes(ex, capture);
    if (ex.has("CUDA_GPU_MEMORY_USAGE_EVENTS")) readMemory(ex, capture);
    if (ex.has("CUPTI_ACTIVITY_KIND_MEMCPY")) readCopies(ex, capture);
    if (ex.has("CUPTI_ACTIVITY_KIND_MEMSET")) readMemsets(ex, capture);
    readFaults(ex, capture);
    if (ex.has("NVTX_EVENTS")) readRanges(ex, strings, capture);
    if (ex.has("TARGET_INFO_GPU")) readGpuNames(ex, capture);
    capture.notes["nsys.schema"] = "read as the SQLite schema reference of the Nsight Systems user guide (2025 releases; "
                                   "docs/capture.md); enum values from the file's ENUM_* tables";
    return buildProfile(capture, options);
}

}  // namespace spillway
