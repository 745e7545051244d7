// The injection library's copy from CUPTI's own record structs (cupti_activity.h, headers only:
// no libcupti, no driver) to the parser's mirrors, then through the parser: checks that each
// field the parser needs is taken from the right member of the struct version CUPTI fills.
#include "core/io/gpu_activity/cupti_records.h"
#include "runtime/capture/cupti_record_copy.h"

#include <QtTest>

#include <cstddef>
#include <type_traits>

using namespace spillway;
using namespace spillway::capture;

namespace {

CuptiUnifiedMemory umRecord(CUpti_ActivityUnifiedMemoryCounterKind counterKind, std::uint64_t value,
                            std::uint64_t start, std::uint64_t end, std::uint32_t src, std::uint32_t dst,
                            std::uint32_t flags) {
    CuptiUnifiedMemory r{};
    r.kind = CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER;
    r.counterKind = counterKind;
    r.value = value;
    r.start = start;
    r.end = end;
    r.address = 0x7f0000000000;
    r.srcId = src;
    r.dstId = dst;
    r.flags = flags;
    // The fields CUDA 13 fills that the copy does not read: they must not disturb it.
    r.streamId = CUPTI_INVALID_STREAM_ID;
    r.processId = 4242;
    r.pad = 0xdeadbeef;
    r.processors[0] = 0b11;
    return r;
}

}  // namespace

class TestCuptiRecordCopy : public QObject {
    Q_OBJECT
private slots:
    // CUDA 13's unified-memory record: the version the copy reads, its layout, and each counter
    // kind's fields taken from the members cupti_activity.h documents for that kind.
    void unifiedMemoryRecordsOfEveryCounterKind() {
        static_assert(std::is_same_v<CuptiUnifiedMemory, CUpti_ActivityUnifiedMemoryCounter3>);
        QCOMPARE(offsetof(CuptiUnifiedMemory, value), size_t(8));
        QCOMPARE(offsetof(CuptiUnifiedMemory, srcId), size_t(40));
        QCOMPARE(offsetof(CuptiUnifiedMemory, flags), size_t(56));
        QCOMPARE(sizeof(CuptiUnifiedMemory), size_t(104));  // processors[5] after pad

        constexpr std::uint32_t cpu = CUPTI_UNIFIED_MEMORY_CPU_DEVICE_ID;
        const CuptiUnifiedMemory records[] = {
            umRecord(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_GPU_PAGE_FAULT, 4, 2000, 2100, 0, 0,
                     CUPTI_ACTIVITY_UNIFIED_MEMORY_ACCESS_TYPE_WRITE),
            umRecord(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_CPU_PAGE_FAULT_COUNT, 0x401a2b, 1500, 0, 0, 0, 0),
            umRecord(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD, 2 << 20, 1900, 1990, cpu, 0,
                     CUPTI_ACTIVITY_UNIFIED_MEMORY_MIGRATION_CAUSE_COHERENCE),
            umRecord(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH, 64 << 10, 3000, 3100, 0, cpu,
                     CUPTI_ACTIVITY_UNIFIED_MEMORY_MIGRATION_CAUSE_USER),
            umRecord(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOD, 1 << 20, 3200, 3300, 0, 1,
                     CUPTI_ACTIVITY_UNIFIED_MEMORY_MIGRATION_CAUSE_ACCESS_COUNTERS),
            umRecord(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THRASHING, 2 << 20, 3400, 0, 0b11, 0,
                     CUPTI_ACTIVITY_FLAG_THRASHING_IN_CPU),
            umRecord(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THROTTLING, 0, 3500, 3600, 0, 0,
                     CUPTI_ACTIVITY_FLAG_THROTTLING_IN_CPU),
            umRecord(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_REMOTE_MAP, 2 << 20, 3700, 0, cpu, 0,
                     CUPTI_ACTIVITY_UNIFIED_MEMORY_REMOTE_MAP_CAUSE_POLICY),
        };
        cupti::RecordParser parser;
        for (const auto& r : records) QVERIFY(addRecord(parser, reinterpret_cast<const CUpti_Activity*>(&r)));

        const auto& um = parser.capture().unifiedMemory;
        QCOMPARE(um.size(), std::size(records));
        using Event = gpu_activity::UnifiedMemoryEvent;
        QVERIFY(um[0].event == Event::GpuPageFault);
        QCOMPARE(um[0].value, std::uint64_t(4));
        QCOMPARE(um[0].deviceId, std::int64_t(0));
        QCOMPARE(um[0].cause, std::string("write"));
        QCOMPARE(um[0].end, Nanoseconds(2100));
        QVERIFY(um[1].event == Event::CpuPageFault);
        QCOMPARE(um[1].value, std::uint64_t(1));  // `value` is the faulting PC: one fault
        QCOMPARE(um[1].end, Nanoseconds(1500));
        QVERIFY(um[2].event == Event::MigrationToDevice);
        QCOMPARE(um[2].deviceId, std::int64_t(0));  // dstId
        QCOMPARE(um[2].cause, std::string("coherence"));
        QCOMPARE(um[2].value, std::uint64_t(2 << 20));
        QVERIFY(um[3].event == Event::MigrationToHost);
        QCOMPARE(um[3].deviceId, std::int64_t(0));  // srcId
        QCOMPARE(um[3].cause, std::string("user"));
        QVERIFY(um[4].event == Event::MigrationDeviceToDevice);
        QCOMPARE(um[4].deviceId, std::int64_t(1));
        QCOMPARE(um[4].cause, std::string("access counters"));
        QVERIFY(um[5].event == Event::Thrashing);
        QCOMPARE(um[5].deviceId, std::int64_t(-1));  // srcId is a mask of devices, not one
        QCOMPARE(um[5].cause, std::string("in cpu"));
        QCOMPARE(um[5].end, um[5].start);
        QVERIFY(um[6].event == Event::Throttling);
        QCOMPARE(um[6].cause, std::string("in cpu"));
        QVERIFY(um[7].event == Event::RemoteMap);
        QCOMPARE(um[7].deviceId, std::int64_t(0));  // dstId
        QCOMPARE(um[7].cause, std::string("policy"));
        QCOMPARE(um[7].end, um[7].start);
    }

    void everyKindReachesTheParserWithItsFields() {
        CuptiKernel k{};
        k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
        k.name = "_Z6squarePfi";
        k.start = 10'000;
        k.end = 12'500;
        k.deviceId = 0;
        k.streamId = 7;
        k.correlationId = 42;

        CuptiMemory alloc{};
        alloc.kind = CUPTI_ACTIVITY_KIND_MEMORY2;
        alloc.memoryOperationType = CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION;
        alloc.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_MANAGED;
        alloc.address = 0x7f0000000000;
        alloc.bytes = 4 << 20;
        alloc.timestamp = 9'000;
        alloc.deviceId = 0;

        CuptiUnifiedMemory fault{};
        fault.kind = CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER;
        fault.counterKind = CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_GPU_PAGE_FAULT;
        fault.address = 0x7f0000000000 + 8192;
        fault.value = 5;
        fault.start = 11'000;
        fault.end = 11'100;
        fault.srcId = 0;
        fault.flags = CUPTI_ACTIVITY_UNIFIED_MEMORY_ACCESS_TYPE_READ;

        CuptiUnifiedMemory migration{};
        migration.kind = CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER;
        migration.counterKind = CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH;
        migration.address = 0x7f0000000000;
        migration.value = 2 << 20;
        migration.start = 13'000;
        migration.end = 14'000;
        migration.srcId = 0;
        migration.dstId = 0;
        migration.flags = CUPTI_ACTIVITY_UNIFIED_MEMORY_MIGRATION_CAUSE_EVICTION;

        CuptiMemcpy copy{};
        copy.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
        copy.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_DTOH;
        copy.bytes = 1 << 20;
        copy.start = 15'000;
        copy.end = 16'000;

        CuptiDevice device{};
        device.kind = CUPTI_ACTIVITY_KIND_DEVICE;
        device.id = 0;
        device.name = "NVIDIA H200";

        CUpti_Activity other{};
        other.kind = CUPTI_ACTIVITY_KIND_OVERHEAD;

        cupti::RecordParser parser;
        for (const auto* r : {reinterpret_cast<const CUpti_Activity*>(&k), reinterpret_cast<const CUpti_Activity*>(&alloc),
                              reinterpret_cast<const CUpti_Activity*>(&fault),
                              reinterpret_cast<const CUpti_Activity*>(&migration),
                              reinterpret_cast<const CUpti_Activity*>(&copy),
                              reinterpret_cast<const CUpti_Activity*>(&device)})
            QVERIFY(addRecord(parser, r));
        QVERIFY(!addRecord(parser, &other));  // kinds the parser does not read are skipped

        const Profile p = parser.finish("out.profile.json", "square");
        QCOMPARE(p.metadata.device, std::string("NVIDIA H200"));
        QCOMPARE(p.kernels.size(), size_t(1));
        QCOMPARE(p.kernels[0].name, std::string("square(float*, int)"));
        QCOMPARE(p.kernels[0].duration, Nanoseconds(2500));
        QCOMPARE(p.kernels[0].capturedStart, std::optional<Nanoseconds>(1000));  // zero: the allocation at 9000
        QCOMPARE(p.tensors.size(), size_t(1));
        QCOMPARE(p.tensors[0].bytes, Bytes(4 << 20));
        QCOMPARE(p.tensors[0].address, std::optional<std::uint64_t>(0x7f0000000000));
        QVERIFY(p.tensors[0].name.starts_with("managed@"));
        const auto& n = p.metadata.notes;
        QCOMPARE(n.at("unified_memory.gpu page fault, read"), std::string("1 records, 5 faults"));
        QCOMPARE(n.at("unified_memory.migration device->host, eviction"), std::string("1 records, 2.00 MiB"));
        QVERIFY(n.at("copies").find("memcpy DtoH: 1 (1.00 MiB)") != std::string::npos);
        QVERIFY(n.at("tensor_uses").find("1 of 1 GPU page-fault records") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestCuptiRecordCopy)
#include "tst_cupti_record_copy.moc"
