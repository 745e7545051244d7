// The injection library's copy from CUPTI's own record structs (cupti_activity.h, headers only:
// no libcupti, no driver) to the parser's mirrors, then through the parser: checks that each
// field the parser needs is taken from the right member of the struct version CUPTI fills.
#include "core/io/gpu_activity/cupti_records.h"
#include "runtime/capture/cupti_record_copy.h"

#include <QtTest>

using namespace spillway;
using namespace spillway::capture;

class TestCuptiRecordCopy : public QObject {
    Q_OBJECT
private slots:
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
