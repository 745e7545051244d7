#include "runtime/replay/kernel_error_causes.h"

#include "core/sim/checked_time.h"
#include "runtime/replay/replay_call.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace spillway::replay {

namespace {

std::size_t iterationIndex(const MeasuredTimeline& t, std::int64_t iteration) {
    if (t.iterations.empty()) throw std::invalid_argument("a timeline without iterations");
    const auto last = static_cast<std::int64_t>(t.iterations.size()) - 1;
    if (iteration > last) throw std::invalid_argument(fmt::format("no iteration {} (the last is {})", iteration, last));
    return static_cast<std::size_t>(iteration < 0 ? last : iteration);
}

// What a recorded call did to the pages of its range (replay_call.h names the calls).
bool populates(const std::string& call) {
    const auto c = replayCallNamed(call);
    return c == ReplayCall::PrefetchToDevice || c == ReplayCall::DiscardAndPrefetch;
}

// The kernel's written bytes whose latest call before it, in this iteration, populated them after
// a drop: what the GPU faulted back in the recorded managed replays.
void findRefills(const ReplayProgram& program, const MeasuredIteration& m, std::size_t runIndex, KernelErrorCauses& c) {
    const Nanoseconds start = m.kernels[runIndex].startNs;
    for (const ArenaRange& w : program.kernels[runIndex].writes) {
        const MeasuredTransfer* lastPopulate = nullptr;
        const MeasuredTransfer* lastDrop = nullptr;
        for (std::size_t j = 0; j < program.directives.size(); ++j) {
            const MeasuredTransfer& t = m.transfers[j];
            if (t.endNs > start || !overlaps(program.directives[j].range, w)) continue;
            if (discardsPages(t.call) && (!lastDrop || t.endNs > lastDrop->endNs)) lastDrop = &t;
            if (populates(t.call) && (!lastPopulate || t.endNs > lastPopulate->endNs)) lastPopulate = &t;
        }
        if (!lastDrop) continue;
        if (!lastPopulate || lastPopulate->endNs < lastDrop->endNs) {  // dropped, not populated since
            c.droppedBytes += w.bytes;
            c.sinceUnpopulatedDrop = std::max(c.sinceUnpopulatedDrop, start - lastDrop->endNs);
            continue;
        }
        c.refilledBytes += w.bytes;
        c.sinceDrop = std::max(c.sinceDrop, start - lastDrop->endNs);
        c.sincePrefetch = std::max(c.sincePrefetch, start - lastPopulate->endNs);
    }
}

std::string us(Nanoseconds ns) { return fmt::format("{:.0f} us", double(ns) / 1e3); }

// The cause first (what a reader looks for), then how much of the difference was running and
// how much waiting.
std::string describe(const KernelErrorCauses& c) {
    std::vector<std::string> parts;
    if (c.slotRace) parts.push_back("another tensor's call dropped or moved its bytes while it ran (a slot race)");
    if (c.droppedBytes > 0 && c.runError > 0)
        parts.push_back(fmt::format("it writes {:.1f} MiB that a discard dropped {} before it, with no prefetch since: "
                                    "they fault back", double(c.droppedBytes) / (1 << 20), us(c.sinceUnpopulatedDrop)));
    if (c.refilledBytes > 0 && c.runError > 0)
        parts.push_back(fmt::format("it writes {:.1f} MiB that a discard dropped ({} before it) and a prefetch "
                                    "populated again ({} before): real GPUs faulted such outputs back, ~100 us per "
                                    "64 KiB, which the model does not predict",
                                    double(c.refilledBytes) / (1 << 20), us(c.sinceDrop), us(c.sincePrefetch)));
    if (c.modelledFaults >= 1'000) parts.push_back(fmt::format("the model charged {} of faults", us(c.modelledFaults)));
    if (std::abs(c.runError) >= 1'000) parts.push_back(fmt::format("ran {} {}", us(std::abs(c.runError)),
                                                                    c.runError > 0 ? "longer" : "shorter"));
    if (std::abs(c.waitError) >= 1'000) parts.push_back(fmt::format("waited {} {}", us(std::abs(c.waitError)),
                                                                     c.waitError > 0 ? "longer" : "less"));
    std::string text;
    for (const std::string& p : parts) text += (text.empty() ? "" : "; ") + p;
    if (!text.empty()) text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
    return text;
}

}  // namespace

KernelErrorCauses kernelErrorCauses(const ReplayProgram& program, const MeasuredTimeline& measured,
                                    const MeasuredTimeline& model, const HardwareConfig& machine,
                                    const std::vector<ModelBackend::SlotRace>& races, std::int64_t iteration,
                                    std::size_t runIndex) {
    const std::size_t mi = iterationIndex(measured, iteration), si = iterationIndex(model, iteration);
    const MeasuredIteration& m = measured.iterations[mi];
    const MeasuredIteration& s = model.iterations[si];
    if (runIndex >= program.kernels.size() || m.kernels.size() != program.kernels.size() ||
        s.kernels.size() != program.kernels.size() || m.transfers.size() != program.directives.size())
        throw std::invalid_argument("the timelines do not describe this program");
    const MeasuredKernel& mk = m.kernels[runIndex];
    const MeasuredKernel& sk = s.kernels[runIndex];
    KernelErrorCauses c;
    c.waitError = (mk.startNs - mk.readyNs) - (sk.startNs - sk.readyNs);
    c.runError = (mk.endNs - mk.startNs) - (sk.endNs - sk.startNs);
    c.modelledFaults = std::max<Nanoseconds>(
        0, (sk.endNs - sk.startNs) - sim::launchedDuration(program.kernels[runIndex].duration, machine) - sk.recomputeNs);
    c.slotRace = std::any_of(races.begin(), races.end(), [&](const ModelBackend::SlotRace& r) {
        return r.iteration == si && r.kernel == runIndex;
    });
    if (program.arenaKind == ArenaKind::Managed) findRefills(program, m, runIndex, c);
    c.text = describe(c);
    return c;
}

ErrorBreakdown errorBreakdown(const std::vector<KernelErrorCauses>& causes) {
    ErrorBreakdown b;
    for (const KernelErrorCauses& c : causes) {
        ErrorBreakdown::Part& part = c.slotRace             ? b.slotRaces
                                     : c.droppedBytes > 0   ? b.dropped
                                     : c.refilledBytes > 0  ? b.refilled
                                                            : b.other;
        ++part.kernels;
        part.runError += c.runError;
        part.waitError += c.waitError;
    }
    const auto line = [&](const ErrorBreakdown::Part& p, const char* what) {
        if (p.kernels == 0) return;
        b.text += fmt::format("  {:+9.3f} ms running, {:+9.3f} ms waiting: {} kernel(s) {}\n", double(p.runError) / 1e6,
                              double(p.waitError) / 1e6, p.kernels, what);
    };
    line(b.slotRaces, "in a slot race");
    line(b.dropped, "writing bytes a discard dropped, with no prefetch since");
    line(b.refilled, "writing bytes a discard dropped and a prefetch populated again");
    line(b.other, "else");
    return b;
}

}  // namespace spillway::replay
