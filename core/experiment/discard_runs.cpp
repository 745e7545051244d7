#include "core/experiment/discard_runs.h"

#include "core/hardware/hardware_presets.h"
#include "core/trace/discard_benchmark_size.h"
#include "core/trace/discard_gpus.h"

#include <fmt/format.h>

#include <utility>

namespace spillway::discard {

namespace {

// Runs the sweeps one after another, each on options.threads, and reports progress over all.
class SweepRunner {
public:
    SweepRunner(const ReproductionOptions& o, size_t total) : o_(o), total_(total) {}
    SweepResult sweep(const Profile& profile, const SweepSpec& spec) {
        return run([&](const SweepOptions& s) { return runSweep(profile, spec, s); });
    }
    SweepResult batches(std::vector<BatchProfile> profiles, const SweepSpec& spec) {
        return run([&](const SweepOptions& s) { return runBatchSweep(std::move(profiles), spec, s); });
    }

private:
    template <class F>
    SweepResult run(F&& f) {
        SweepOptions s;
        s.threads = o_.threads;
        s.cancel = o_.cancel;
        const size_t offset = done_;
        if (o_.progress) s.progress = [this, offset](size_t d, size_t) { o_.progress(offset + d, total_); };
        SweepResult r = f(s);
        done_ += r.cells.size();
        return r;
    }
    const ReproductionOptions& o_;
    size_t total_;
    size_t done_ = 0;
};

std::vector<std::string> capacityValues(Bytes footprint, Bytes card) {
    std::vector<std::string> values;
    for (double r : kRatios) {
        const Bytes cap = r == 0 ? card : Bytes(double(footprint) / r) / kDiscardBufferGrain * kDiscardBufferGrain;
        values.push_back(fmt::format("{}MiB", cap / kMiB));
    }
    return values;
}

std::vector<MicroRun> runMicro(SweepRunner& runner, const DiscardReproductionScope& scope,
                               const std::vector<std::string>& only) {
    const DiscardGpu gpu = *findDiscardGpu("rtx3080ti");
    std::vector<MicroRun> runs;
    for (const PaperMicro& paper : paperMicro()) {
        if (!chosen(only, paper.id)) continue;
        MicroRun run{&paper, oversubscribedFootprint(gpu.memory, scope.microFootprintShare), {}};
        const Profile profile = microProfile(paper.id, run.footprint, gpu.roofline);
        run.footprint = profile.totalTensorBytes();
        const char* machines[2] = {kPcie3, kPcie4};
        for (size_t m = 0; m < 2; ++m) {
            SweepSpec spec;
            spec.baseHardware = hardwarePreset(machines[m]);
            spec.parameter = "gpu_capacity";
            spec.values = capacityValues(run.footprint, spec.baseHardware.gpuCapacity);
            spec.policies = kPolicyIds;
            run.pcie[m] = runner.sweep(profile, spec);
        }
        runs.push_back(std::move(run));
    }
    return runs;
}

SweepSpec dlSpec(const char* machine) {
    SweepSpec spec;
    spec.baseHardware = hardwarePreset(machine);
    spec.policies = kPolicyIds;
    return spec;
}

std::vector<DlRun> runDeepLearning(SweepRunner& runner, const std::vector<Network>& nets) {
    const GpuRoofline gpu = findDiscardGpu("rtx3080ti")->roofline;
    std::vector<DlRun> runs;
    for (const Network& n : nets) {
        DlRun run{n.net, n.batches, {}, {}, {}};
        std::vector<BatchProfile> profiles = darknetProfiles(*n.net, n.batches, gpu);
        for (const BatchProfile& p : profiles) {
            run.footprints.push_back(footprintOf(*p.profile));
            run.computeTimes.push_back(p.profile->totalDuration());
        }
        run.pcie[0] = runner.batches(profiles, dlSpec(kPcie3));
        run.pcie[1] = runner.batches(std::move(profiles), dlSpec(kPcie4));
        runs.push_back(std::move(run));
    }
    return runs;
}

size_t cellCount(const std::vector<Network>& nets, size_t micro, size_t table1) {
    size_t batches = 0;
    for (const Network& n : nets) batches += n.batches.size();
    return kPolicies * (micro * 2 * kRatios.size() + 2 * batches + table1);
}

}  // namespace

Runs runEvaluation(const ReproductionOptions& options, const DiscardReproductionScope& scope) {
    checkOnly(options.only);
    const std::vector<Network> nets = networks(scope, options.only);
    size_t microCount = 0;
    for (const PaperMicro& m : paperMicro()) microCount += chosen(options.only, m.id);
    Runs runs;
    // Table 1 is VGG-16's.
    if (chosen(options.only, "vgg16")) runs.table1Batches = scope.table1Batches;
    SweepRunner runner(options, cellCount(nets, microCount, runs.table1Batches.size()));
    runs.micro = runMicro(runner, scope, options.only);
    runs.dl = runDeepLearning(runner, nets);
    const GpuRoofline gtx = findDiscardGpu("gtx1070")->roofline;
    if (!runs.table1Batches.empty())
        runs.table1 = runner.batches(darknetProfiles(darknetVgg16(), runs.table1Batches, gtx), dlSpec(kGtx1070));
    return runs;
}

double timeRatio(const SweepResult& r, size_t v, size_t p, size_t base) {
    const SweepCell &a = r.at(v, p), &b = r.at(v, base);
    return a.ok && b.ok && b.iterationTime > 0 ? double(a.iterationTime) / double(b.iterationTime) : kNaN;
}
double trafficGb(const SweepResult& r, size_t v, size_t p) { return r.at(v, p).ok ? gb(r.at(v, p).trafficBytes) : kNaN; }

double throughput(const SweepResult& r, size_t v, size_t p, std::int64_t batch) {
    const SweepCell& c = r.at(v, p);
    return c.ok && c.iterationTime > 0 ? double(batch) / seconds(c.iterationTime) : kNaN;
}

}  // namespace spillway::discard
