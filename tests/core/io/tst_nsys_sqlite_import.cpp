// importNsysSqlite on small exports built here with the tables and columns of the Nsight
// Systems SQLite schema reference (docs/capture.md names the version). The ENUM_* tables use
// ids that differ from nsys's usual ones, so an importer with hard-coded numbers fails. Expected
// values are worked out in the comments from the rows inserted.
#include "core/io/base/import_error.h"
#include "core/io/native/native_json.h"
#include "core/io/gpu_activity/nsys_sqlite_import.h"
#include "core/io/profile_loader.h"
#include "core/sqlite/sqlite_connection.h"
#include "core/trace/validate.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace spillway;
using sqlite::SqliteConnection;

namespace {

// The documented columns of the tables read (Nsight Systems user guide, SQLite schema reference).
constexpr const char* kSchema = R"sql(
CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE ENUM_CUDA_MEMCPY_OPER (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);
CREATE TABLE ENUM_CUDA_MEM_KIND (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);
CREATE TABLE ENUM_CUDA_DEV_MEM_EVENT_OPER (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);
CREATE TABLE ENUM_CUDA_UNIF_MEM_MIGRATION (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);
CREATE TABLE ENUM_CUDA_UNIF_MEM_ACCESS_TYPE (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);
CREATE TABLE TARGET_INFO_GPU (vmId INTEGER NOT NULL, id INTEGER NOT NULL, name TEXT, totalMemory INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (
    start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL,
    streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER NOT NULL,
    shortName INTEGER NOT NULL, mangledName INTEGER, launchType INTEGER, cacheConfig INTEGER,
    registersPerThread INTEGER NOT NULL, gridX INTEGER NOT NULL, gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL,
    blockX INTEGER NOT NULL, blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL,
    staticSharedMemory INTEGER NOT NULL, dynamicSharedMemory INTEGER NOT NULL,
    localMemoryPerThread INTEGER NOT NULL, localMemoryTotal INTEGER NOT NULL, gridId INTEGER NOT NULL,
    sharedMemoryExecuted INTEGER, graphNodeId INTEGER, sharedMemoryLimitConfig INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (
    start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL, globalTid INTEGER,
    correlationId INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL, callchainId INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (
    start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL,
    streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, bytes INTEGER NOT NULL,
    copyKind INTEGER NOT NULL, deprecatedSrcId INTEGER, srcKind INTEGER, dstKind INTEGER, srcDeviceId INTEGER,
    srcContextId INTEGER, dstDeviceId INTEGER, dstContextId INTEGER, migrationCause INTEGER,
    graphNodeId INTEGER, virtualAddress INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (
    start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL,
    streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, value INTEGER NOT NULL,
    bytes INTEGER NOT NULL, graphNodeId INTEGER, memKind INTEGER);
CREATE TABLE CUDA_UM_GPU_PAGE_FAULT_EVENTS (
    start INTEGER NOT NULL, end INTEGER NOT NULL, globalPid INTEGER NOT NULL, deviceId INTEGER NOT NULL,
    address INTEGER NOT NULL, numberOfPageFaults INTEGER NOT NULL, faultAccessType INTEGER NOT NULL);
CREATE TABLE CUDA_GPU_MEMORY_USAGE_EVENTS (
    start INTEGER NOT NULL, globalPid INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL,
    address INTEGER NOT NULL, pc INTEGER NOT NULL, bytes INTEGER NOT NULL, memKind INTEGER NOT NULL,
    memoryOperationType INTEGER NOT NULL, name TEXT, correlationId INTEGER);
CREATE TABLE NVTX_EVENTS (
    start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER, category INTEGER,
    color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER, domainId INTEGER);
)sql";

// Ids unlike nsys's usual ones (HtoD is 1, Device 2, Allocation 0 there): hard-coded numbers fail.
constexpr const char* kEnums = R"sql(
INSERT INTO ENUM_CUDA_MEMCPY_OPER VALUES
  (1, 'CUDA_MEMCPY_KIND_DTOD', 'Device-to-Device'),
  (41, 'CUDA_MEMCPY_KIND_HTOD', 'Host-to-Device'),
  (42, 'CUDA_MEMCPY_KIND_DTOH', 'Device-to-Host'),
  (51, 'CUDA_MEMCPY_KIND_UVM_HTOD', 'Unified Host-to-Device'),
  (52, 'CUDA_MEMCPY_KIND_UVM_DTOH', 'Unified Device-to-Host');
INSERT INTO ENUM_CUDA_MEM_KIND VALUES
  (2, 'CUDA_MEMOPR_MEMORY_KIND_PAGEABLE', 'Pageable'),
  (70, 'CUDA_MEMOPR_MEMORY_KIND_PINNED', 'Pinned'),
  (73, 'CUDA_MEMOPR_MEMORY_KIND_DEVICE', 'Device'),
  (74, 'CUDA_MEMOPR_MEMORY_KIND_MANAGED', 'Managed');
INSERT INTO ENUM_CUDA_DEV_MEM_EVENT_OPER VALUES
  (0, 'CUDA_DEV_MEM_EVENT_OPR_DEALLOCATION', 'Deallocation'),
  (1, 'CUDA_DEV_MEM_EVENT_OPR_ALLOCATION', 'Allocation');
INSERT INTO ENUM_CUDA_UNIF_MEM_MIGRATION VALUES
  (7, 'CUDA_UNIF_MEM_MIGRATION_COHERENCE', 'Coherence'),
  (9, 'CUDA_UNIF_MEM_MIGRATION_EVICTION', 'Eviction');
INSERT INTO ENUM_CUDA_UNIF_MEM_ACCESS_TYPE VALUES
  (5, 'CUDA_UNIF_MEM_ACCESS_TYPE_WRITE', 'Write');
)sql";

constexpr std::int64_t kWeight = 0x10000000;
constexpr std::int64_t kActivation = 0x20000000;

// Two kernels, launched in spillway.forward and spillway.backward; a managed weight allocated
// before them, a device activation live across both, a pinned host block; an HtoD memcpy, a
// memset, a unified-memory migration into the weight and a write fault in it during the second
// kernel.
constexpr const char* kRows = R"sql(
INSERT INTO StringIds VALUES (10, 'void gemm<float>(float*, int)'), (11, 'gemm'),
  (12, 'relu_kernel(float*)'), (13, 'relu_kernel'), (14, 'cudaLaunchKernel'), (20, 'spillway.backward');
INSERT INTO TARGET_INFO_GPU (vmId, id, name, totalMemory) VALUES (0, 0, 'NVIDIA Test GPU', 85899345920);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId, correlationId, globalPid,
  demangledName, shortName, registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ,
  staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId) VALUES
  (2000, 2300, 0, 1, 7, 2, 1, 12, 13, 16, 1, 1, 1, 128, 1, 1, 0, 0, 0, 0, 2),
  (1000, 1500, 0, 1, 7, 1, 1, 10, 11, 32, 8, 1, 1, 256, 1, 1, 0, 0, 0, 0, 1);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, correlationId, nameId, returnValue) VALUES
  (950, 960, 0, 1, 1, 14, 0), (1900, 1910, 0, 1, 2, 14, 0);
INSERT INTO NVTX_EVENTS (start, end, eventType, text, textId) VALUES
  (900, 990, 59, 'spillway.forward', NULL), (1800, 1950, 59, NULL, 20), (1990, NULL, 34, 'a mark', NULL);
INSERT INTO CUDA_GPU_MEMORY_USAGE_EVENTS (start, globalPid, deviceId, contextId, address, pc, bytes, memKind,
  memoryOperationType) VALUES
  (100, 1, 0, 1, 268435456, 0, 1048576, 74, 1),
  (150, 1, 0, 1, 4096, 0, 65536, 70, 1),
  (900, 1, 0, 1, 536870912, 0, 4096, 73, 1),
  (2500, 1, 0, 1, 536870912, 0, 4096, 73, 0);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId, streamId, bytes, copyKind, srcDeviceId,
  dstDeviceId, migrationCause, virtualAddress) VALUES
  (600, 700, 0, 1, 7, 4096, 41, NULL, 0, NULL, NULL),
  (1100, 1150, 0, 1, 7, 65536, 51, NULL, 0, 7, 268439552);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET (start, end, deviceId, contextId, streamId, value, bytes) VALUES
  (800, 810, 0, 1, 7, 0, 256);
INSERT INTO CUDA_UM_GPU_PAGE_FAULT_EVENTS VALUES (2100, 2150, 1, 0, 268443648, 3, 5);
)sql";

std::string makeExport(const QTemporaryDir& dir, const std::string& name, const std::string& sql) {
    const std::string path = dir.filePath(QString::fromStdString(name)).toStdString();
    SqliteConnection db(path, SqliteConnection::Mode::Create);
    // One transaction without fsync: a dozen small files in well under a second.
    db.exec("PRAGMA synchronous = OFF", "building the test export");
    db.exec("BEGIN; " + sql + "; COMMIT;", "building the test export");
    return path;
}

std::string errorOf(const std::string& path) {
    try {
        (void)loadProfile(path);
    } catch (const ImportError& e) {
        return e.what();
    }
    return "no error";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

class TestNsysSqliteImport : public QObject {
    Q_OBJECT
private slots:
    void importsKernelsInStartOrderWithPhasesFromLaunchTimes() {
        QTemporaryDir dir;
        const auto path = makeExport(dir, "report1.sqlite", std::string(kSchema) + kEnums + kRows);
        QCOMPARE(detectProfileFormat(path), std::string("nsys-sqlite"));
        const Profile p = loadProfile(path);
        QCOMPARE(p.metadata.source, std::string("nsys-sqlite"));
        QCOMPARE(p.metadata.model, std::string("report1.sqlite"));
        QCOMPARE(p.metadata.device, std::string("NVIDIA Test GPU"));
        QCOMPARE(p.kernels.size(), size_t(2));
        QCOMPARE(p.kernels[0].name, std::string("void gemm<float>(float*, int)"));  // demangledName
        QCOMPARE(p.kernels[0].op, std::string("gemm"));
        QCOMPARE(p.kernels[1].name, std::string("relu_kernel(float*)"));
        QCOMPARE(p.kernels[0].duration, Nanoseconds(500));
        QCOMPARE(p.kernels[1].duration, Nanoseconds(300));
        // Time zero: the weight's allocation at 100.
        QCOMPARE(p.kernels[0].capturedStart, std::optional<Nanoseconds>(900));
        QCOMPARE(p.kernels[1].capturedStart, std::optional<Nanoseconds>(1900));
        // Launched at 950 (in spillway.forward, 900-990) and 1900 (in spillway.backward via its
        // StringIds text, 1800-1950); the kernels start after both ranges end, so only the launch
        // times put them in a phase.
        QVERIFY(p.kernels[0].phase == KernelPhase::Forward);
        QVERIFY(p.kernels[1].phase == KernelPhase::Backward);
    }

    void allocationsAreTensorsAndFaultsAreUses() {
        QTemporaryDir dir;
        const Profile p = loadProfile(makeExport(dir, "r.sqlite", std::string(kSchema) + kEnums + kRows));
        // The managed weight and the device activation; the pinned block (kind 70) is not a tensor.
        QCOMPARE(p.tensors.size(), size_t(2));
        const Tensor& w = p.tensors[0];
        const Tensor& a = p.tensors[1];
        QCOMPARE(w.address, std::optional<std::uint64_t>(kWeight));
        QCOMPARE(w.bytes, Bytes(1 << 20));
        QVERIFY(w.persistent);
        QVERIFY(w.kind == TensorKind::Weight);
        QCOMPARE(w.allocTime, std::optional<Nanoseconds>(0));
        QCOMPARE(a.address, std::optional<std::uint64_t>(kActivation));
        QCOMPARE(a.bytes, Bytes(4096));
        QVERIFY(a.kind == TensorKind::Activation);
        QCOMPARE(a.allocTime, std::optional<Nanoseconds>(800));
        QCOMPARE(a.freeTime, std::optional<Nanoseconds>(2400));
        // gemm (first to start after 900) writes the activation; relu (last to start before the
        // free at 2500) reads it, and reads the weight, where it faulted (write access at 2100).
        QCOMPARE(p.kernels[0].outputs, (std::vector<TensorId>{a.id}));
        QVERIFY(p.kernels[0].inputs.empty());
        QCOMPARE(p.kernels[1].inputs, (std::vector<TensorId>{w.id, a.id}));
        QVERIFY(validateProfile(p).empty());
        QCOMPARE(parseNativeProfile(writeNativeProfile(p), "mem"), p);
    }

    void notesCountCopiesMigrationsAndMissingTables() {
        QTemporaryDir dir;
        const Profile p = loadProfile(makeExport(dir, "r.sqlite", std::string(kSchema) + kEnums + kRows));
        const auto& n = p.metadata.notes;
        // Copy kind 41 is HtoD in this file's enum table (1 would be DtoD); 51 a migration.
        QVERIFY2(contains(n.at("copies"), "memcpy HtoD: 1 (4.00 KiB)"), n.at("copies").c_str());
        QVERIFY(contains(n.at("copies"), "memset: 1 (256 B)"));
        QVERIFY(!contains(n.at("copies"), "DtoD"));
        QCOMPARE(n.at("unified_memory.migration host->device, Coherence"), std::string("1 records, 64.00 KiB"));
        QCOMPARE(n.at("unified_memory.gpu page fault, Write"), std::string("1 records, 3 faults"));
        QVERIFY(contains(n.at("tensor_uses"), "1 of 1 GPU page-fault records"));
        QVERIFY(contains(n.at("memory_host"), "1 pinned"));
        // Only the CPU-fault table is missing from this export.
        QVERIFY2(contains(n.at("nsys.missing_tables"), "CUDA_UM_CPU_PAGE_FAULT_EVENTS"),
                 n.at("nsys.missing_tables").c_str());
        QVERIFY(!contains(n.at("nsys.missing_tables"), "CUDA_GPU_MEMORY_USAGE_EVENTS"));
    }

    void missingOptionalTablesAreNamedInTheNotes() {
        QTemporaryDir dir;
        const auto path = makeExport(dir, "kernels-only.sqlite", R"sql(
            CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL,
                                                     shortName INTEGER NOT NULL);
            INSERT INTO StringIds VALUES (1, 'k');
            INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (10, 30, 1), (40, 40, 1);)sql");
        const Profile p = loadProfile(path);
        QCOMPARE(p.kernels.size(), size_t(2));
        QCOMPARE(p.kernels[1].duration, Nanoseconds(1));  // 0 ns raised to 1
        QVERIFY(p.tensors.empty());
        const auto& missing = p.metadata.notes.at("nsys.missing_tables");
        for (const auto* table : {"CUDA_GPU_MEMORY_USAGE_EVENTS", "CUPTI_ACTIVITY_KIND_MEMCPY", "ENUM_CUDA_MEMCPY_OPER",
                                  "CUDA_UM_GPU_PAGE_FAULT_EVENTS", "NVTX_EVENTS"})
            QVERIFY2(contains(missing, table), table);
        QVERIFY(contains(p.metadata.notes.at("tensor_uses"), "inferred from time only"));
    }

    void requiredTablesAndForeignDatabasesAreRefused() {
        QTemporaryDir dir;
        const auto noKernels = makeExport(dir, "nokernels.sqlite",
                                          "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT);");
        QVERIFY(contains(errorOf(noKernels), "table CUPTI_ACTIVITY_KIND_KERNEL is missing"));
        const auto other = makeExport(dir, "other.sqlite", "CREATE TABLE notes (t TEXT); INSERT INTO notes VALUES ('x');");
        const auto e = errorOf(other);
        QVERIFY2(contains(e, other) && contains(e, "without Nsight Systems tables"), e.c_str());
        // A Spillway workspace is an SQLite file too: told apart by its application_id.
        const auto workspace = makeExport(dir, "ws.sqlite", "PRAGMA application_id = 1397771351; CREATE TABLE t (x);");
        QVERIFY2(contains(errorOf(workspace), "a Spillway workspace, not a profile"), errorOf(workspace).c_str());
    }

    void badValuesNameTableRowAndColumn() {
        QTemporaryDir dir;
        const auto text = makeExport(dir, "text.sqlite", R"sql(
            CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT);
            CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, shortName INTEGER);
            INSERT INTO StringIds VALUES (1, 'k');
            INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (10, 30, 1), ('soon', 40, 1);)sql");
        QVERIFY2(contains(errorOf(text), "table CUPTI_ACTIVITY_KIND_KERNEL, row 2, column \"start\": expected an "
                                         "integer, found text"),
                 errorOf(text).c_str());
        const auto name = makeExport(dir, "name.sqlite", R"sql(
            CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT);
            CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, shortName INTEGER);
            INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (10, 30, 99);)sql");
        QVERIFY(contains(errorOf(name), "row 1, column \"shortName\": string id 99 is not in StringIds"));
        const auto backwards = makeExport(dir, "backwards.sqlite", R"sql(
            CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT);
            CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, shortName INTEGER);
            INSERT INTO StringIds VALUES (1, 'k');
            INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (50, 30, 1);)sql");
        QVERIFY(contains(errorOf(backwards), "ends (30) before it starts (50)"));
        const auto noColumn = makeExport(dir, "nocolumn.sqlite", R"sql(
            CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT);
            CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (begin INTEGER, end INTEGER, shortName INTEGER);)sql");
        QVERIFY(contains(errorOf(noColumn), "table CUPTI_ACTIVITY_KIND_KERNEL has no column \"start\""));
    }

    void aDamagedFileIsAClearError() {
        QTemporaryDir dir;
        const auto path = makeExport(dir, "damaged.sqlite", std::string(kSchema) + kEnums + kRows);
        // Keep the 100-byte header (so it is still recognised as SQLite) and overwrite the rest.
        {
            std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
            f.seekp(100);
            const std::string junk(8000, '\x5a');
            f.write(junk.data(), static_cast<std::streamsize>(junk.size()));
        }
        QCOMPARE(detectProfileFormat(path), std::string("nsys-sqlite"));
        const auto e = errorOf(path);
        QVERIFY2(contains(e, path) && (contains(e, "damaged") || contains(e, "malformed")), e.c_str());
    }
};

QTEST_GUILESS_MAIN(TestNsysSqliteImport)
#include "tst_nsys_sqlite_import.moc"
