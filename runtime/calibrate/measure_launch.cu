// Kernel launch: the mean time per kernel over 1000 launches as spillway-replay issues them
// (kernel_launch_ns): three events around each (ready, start, end) and a kernel that does the
// placeholder's fixed work (blocks counted out, end stamped); and empty kernels back to back
// without events (reported in the sources). One warm-up run of each first. On the H200 an
// empty kernel between two events took 5.2 to 6.6 us, but the replays spent 7.9 to 8.0 us per
// kernel beyond the profiled times: the events and stamps of a replayed kernel are what count.
#include "runtime/calibrate/cuda_support.h"

#include <memory>

namespace spillway::calibrate::cuda {

namespace {

double bareRun(const Stream& stream, int launches) {
    Event start, end;
    check(cudaEventRecord(start, stream), "cudaEventRecord");
    for (int i = 0; i < launches; ++i) launchEmpty(stream);
    check(cudaEventRecord(end, stream), "cudaEventRecord");
    stream.sync("empty kernels back to back");
    return secondsBetween(start, end) / launches;
}

double eventedRun(const Stream& stream, int launches) {
    std::vector<std::unique_ptr<Event>> around;  // created before the clock starts
    for (int i = 0; i < 3 * launches; ++i) around.push_back(std::make_unique<Event>());
    DeviceBuffer scratch(16);
    check(cudaMemset(scratch.data(), 0, 16), "cudaMemset");
    auto* blocksDone = reinterpret_cast<unsigned int*>(scratch.data());
    auto* endStamp = reinterpret_cast<unsigned long long*>(scratch.data() + 8);
    Event start, end;
    check(cudaEventRecord(start, stream), "cudaEventRecord");
    for (int i = 0; i < launches; ++i) {
        check(cudaEventRecord(*around[3 * i], stream), "cudaEventRecord");      // ready
        check(cudaEventRecord(*around[3 * i + 1], stream), "cudaEventRecord");  // start
        launchReplayLike(stream, blocksDone, endStamp);
        check(cudaEventRecord(*around[3 * i + 2], stream), "cudaEventRecord");  // end
    }
    check(cudaEventRecord(end, stream), "cudaEventRecord");
    stream.sync("replay-like kernels between events");
    return secondsBetween(start, end) / launches;
}

// What a side stream of a replay spends on a directive besides its call: the wait on its
// anchor's event (finished here), its start event and its end event.
double directiveRun(const Stream& stream, int directives) {
    std::vector<std::unique_ptr<Event>> around;
    for (int i = 0; i < 2 * directives; ++i) around.push_back(std::make_unique<Event>());
    Event done, start, end;
    check(cudaEventRecord(done, stream), "cudaEventRecord");
    stream.sync("the anchor event");
    check(cudaEventRecord(start, stream), "cudaEventRecord");
    for (int i = 0; i < directives; ++i) {
        check(cudaStreamWaitEvent(stream, done, 0), "cudaStreamWaitEvent");
        check(cudaEventRecord(*around[2 * i], stream), "cudaEventRecord");
        check(cudaEventRecord(*around[2 * i + 1], stream), "cudaEventRecord");
    }
    check(cudaEventRecord(end, stream), "cudaEventRecord");
    stream.sync("directives with nothing to do");
    return secondsBetween(start, end) / directives;
}

}  // namespace

void measureLaunch(const Context& ctx, RawMeasurements& raw) {
    ctx.progress("kernel launch, " + std::to_string(raw.launchesPerRun) + " empty kernels per run");
    Stream stream;
    for (int r = -1; r < ctx.repetitions; ++r) {
        const double bare = bareRun(stream, raw.launchesPerRun);
        const double evented = eventedRun(stream, raw.launchesPerRun);
        const double directive = directiveRun(stream, raw.launchesPerRun);
        if (r < 0) continue;
        raw.directiveSeconds.push_back(directive);
        raw.launchBareSeconds.push_back(bare);
        raw.launchWithEventsSeconds.push_back(evented);
    }
}

}  // namespace spillway::calibrate::cuda
