// The CUPTI record parser (core/io/gpu_activity/cupti_records.h) on records built by hand, as the injection
// library hands them over: no GPU, no CUPTI. Every expected number is worked out in the comments
// from the records below, following the rules of docs/capture.md.
#include "core/io/gpu_activity/cupti_records.h"
#include "core/io/gpu_activity/activity_records_csv.h"
#include "core/io/base/import_error.h"
#include "core/io/native/native_json.h"
#include "core/trace/validate.h"

#include <QtTest>

#include <algorithm>
#include <sstream>

using namespace spillway;
using namespace spillway::cupti;

namespace {

KernelRecord kernel(const std::string& name, std::uint64_t start, std::uint64_t end, std::uint32_t device = 0) {
    KernelRecord k;
    k.name = name;
    k.start = start;
    k.end = end;
    k.deviceId = device;
    return k;
}

MemoryRecord memory(std::uint32_t op, std::uint32_t kind, std::uint64_t address, std::uint64_t bytes,
                    std::uint64_t time) {
    MemoryRecord m;
    m.memoryOperationType = op;
    m.memoryKind = kind;
    m.address = address;
    m.bytes = bytes;
    m.timestamp = time;
    return m;
}

UnifiedMemoryRecord um(std::uint32_t counterKind, std::uint64_t address, std::uint64_t value, std::uint64_t start,
                       std::uint64_t end, std::uint32_t flags) {
    UnifiedMemoryRecord u;
    u.counterKind = counterKind;
    u.address = address;
    u.value = value;
    u.start = start;
    u.end = end;
    u.flags = flags;
    u.srcId = 0;  // the faulting GPU / the source of a DtoH migration
    u.dstId = 0;  // the destination GPU of an HtoD migration
    return u;
}

constexpr std::uint64_t kManaged = 0x90000000;
constexpr std::uint64_t kDevice = 0x7000;
constexpr std::uint64_t kReused = 0xA000;

// Two kernels on GPU 0 and one on GPU 1; a managed block, a device block, a pinned host block,
// an address allocated twice with the free lost between; three GPU faults and a migration.
RecordParser sampleRecords() {
    RecordParser p;
    p.addDevice(0, "NVIDIA H100 80GB HBM3");
    p.addDevice(1, "another GPU");
    // Handed over out of order, as CUPTI's per-context buffers do.
    p.add(kernel("_Z4reluPf", 2000, 2100));                    // K2
    p.add(kernel("_Z4gemmPfi", 1000, 1400));                   // K1
    p.add(kernel("_Z5otherv", 1500, 1600, 1));                 // GPU 1: left out
    p.add(memory(kMemoryOperationAllocation, kMemoryKindManaged, kManaged, 2 << 20, 150));  // M
    p.add(memory(kMemoryOperationAllocation, kMemoryKindPinned, 0x5000, 4096, 160));        // host: not a tensor
    p.add(memory(kMemoryOperationAllocation, kMemoryKindDevice, kDevice, 8192, 500));        // D
    p.add(memory(kMemoryOperationRelease, kMemoryKindDevice, kDevice, 8192, 5000));
    p.add(memory(kMemoryOperationAllocation, kMemoryKindDevice, kReused, 512, 1500));        // R1
    p.add(memory(kMemoryOperationAllocation, kMemoryKindDevice, kReused, 512, 2600));        // R2 (R1's free lost)
    p.add(memory(0, kMemoryKindDevice, 0xB000, 64, 1700));                                   // invalid op: skipped
    // A write fault in M during K2; a fault outside every allocation; one in D between kernels.
    p.add(um(kUmGpuPageFault, kManaged + 4096, 2, 2050, 2060, kUmAccessWrite));
    p.add(um(kUmGpuPageFault, 0x1, 1, 2050, 2060, kUmAccessRead));
    p.add(um(kUmGpuPageFault, kDevice + 64, 1, 1700, 1710, kUmAccessRead));
    p.add(um(kUmBytesHtoD, kManaged + 4096, 65536, 1990, 1995, kUmCauseCoherence));
    MemcpyRecord copy;
    copy.copyKind = kMemcpyHtoD;
    copy.bytes = 1024;
    copy.start = 300;
    copy.end = 310;
    p.add(copy);
    MemsetRecord set;
    set.bytes = 256;
    set.start = 320;
    set.end = 330;
    p.add(set);
    p.addDropped(7);
    return p;
}

// One forward and one backward kernel of samples/capture/um_training_step.cu on unified memory,
// with every counter kind CUDA 13's CUpti_ActivityUnifiedMemoryCounter3 carries, filled the way
// cupti_activity.h documents each kind: the input act0 written by the host (two CPU faults; CUPTI
// puts the faulting PC in `value`), migrated to the GPU on a fault (coherence), act1 written by
// the forward kernel and read by the backward one, a GPU fault of another device, an eviction,
// a prefetch, a device-to-device migration, thrashing in CPU memory (srcId is then a mask of the
// devices fighting, `end` to be ignored), throttling and a remote map for thrashing.
constexpr std::uint64_t kAct0 = 0x7f0000000000;
constexpr std::uint64_t kAct1 = 0x7f0000400000;
constexpr std::uint64_t kCpu = 0xFFFFFFFF;  // CUPTI_UNIFIED_MEMORY_CPU_DEVICE_ID

UnifiedMemoryRecord umBetween(std::uint32_t counterKind, std::uint64_t address, std::uint64_t value,
                              std::uint64_t start, std::uint64_t end, std::uint32_t flags, std::uint32_t src,
                              std::uint32_t dst) {
    UnifiedMemoryRecord u = um(counterKind, address, value, start, end, flags);
    u.srcId = src;
    u.dstId = dst;
    return u;
}

RecordParser trainingStepRecords() {
    RecordParser p;
    p.addDevice(0, "NVIDIA H200");
    p.add(memory(kMemoryOperationAllocation, kMemoryKindManaged, kAct0, 4 << 20, 100));
    p.add(memory(kMemoryOperationAllocation, kMemoryKindManaged, kAct1, 4 << 20, 900));
    p.add(memory(kMemoryOperationRelease, kMemoryKindManaged, kAct1, 4 << 20, 9000));
    p.add(kernel("_Z7forwardPKfS0_Pfm", 1000, 5000));   // K1
    p.add(kernel("_Z8backwardPKfS0_Pfm", 6000, 8000));  // K2
    // The host writes act0: two CPU faults (value: the faulting instruction's address).
    p.add(umBetween(kUmCpuPageFault, kAct0, 0x401a2b, 120, 0, 0, 0, 0));
    p.add(umBetween(kUmCpuPageFault, kAct0 + (2 << 20), 0x401a2b, 130, 0, 0, 0, 0));
    // K1 faults on act0 (3 fault groups, read) and act1 (write); act0's 2 MiB come over.
    p.add(umBetween(kUmGpuPageFault, kAct0 + 8192, 3, 1100, 1150, kUmAccessRead, 0, 0));
    p.add(umBetween(kUmBytesHtoD, kAct0, 2 << 20, 1160, 1400, kUmCauseCoherence, kCpu, 0));
    p.add(umBetween(kUmGpuPageFault, kAct1 + 4096, 1, 1200, 1250, kUmAccessWrite, 0, 0));
    // GPU 1 faults during K1: counted, not a use on GPU 0.
    p.add(umBetween(kUmGpuPageFault, kAct0, 1, 1300, 1350, kUmAccessAtomic, 1, 0));
    // Between the kernels: act0 prefetched, act0 evicted to the host, 1 MiB moved to GPU 1.
    p.add(umBetween(kUmBytesHtoD, kAct0 + (2 << 20), 2 << 20, 5100, 5200, kUmCausePrefetch, kCpu, 0));
    p.add(umBetween(kUmBytesDtoH, kAct0, 2 << 20, 5300, 5500, kUmCauseEviction, 0, kCpu));
    p.add(umBetween(kUmBytesDtoD, kAct0, 1 << 20, 5600, 5700, kUmCauseUnknown, 0, 1));
    // K2 reads act1 (2 fault groups); the host then reads 64 KiB of it back.
    p.add(umBetween(kUmGpuPageFault, kAct1, 2, 6100, 6150, kUmAccessRead, 0, 0));
    p.add(umBetween(kUmBytesDtoH, kAct1, 64 << 10, 8100, 8200, kUmCauseCoherence, 0, kCpu));
    // Thrashing in CPU memory between GPU 0 and 1 (srcId: the mask 0b11; end: ignore), throttling,
    // then a remote map against the thrashing.
    p.add(umBetween(kUmThrashing, kAct0, 2 << 20, 8300, 1, kUmFlagInCpu, 0b11, 0));
    p.add(umBetween(kUmThrottling, kAct0, 0, 8400, 8450, 0, 0, 0));
    p.add(umBetween(kUmRemoteMap, kAct0, 2 << 20, 8500, 7, kUmRemoteMapThrashing, kCpu, 0));
    return p;
}

const Tensor& tensorAt(const Profile& p, std::uint64_t address, std::optional<Nanoseconds> allocTime) {
    const auto it = std::find_if(p.tensors.begin(), p.tensors.end(), [&](const Tensor& t) {
        return t.address == address && t.allocTime == allocTime;
    });
    if (it == p.tensors.end()) qFatal("no tensor at %llx", static_cast<unsigned long long>(address));
    return *it;
}

}  // namespace

class TestCuptiRecords : public QObject {
    Q_OBJECT
private slots:
    // --records: every record on its own line in time order, a fault's address and access type,
    // a migration's bytes and cause, names with commas quoted.
    void rawRecordsAsCsvInTimeOrder() {
        std::ostringstream out;
        spillway::gpu_activity::writeActivityRecordsCsv(trainingStepRecords().capture(), out);
        std::vector<std::string> lines;
        std::istringstream in(out.str());
        for (std::string l; std::getline(in, l);) lines.push_back(l);
        QCOMPARE(lines.front(), std::string("record,start_ns,end_ns,device,stream,address,value,detail"));
        // 3 allocations and frees, 2 kernels, 14 unified-memory records.
        QCOMPARE(lines.size(), size_t(1 + 3 + 2 + 14));
        std::uint64_t last = 0;
        for (std::size_t i = 1; i < lines.size(); ++i) {
            const std::uint64_t start = std::stoull(lines[i].substr(lines[i].find(',') + 1));
            QVERIFY2(start >= last, lines[i].c_str());
            last = start;
        }
        const auto has = [&](const std::string& line) {
            return std::find(lines.begin(), lines.end(), line) != lines.end();
        };
        QVERIFY(has("um,1200,1250,0,-1,0x7f0000401000,1,gpu page fault; write"));
        QVERIFY(has("kernel,1000,5000,0,0,0x0,0,\"forward(float const*, float const*, float*, unsigned long)\""));
        QVERIFY(std::any_of(lines.begin(), lines.end(), [](const std::string& l) {
            return l.rfind("um,5100,5200,", 0) == 0 && l.find(",2097152,migration host->device; prefetch") != std::string::npos;
        }));
    }

    void demanglesWhatNvccEmits() {
        QCOMPARE(demangle("_Z4gemmPfi"), std::string("gemm(float*, int)"));
        QCOMPARE(demangle("plain_name"), std::string("plain_name"));
        QCOMPARE(demangle("_Znot-a-valid-mangling"), std::string("_Znot-a-valid-mangling"));
    }

    void kernelsOfOneGpuInStartOrder() {
        const Profile p = sampleRecords().finish("out.profile.json", "toy");
        QCOMPARE(p.metadata.source, std::string("cupti-capture"));
        QCOMPARE(p.metadata.model, std::string("toy"));
        QCOMPARE(p.metadata.device, std::string("NVIDIA H100 80GB HBM3"));
        QCOMPARE(p.kernels.size(), size_t(2));
        QCOMPARE(p.kernels[0].name, std::string("gemm(float*, int)"));
        QCOMPARE(p.kernels[0].op, std::string("gemm"));
        QCOMPARE(p.kernels[1].name, std::string("relu(float*)"));
        QCOMPARE(p.kernels[0].duration, Nanoseconds(400));
        QCOMPARE(p.kernels[1].duration, Nanoseconds(100));
        // Time zero is the earliest GPU memory event of GPU 0: M's allocation at 150.
        QCOMPARE(p.kernels[0].capturedStart, std::optional<Nanoseconds>(850));
        QCOMPARE(p.kernels[1].capturedStart, std::optional<Nanoseconds>(1850));
        QVERIFY(p.metadata.notes.at("kernels").find("1 kernels of other devices left out") != std::string::npos);
    }

    void allocationsBecomeTensorsWithLifetimeUses() {
        const Profile p = sampleRecords().finish("out.profile.json", "toy");
        // M, D, R1, R2; the pinned host block is not a tensor.
        QCOMPARE(p.tensors.size(), size_t(4));
        const auto& m = tensorAt(p, kManaged, 0);
        const auto& d = tensorAt(p, kDevice, 350);
        const auto& r1 = tensorAt(p, kReused, 1350);
        const auto& r2 = tensorAt(p, kReused, 2450);
        // M: before the first kernel, never freed: a weight.
        QVERIFY(m.persistent);
        QVERIFY(m.kind == TensorKind::Weight);
        QCOMPARE(m.bytes, Bytes(2 << 20));
        // D: allocated at 500 (K1 is the first kernel to start after), freed at 5000 (K2 the
        // last to start before): written by K1, read by K2.
        QVERIFY(d.kind == TensorKind::Activation);
        QCOMPARE(d.freeTime, std::optional<Nanoseconds>(4850));
        QCOMPARE(p.kernels[0].outputs, (std::vector<TensorId>{d.id}));
        // R1: allocated at 1500, its free lost; the same address allocated again at 2600 ends it:
        // K2 (start 2000) is the only kernel in between, a workspace.
        QCOMPARE(r1.freeTime, std::optional<Nanoseconds>(2450));
        QVERIFY(r1.kind == TensorKind::Workspace);
        // R2: no kernel starts after 2600: no uses.
        QVERIFY(r2.kind == TensorKind::Temporary);
        QVERIFY(!r2.freeTime);
        // K2 reads M (the write fault during it) and D (its last kernel), writes R1.
        QCOMPARE(p.kernels[1].inputs, (std::vector<TensorId>{m.id, d.id}));
        QCOMPARE(p.kernels[1].outputs, (std::vector<TensorId>{r1.id}));
        QVERIFY(p.kernels[0].inputs.empty());
        QVERIFY(validateProfile(p).empty());
    }

    void notesSayWhatWasMapped() {
        const Profile p = sampleRecords().finish("out.profile.json", "toy");
        const auto& n = p.metadata.notes;
        // Three faults on GPU 0: one in M during K2, one outside allocations, one between kernels.
        QVERIFY2(n.at("tensor_uses").find("1 of 3 GPU page-fault records") != std::string::npos,
                 n.at("tensor_uses").c_str());
        QVERIFY(n.at("tensor_uses").find("1 faults outside any allocation, 1 outside any kernel") != std::string::npos);
        QCOMPARE(n.at("unified_memory.migration host->device, coherence"), std::string("1 records, 64.00 KiB"));
        QCOMPARE(n.at("unified_memory.gpu page fault, write"), std::string("1 records, 2 faults"));
        QVERIFY(n.at("memory_host").starts_with("1 pinned"));
        QVERIFY(n.at("memory_lost_frees").starts_with("1 addresses"));
        QVERIFY(n.at("cupti_dropped_records").find("7") != std::string::npos);
        QVERIFY(n.at("cupti_unknown_memory_operations").starts_with("1 "));
        QVERIFY(n.at("copies").find("memcpy HtoD: 1") != std::string::npos);
        QVERIFY(n.at("copies").find("memset: 1") != std::string::npos);
        QVERIFY(n.at("phases").find("other") != std::string::npos);
    }

    void everyUnifiedMemoryCounterKindOfCuda13() {
        const Profile p = trainingStepRecords().finish("step.profile.json", "toy");
        QVERIFY(validateProfile(p).empty());
        const auto& n = p.metadata.notes;
        // GPU faults: by access type, `value` fault groups each; GPU 1's atomic one counted too.
        QCOMPARE(n.at("unified_memory.gpu page fault, read"), std::string("2 records, 5 faults"));
        QCOMPARE(n.at("unified_memory.gpu page fault, write"), std::string("1 records, 1 faults"));
        QCOMPARE(n.at("unified_memory.gpu page fault, atomic"), std::string("1 records, 1 faults"));
        // CPU faults: one fault per record, whatever PC `value` holds.
        QCOMPARE(n.at("unified_memory.cpu page fault"), std::string("2 records, 2 faults"));
        // Migrations: bytes by direction and cause.
        QCOMPARE(n.at("unified_memory.migration host->device, coherence"), std::string("1 records, 2.00 MiB"));
        QCOMPARE(n.at("unified_memory.migration host->device, prefetch"), std::string("1 records, 2.00 MiB"));
        QCOMPARE(n.at("unified_memory.migration device->host, eviction"), std::string("1 records, 2.00 MiB"));
        QCOMPARE(n.at("unified_memory.migration device->host, coherence"), std::string("1 records, 64.00 KiB"));
        QCOMPARE(n.at("unified_memory.migration device->device, unknown cause"), std::string("1 records, 1.00 MiB"));
        // Thrashing in CPU memory, throttling, and a remote map caused by thrashing.
        QCOMPARE(n.at("unified_memory.thrashing, in cpu"), std::string("1 records, 2.00 MiB"));
        QVERIFY(n.at("unified_memory.throttling").starts_with("1 records"));
        QCOMPARE(n.at("unified_memory.remote map, thrashing"), std::string("1 records, 2.00 MiB"));
        std::size_t kinds = 0;
        for (const auto& [key, value] : n) kinds += key.starts_with("unified_memory.");
        QCOMPARE(kinds, size_t(12));
        // GPU 0's three faults each fall in a live block during a kernel; GPU 1's is not GPU 0's.
        QVERIFY2(n.at("tensor_uses").find("3 of 3 GPU page-fault records") != std::string::npos,
                 n.at("tensor_uses").c_str());
        // act0: there before the first kernel, never freed: a weight that K1 reads (its fault).
        // act1: K1 writes it (first fault, and first kernel after its allocation), K2 reads it.
        const auto& act0 = tensorAt(p, kAct0, 0);
        const auto& act1 = tensorAt(p, kAct1, 800);
        QVERIFY(act0.persistent);
        QCOMPARE(p.kernels.size(), size_t(2));
        QCOMPARE(p.kernels[0].op, std::string("forward"));
        QCOMPARE(p.kernels[0].inputs, (std::vector<TensorId>{act0.id}));
        QCOMPARE(p.kernels[0].outputs, (std::vector<TensorId>{act1.id}));
        QCOMPARE(p.kernels[1].inputs, (std::vector<TensorId>{act1.id}));
        QVERIFY(p.kernels[1].outputs.empty());
        QCOMPARE(act1.freeTime, std::optional<Nanoseconds>(8900));
    }

    void withoutUnifiedMemoryTheUsesAreLifetimesOnly() {
        RecordParser r;
        r.add(kernel("k", 100, 200));
        r.add(memory(kMemoryOperationAllocation, kMemoryKindDevice, 0x1000, 64, 50));
        const Profile p = r.finish("x.json", "");
        QCOMPARE(p.metadata.model, std::string("x.json"));  // named after the output when no model is given
        QVERIFY(p.metadata.notes.at("tensor_uses").find("inferred from time only") != std::string::npos);
        // Allocated before the only kernel and never freed: a weight nobody writes.
        QVERIFY(p.tensors.at(0).persistent);
        QVERIFY(p.kernels.at(0).outputs.empty());
    }

    void survivesTheNativeRoundTrip() {
        const Profile p = sampleRecords().finish("out.profile.json", "toy");
        QCOMPARE(parseNativeProfile(writeNativeProfile(p), "mem"), p);
    }

    void noKernelsIsAClearError() {
        RecordParser r;
        r.add(memory(kMemoryOperationAllocation, kMemoryKindDevice, 0x1000, 64, 50));
        try {
            (void)r.finish("/tmp/out.profile.json", "");
            QFAIL("expected an ImportError");
        } catch (const ImportError& e) {
            QVERIFY(std::string(e.what()).find("/tmp/out.profile.json") != std::string::npos);
            QVERIFY(std::string(e.what()).find("no kernels") != std::string::npos);
        }
    }
};

QTEST_GUILESS_MAIN(TestCuptiRecords)
#include "tst_cupti_records.moc"
