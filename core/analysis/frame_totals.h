#pragma once
// Bytes by allocating stack frame: heaptrack's "top allocating functions" for the stacks a
// PyTorch memory snapshot records with each allocation (Tensor::frames, "file:line:function",
// innermost call first). A tensor named b7fe7bc000000_0 says nothing; the frames that allocated
// it, and how much memory each frame is responsible for, say where it comes from.
//
// Inclusive bytes of a frame: the tensors whose stack contains it, each counted once even when
// the frame repeats in one stack (recursion, torch's _call_impl at every module level). Self
// bytes: the tensors whose innermost frame it is.
#include "core/analysis/liveness.h"
#include "core/trace/profile.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace spillway {

// One recorded frame, "file:line:function", split at the first ":<digits>:" (a C++ function
// such as at::native::empty keeps its "::"). Views into the text.
struct StackFrameParts {
    std::string_view file;
    std::int64_t line = -1;     // -1: the text has no ":<line>:" part
    std::string_view function;  // the whole text when there is no ":<line>:" part
};
StackFrameParts splitStackFrame(std::string_view frame);

// The file from its package on (after the last site-packages/ or dist-packages/), which is
// what a reader recognises; other paths unchanged.
std::string_view shortFrameFile(std::string_view file);

// A frame inside PyTorch itself, which memory_viz users skip to find the frame of "their" code:
// Python files under site-packages/torch/ or dist-packages/torch/, and (stacks="all") torch's
// C++: files under c10/, aten/src/, torch/csrc/ or in libtorch*/libc10*, or functions in the
// c10::, at::, torch:: or caffe2:: namespaces (a Python function name has no "::").
bool isTorchFrame(std::string_view frame);

// Position in tensor.frames of the innermost frame outside PyTorch (isTorchFrame) that names a
// file (an unsymbolised "??" frame of the interpreter or a library is not the user's); -1 when
// there is none.
std::int64_t firstUserFrame(const Tensor& tensor);

struct FrameTotal {
    std::string frame;               // as recorded, "file:line:function"
    Bytes inclusiveBytes = 0;        // tensors whose stack contains the frame, each once
    std::int64_t tensors = 0;        // how many such tensors
    Bytes selfBytes = 0;             // tensors whose innermost frame it is
    std::int64_t selfTensors = 0;
    Bytes peakLiveBytes = 0;         // the most of inclusiveBytes live during one kernel (liveness)
    std::int64_t peakKernel = -1;    // the first kernel position where that is reached; -1 = none
    std::int64_t largestTensor = -1; // position of the largest tensor through the frame
    bool torch = false;              // isTorchFrame(frame)
};

struct FrameTotals {
    std::vector<FrameTotal> frames;  // largest inclusive bytes first; ties: more self, then text
    std::int64_t tensorsWithStack = 0;
    Bytes bytesWithStack = 0;        // the 100 % of the inclusive column
};

// `liveness` (computeLiveness of the same profile) fills peakLiveBytes/peakKernel; null leaves
// them at 0/-1. Linear in the number of recorded frames, plus a sort per frame for the peak.
FrameTotals computeFrameTotals(const Profile& profile, const Liveness* liveness = nullptr);

}  // namespace spillway
