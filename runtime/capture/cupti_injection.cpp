// libspillway_capture.so: loaded into any CUDA process by the driver through
// CUDA_INJECTION64_PATH, it enables CUPTI's activity records (kernels, MEMORY2 allocations and
// frees, memcpy, memset, unified-memory counters, NVTX ranges and the API calls that launch
// kernels), hands every completed buffer to the record
// parser (core/io/gpu_activity/cupti_records.h), and at exit writes the profile to $SPILLWAY_CAPTURE_OUTPUT.
// The environment it reads: docs/capture.md. This is the only file that calls CUPTI.
#include "core/io/base/import_error.h"
#include "core/io/gpu_activity/activity_records_csv.h"
#include "core/io/native/native_json.h"
#include "runtime/capture/cupti_record_copy.h"
#include "runtime/capture/unified_memory_counters.h"

#include <cupti.h>

#include <fmt/format.h>

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <string>

namespace {

using spillway::cupti::RecordParser;

// Everything the callbacks share. Intentionally leaked: CUPTI may call back from its worker
// thread while static destructors run.
struct CaptureState {
    std::mutex mutex;
    RecordParser parser;
    std::size_t bufferBytes = 8u << 20;
    std::uint64_t buffersLost = 0;
    bool wantUnifiedMemory = false;               // SPILLWAY_CAPTURE_UM is not 0
    std::string nvtxNote;                         // the cupti_nvtx note
    std::atomic<bool> unifiedMemoryTried{false};  // the counters are set up once per process
    std::string unifiedMemoryNote;                // the cupti_unified_memory note; under `mutex`
};

CaptureState& state() {
    static auto* s = new CaptureState;
    return *s;
}

std::string env(const char* name, const std::string& fallback = {}) {
    const char* v = std::getenv(name);
    return v && *v ? std::string(v) : fallback;
}

void warn(const std::string& message) { fmt::print(stderr, "spillway-capture: {}\n", message); }

bool ok(CUptiResult rc, const char* what) {
    if (rc == CUPTI_SUCCESS) return true;
    const char* text = nullptr;
    cuptiGetResultString(rc, &text);
    warn(fmt::format("{} failed: {}", what, text ? text : "unknown CUPTI error"));
    return false;
}

void CUPTIAPI bufferRequested(uint8_t** buffer, size_t* size, size_t* maxNumRecords) {
    auto& s = state();
    // CUPTI wants 8-byte aligned buffers.
    *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, s.bufferBytes));
    *size = *buffer ? s.bufferBytes : 0;
    *maxNumRecords = 0;  // as many as fit
}

void CUPTIAPI bufferCompleted(CUcontext context, uint32_t streamId, uint8_t* buffer, size_t, size_t validSize) {
    auto& s = state();
    {
        std::lock_guard lock(s.mutex);
        CUpti_Activity* record = nullptr;
        while (cuptiActivityGetNextRecord(buffer, validSize, &record) == CUPTI_SUCCESS)
            spillway::capture::addRecord(s.parser, record);
        size_t dropped = 0;
        if (cuptiActivityGetNumDroppedRecords(context, streamId, &dropped) == CUPTI_SUCCESS && dropped)
            s.parser.addDropped(dropped);
    }
    std::free(buffer);
}

// Page faults and migrations by cause, for every device of the process: once, at the first
// moment CUPTI accepts them (unified_memory_counters.h). No lock is held while CUPTI runs: it may
// hand over a buffer (bufferCompleted takes the lock) from inside any call.
void tryUnifiedMemoryCounters(std::string_view when) {
    auto& s = state();
    if (!s.wantUnifiedMemory || s.unifiedMemoryTried.exchange(true)) return;
    const spillway::capture::UnifiedMemoryCupti cupti{cuptiActivityConfigureUnifiedMemoryCounter, cuptiActivityEnable,
                                                     cuptiGetResultString};
    const auto outcome = spillway::capture::enableUnifiedMemoryCounters(cupti, when);
    if (!outcome.warning.empty()) warn(outcome.warning);
    std::lock_guard lock(s.mutex);
    s.unifiedMemoryNote = outcome.note;
}

// CUPTI's resource callbacks: the driver has finished cuInit (the time to configure the
// counters), or a context was created without that callback having come (a late try, which
// CUPTI may refuse; the note says which it was).
void CUPTIAPI onResource(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void*) {
    if (domain != CUPTI_CB_DOMAIN_RESOURCE) return;
    if (cbid == CUPTI_CBID_RESOURCE_CU_INIT_FINISHED) tryUnifiedMemoryCounters(spillway::capture::kAtDriverInitialised);
    else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED) tryUnifiedMemoryCounters(spillway::capture::kAtFirstContext);
}

// InitializeInjection runs inside cuInit, before the driver is initialised: the counters are
// configured from the resource callback that follows. Without a subscriber (CUPTI allows one
// per process: Nsight tools, cuda-gdb or another profiler may hold it) they are tried at once.
void scheduleUnifiedMemoryCounters() {
    CUpti_SubscriberHandle subscriber = nullptr;
    const CUptiResult rc = cuptiSubscribe(&subscriber, onResource, nullptr);
    if (rc == CUPTI_SUCCESS &&
        ok(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CU_INIT_FINISHED),
           "asking for the driver-initialised callback") &&
        ok(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_CREATED),
           "asking for the context-created callback"))
        return;
    const char* text = nullptr;
    cuptiGetResultString(rc, &text);
    const auto why = rc == CUPTI_SUCCESS ? std::string("its callbacks could not be enabled")
                                         : fmt::format("cuptiSubscribe failed: {}", text ? text : "unknown CUPTI error");
    tryUnifiedMemoryCounters(fmt::format("from InitializeInjection inside cuInit, without a CUPTI subscriber ({})", why));
}

// An output path; when another process of the same run (a child also loads this library)
// already wrote it, this process's file goes beside it with its pid, never over it.
std::filesystem::path besideExisting(std::filesystem::path out) {
    std::error_code ec;
    if (std::filesystem::exists(out, ec)) {
        auto name = out.filename().string();
        const auto dot = name.find('.');
        name = dot == std::string::npos ? fmt::format("{}.{}", name, getpid())
                                        : fmt::format("{}.{}{}", name.substr(0, dot), getpid(), name.substr(dot));
        out.replace_filename(name);
    }
    return out;
}

std::filesystem::path outputPath() {
    return besideExisting(env("SPILLWAY_CAPTURE_OUTPUT", fmt::format("spillway-capture.{}.profile.json", getpid())));
}

// Under s.mutex.
std::string unifiedMemoryNoteAtExit(CaptureState& s) {
    if (!s.wantUnifiedMemory) return "disabled (SPILLWAY_CAPTURE_UM=0, --no-um)";
    if (!s.unifiedMemoryNote.empty()) return s.unifiedMemoryNote;
    const auto never = spillway::capture::unifiedMemoryNeverTried(
        "CUPTI called back neither when the driver finished initialising nor when a context was created");
    warn(never.warning);
    return never.note;
}

// SPILLWAY_CAPTURE_RECORDS (--records FILE): every record as handed over, as CSV
// (activity_records_csv.h), for what the profile does not keep. Under s.mutex.
void writeRecordsAtExit(const CaptureState& s) {
    if (env("SPILLWAY_CAPTURE_RECORDS").empty()) return;
    const auto path = besideExisting(env("SPILLWAY_CAPTURE_RECORDS")).string();
    std::ofstream out(path);
    if (out) spillway::gpu_activity::writeActivityRecordsCsv(s.parser.capture(), out);
    if (!out) warn(fmt::format("could not write the records to {}", path));
    else warn(fmt::format("wrote the records to {}", path));
}

void writeProfileAtExit() {
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    auto& s = state();
    std::lock_guard lock(s.mutex);
    writeRecordsAtExit(s);
    if (s.parser.kernelCount() == 0) {
        warn(fmt::format("process {} ran no CUDA kernels: no profile written", getpid()));
        return;
    }
    const auto out = outputPath();
    try {
        auto profile = s.parser.finish(out.string(), env("SPILLWAY_CAPTURE_MODEL"));
        profile.metadata.notes["cupti_unified_memory"] = unifiedMemoryNoteAtExit(s);
        profile.metadata.notes["capture.pid"] = std::to_string(getpid());
        profile.metadata.notes["cupti_nvtx"] = s.nvtxNote;
        spillway::saveNativeProfile(profile, out);
        warn(fmt::format("wrote {} ({} kernels, {} tensors)", out.string(), profile.kernels.size(),
                         profile.tensors.size()));
    } catch (const std::exception& e) {
        warn(fmt::format("could not write the profile: {}", e.what()));
    }
}

// NVTX ranges (phases: emit_nvtx, torch.optim, spillway.* marks) and, since ranges are host time
// and kernels run later on the GPU, the runtime and driver calls that launch the kernels (their
// correlation ids give each kernel its launch time). CUPTI sees NVTX calls only when
// NVTX_INJECTION64_PATH names libcupti (the launcher sets it).
void enableNvtxRanges(CaptureState& s) {
    if (env("SPILLWAY_CAPTURE_NVTX", "1") == "0") {
        s.nvtxNote = "disabled (SPILLWAY_CAPTURE_NVTX=0, --no-nvtx)";
        return;
    }
    const bool ranges = ok(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MARKER), "enabling NVTX range records");
    const bool launches = ok(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME), "enabling runtime API records") &&
                          ok(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_DRIVER), "enabling driver API records");
    const auto injection = env("NVTX_INJECTION64_PATH");
    s.nvtxNote = fmt::format("NVTX ranges {}, launch times {}; NVTX_INJECTION64_PATH={}", ranges ? "on" : "refused",
                             launches ? "on" : "refused",
                             injection.empty() ? "unset (no NVTX range reaches CUPTI)" : injection);
}

}  // namespace

// Called once by the CUDA driver when it loads this library (CUDA_INJECTION64_PATH).
extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
    static std::atomic<bool> done{false};
    if (done.exchange(true)) return 1;
    auto& s = state();
    if (const auto mb = std::atoi(env("SPILLWAY_CAPTURE_BUFFER_MB", "8").c_str()); mb > 0)
        s.bufferBytes = static_cast<std::size_t>(mb) << 20;
    if (!ok(cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted), "registering the buffer callbacks"))
        return 0;
    s.wantUnifiedMemory = env("SPILLWAY_CAPTURE_UM", "1") != "0";
    if (s.wantUnifiedMemory) scheduleUnifiedMemoryCounters();
    ok(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_DEVICE), "enabling device records");
    // CONCURRENT_KERNEL, not KERNEL: the latter serialises every kernel launch.
    ok(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), "enabling kernel records");
    ok(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMORY2), "enabling memory records");
    ok(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY), "enabling memcpy records");
    ok(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET), "enabling memset records");
    enableNvtxRanges(s);
    std::atexit(writeProfileAtExit);
    return 1;
}
