#include "core/analysis/frame_totals.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <unordered_map>
#include <utility>

namespace spillway {

namespace {

// Lookups by string_view into a map that owns its keys (the frames' element type is the
// trace's business; a copy is made once per distinct frame).
struct TextHash {
    using is_transparent = void;
    size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
};
using FrameIds = std::unordered_map<std::string, std::int32_t, TextHash, std::equal_to<>>;

bool isDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// Every distinct frame of the tensor's stack once, as ids (a frame may repeat in one stack).
std::vector<std::int32_t> distinctFrameIds(const Tensor& tensor, FrameIds& ids, FrameTotals& totals) {
    std::vector<std::int32_t> out;
    out.reserve(tensor.frames.size());
    for (const auto& f : tensor.frames) {
        const std::string_view text = f;
        auto it = ids.find(text);
        if (it == ids.end()) {
            it = ids.emplace(std::string(text), static_cast<std::int32_t>(totals.frames.size())).first;
            FrameTotal added;
            added.frame = std::string(text);
            added.torch = isTorchFrame(text);
            totals.frames.push_back(std::move(added));
        }
        out.push_back(it->second);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

// The largest sum of live bytes over kernels of each frame's tensors, in one sweep over the
// kernels (no sort): a tensor is live from its first to its last use, a persistent one at every
// kernel. At each kernel the tensors that end before it leave first, then the new ones come.
void addPeakLive(FrameTotals& totals, const Profile& profile, const Liveness& liveness,
                 const std::vector<std::vector<std::int32_t>>& framesOfTensor) {
    const auto kernels = static_cast<std::int64_t>(profile.kernels.size());
    std::vector<std::vector<std::int32_t>> startsAt(size_t(kernels) + 1), endsAt(size_t(kernels) + 1);
    for (size_t t = 0; t < framesOfTensor.size() && t < liveness.tensors.size(); ++t) {
        if (framesOfTensor[t].empty()) continue;
        const auto& live = liveness.tensors[t];
        std::int64_t first = live.firstUse, end = live.lastUse + 1;
        if (live.persistent) {
            first = 0;
            end = kernels;
        }
        if (first < 0 || first >= end || end > kernels) continue;
        startsAt[size_t(first)].push_back(std::int32_t(t));
        endsAt[size_t(end)].push_back(std::int32_t(t));
    }
    std::vector<Bytes> live(totals.frames.size(), 0);
    for (std::int64_t k = 0; k < kernels; ++k) {
        for (auto t : endsAt[size_t(k)])
            for (auto id : framesOfTensor[size_t(t)]) live[size_t(id)] -= profile.tensors[size_t(t)].bytes;
        for (auto t : startsAt[size_t(k)])
            for (auto id : framesOfTensor[size_t(t)]) live[size_t(id)] += profile.tensors[size_t(t)].bytes;
        for (auto t : startsAt[size_t(k)])
            for (auto id : framesOfTensor[size_t(t)]) {
                FrameTotal& f = totals.frames[size_t(id)];
                if (live[size_t(id)] > f.peakLiveBytes) {
                    f.peakLiveBytes = live[size_t(id)];
                    f.peakKernel = k;
                }
            }
    }
}

}  // namespace

StackFrameParts splitStackFrame(std::string_view frame) {
    for (size_t colon = frame.find(':'); colon != std::string_view::npos; colon = frame.find(':', colon + 1)) {
        size_t end = colon + 1;
        while (end < frame.size() && isDigit(frame[end])) ++end;
        if (end == colon + 1 || end >= frame.size() || frame[end] != ':') continue;
        std::int64_t line = 0;
        for (size_t i = colon + 1; i < end && line < (std::int64_t{1} << 40); ++i) line = line * 10 + (frame[i] - '0');
        return {frame.substr(0, colon), line, frame.substr(end + 1)};
    }
    return {{}, -1, frame};
}

std::string_view shortFrameFile(std::string_view file) {
    size_t cut = std::string_view::npos;
    for (std::string_view marker : {"site-packages/", "dist-packages/"}) {
        const size_t at = file.rfind(marker);
        if (at != std::string_view::npos && (cut == std::string_view::npos || at + marker.size() > cut))
            cut = at + marker.size();
    }
    return cut == std::string_view::npos ? file : file.substr(cut);
}

bool isTorchFrame(std::string_view frame) {
    const StackFrameParts parts = splitStackFrame(frame);
    auto inFile = [&](std::string_view part) { return parts.file.find(part) != std::string_view::npos; };
    if (inFile("site-packages/torch/") || inFile("dist-packages/torch/")) return true;
    // torch's C++ (a source tree's paths, relative or absolute, or its shared libraries).
    for (std::string_view dir : {"c10/", "aten/src/", "torch/csrc/", "caffe2/"})
        if (parts.file.starts_with(dir) || inFile("/" + std::string(dir))) return true;
    if (inFile("libtorch") || inFile("libc10")) return true;
    for (std::string_view ns : {"c10::", "at::", "torch::", "caffe2::"})
        if (parts.function.starts_with(ns)) return true;
    return false;
}

std::int64_t firstUserFrame(const Tensor& tensor) {
    for (size_t i = 0; i < tensor.frames.size(); ++i) {
        const std::string_view frame = tensor.frames[i];
        const std::string_view file = splitStackFrame(frame).file;
        if (!isTorchFrame(frame) && !file.empty() && file != "??") return static_cast<std::int64_t>(i);
    }
    return -1;
}

FrameTotals computeFrameTotals(const Profile& profile, const Liveness* liveness) {
    FrameTotals totals;
    FrameIds ids;
    // Importers share one stack among the tensors it allocated (a snapshot has a million tensors
    // and dozens of stacks): a stack whose first string lives at the same address is the same
    // stack, so its frames are looked up once.
    std::unordered_map<const void*, std::vector<std::int32_t>> seen;
    std::vector<std::vector<std::int32_t>> framesOfTensor(profile.tensors.size());
    for (size_t t = 0; t < profile.tensors.size(); ++t) {
        const Tensor& tensor = profile.tensors[t];
        if (tensor.frames.empty()) continue;
        ++totals.tensorsWithStack;
        totals.bytesWithStack += tensor.bytes;
        const void* stack = &tensor.frames[0];
        auto known = seen.find(stack);
        if (known == seen.end()) known = seen.emplace(stack, distinctFrameIds(tensor, ids, totals)).first;
        framesOfTensor[t] = known->second;
        for (auto id : framesOfTensor[t]) {
            FrameTotal& f = totals.frames[size_t(id)];
            f.inclusiveBytes += tensor.bytes;
            ++f.tensors;
            if (f.largestTensor < 0 || tensor.bytes > profile.tensors[size_t(f.largestTensor)].bytes)
                f.largestTensor = static_cast<std::int64_t>(t);
        }
        const std::string_view innermost = tensor.frames[0];
        FrameTotal& self = totals.frames[size_t(ids.find(innermost)->second)];
        self.selfBytes += tensor.bytes;
        ++self.selfTensors;
    }
    if (liveness && totals.tensorsWithStack > 0) addPeakLive(totals, profile, *liveness, framesOfTensor);
    std::sort(totals.frames.begin(), totals.frames.end(), [](const FrameTotal& a, const FrameTotal& b) {
        if (a.inclusiveBytes != b.inclusiveBytes) return a.inclusiveBytes > b.inclusiveBytes;
        if (a.selfBytes != b.selfBytes) return a.selfBytes > b.selfBytes;
        return a.frame < b.frame;
    });
    return totals;
}

}  // namespace spillway
