// TENSILE's scheduling time: three concurrent VGG-16 jobs (the issue's target: under 100 ms, so
// the plan can be redone between iterations) and a GPT-2-sized job, with one peak analysis of the
// same jobs (Algorithm 2 alone) as the baseline measured in the same process, and the vDNN and
// Capuchin planners beside. Also prints the predicted peaks (docs/policies.md, "TENSILE").
//   build/tests/bench_tensile [repeat] [VGG-16 PROFILE]    (run from the source folder)
#include "core/io/profile_loader.h"
#include "core/policy/tensile/multi_job_planners.h"
#include "core/policy/tensile/peak_analysis.h"
#include "core/policy/tensile/tensile_scheduler.h"
#include "core/trace/transformer_training_graph.h"
#include "tests/bench/bench_timing.h"

#include <fmt/format.h>

#include <cstdlib>
#include <string>
#include <vector>

using namespace spillway;

namespace {

double mib(Bytes b) { return double(b) / double(kMiB); }

// Jobs of one profile, each started `stagger` after the previous, kernels back to back.
MultiJobPlanInput jobsOf(const Profile& profile, int count, Nanoseconds stagger, const HardwareConfig& hw) {
    MultiJobPlanInput input;
    input.hardware = hw;
    for (int j = 0; j < count; ++j) {
        JobIterationView view;
        view.job = j;
        view.name = profile.metadata.model + "#" + std::to_string(j);
        view.profile = &profile;
        view.completedIterations = 1;
        Nanoseconds t = j * stagger;
        for (const auto& k : profile.kernels) {
            view.kernelStart.push_back(t);
            view.kernelDuration.push_back(k.duration);
            t += k.duration;
        }
        input.jobs.push_back(std::move(view));
    }
    return input;
}

HardwareConfig pcie(Bytes capacity, std::int64_t bytesPerSecond) {
    HardwareConfig hw;
    hw.gpuCapacity = capacity;
    hw.hostToGpu = {bytesPerSecond, 10'000};
    hw.gpuToHost = {bytesPerSecond, 10'000};
    return hw;
}

void report(const std::string& name, const MultiJobPlanInput& input, int repeat) {
    const auto tas = tensile::buildTensorAccessSequence(input.jobs);
    const tensile::MemorySchedule none(tas.tensors.size());
    size_t accesses = 0;
    for (const auto& t : tas.tensors) accesses += t.accesses.size();
    const double baseline = timing::medianMs(repeat, [&] { (void)tensile::analysePeak(tas, none); });
    tensile::TensileSchedule result;
    const double schedule = timing::medianMs(repeat, [&] { result = tensile::scheduleTensile(input); });
    const double plan = timing::medianMs(repeat, [&] { (void)planTensile(input); });
    const double vdnn = timing::medianMs(repeat, [&] { (void)planVdnn(input); });
    const double capuchin = timing::medianMs(repeat, [&] { (void)planCapuchin(input); });
    fmt::print("{}: {} jobs, {} tensors, {} accesses, GPU {:.0f} MiB\n", name, input.jobs.size(), tas.tensors.size(),
               accesses, mib(input.hardware.gpuCapacity));
    fmt::print("  peak analysis (baseline) {:9.3f} ms\n", baseline);
    fmt::print("  tensile schedule         {:9.3f} ms  x{:.1f} of one analysis  ({} rounds, {} swap-outs, {} recomputations)\n",
               schedule, schedule / baseline, result.rounds, result.swappedTensors, result.recomputations);
    fmt::print("  tensile plans            {:9.3f} ms  x{:.1f}\n", plan, plan / baseline);
    fmt::print("  vdnn plans               {:9.3f} ms  x{:.1f}\n", vdnn, vdnn / baseline);
    fmt::print("  capuchin plans           {:9.3f} ms  x{:.1f}\n", capuchin, capuchin / baseline);
    fmt::print("  predicted peak: vanilla {:.1f} MiB, tensile {:.1f} MiB (saving {:.1f}%)",
               mib(result.before.peak), mib(result.after.peak),
               100.0 * (1.0 - double(result.after.peak) / double(result.before.peak)));
    const auto v = planVdnn(input), c = planCapuchin(input, CapuchinOptions{
        .targetSavingRatio = 1.0 - double(result.after.peak) / double(result.before.peak)});
    fmt::print(", vdnn {:.1f} MiB ({} maps offloaded per job), capuchin at tensile's saving {:.1f} MiB\n",
               mib(std::stoll(v[0].notes.at("predicted_peak_after_bytes"))), v[0].notes.at("offloaded_tensors"),
               mib(std::stoll(c[0].notes.at("predicted_peak_after_bytes"))));
    // Where the vanilla peak lies: the phase of the kernel each job runs then.
    fmt::print("  vanilla peak at {:.3f} ms:", double(result.before.peakTime) / 1e6);
    for (const auto& job : tas.jobs) {
        std::string phase = "idle";
        for (size_t k = 0; k < job.kernelStart.size(); ++k)
            if (job.kernelStart[k] <= result.before.peakTime && result.before.peakTime < job.kernelEnd[k])
                phase = std::string(toString(job.profile->kernels[k].phase));
        fmt::print(" {}", phase);
    }
    fmt::print("\n");
}

}  // namespace

int main(int argc, char** argv) {
    const int repeat = argc > 1 ? std::max(1, std::atoi(argv[1])) : 9;
    const std::string path = argc > 2 ? argv[2] : "samples/torch/vgg16-b2-cpu.profile.json";
    try {
        const Profile vgg = loadProfile(path);
        // The paper's machine: an 11 GB RTX 2080 Ti on PCIe 3.0 x16 (about 12 GB/s).
        for (int jobs = 1; jobs <= 3; ++jobs)
            report(fmt::format("VGG-16 x{}", jobs), jobsOf(vgg, jobs, vgg.totalDuration() / 3, pcie(11 * kGiB, 12'000'000'000)),
                   repeat);
    } catch (const std::exception& e) {
        fmt::print("{}: {}\n", path, e.what());
    }
    // GPT-2 XL as the other benchmarks generate it (A100 kernel times), on a 40 GiB A100 with
    // PCIe 4.0 x16 (about 25 GB/s).
    const Profile gpt2 = transformerTrainingGraph(TransformerConfig{});
    report("GPT-2 XL (generated)", jobsOf(gpt2, 1, 0, pcie(40 * kGiB, 25'000'000'000)), std::max(1, repeat / 3));
    return 0;
}
