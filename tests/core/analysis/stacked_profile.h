#pragma once
// A hand-made profile with allocation stacks, for the frame totals (core), `info --stacks` (CLI)
// and the stack pane and frames table (app). Written as spillway.profile/1 text and read through
// the real native reader, so the suites do not depend on how Tensor::frames is stored.
//
// Frames, innermost first (T = inside torch, site-packages/torch/):
//   L  torch/nn/modules/linear.py:134:forward        T
//   R  torch/nn/functional.py:1443:dropout           T
//   M  torch/nn/modules/module.py:1790:_call_impl    T
//   U  /home/me/train.py:10:step
//   MAIN /home/me/train.py:30:main
// Tensors (position: id name bytes, stack, kernels where live):
//   0: 1 a   1000  L M U M MAIN  (M twice)   k0-k1
//   1: 2 b    300  R M U MAIN                k1-k2
//   2: 3 c     50  U MAIN                    k3
//   3: 4 w      7  no stack, persistent weight
//   4: 5 d   2000  L M MAIN                  k3
// Worked out by hand (inclusive / tensors / self / peak live at kernel / largest tensor):
//   MAIN 3350 / 4 / 0    / 2050 at k3 / d
//   M    3300 / 3 / 0    / 2000 at k3 / d   (a counted once)
//   L    3000 / 2 / 3000 / 2000 at k3 / d
//   U    1350 / 3 / 50   / 1300 at k1 / a
//   R     300 / 1 / 300  /  300 at k1 / b
#include "core/io/native/native_json.h"

#include <string>

namespace spillway::testing {

inline const char* const kFrameL = "/venv/lib/python3.12/site-packages/torch/nn/modules/linear.py:134:forward";
inline const char* const kFrameR = "/venv/lib/python3.12/site-packages/torch/nn/functional.py:1443:dropout";
inline const char* const kFrameM = "/venv/lib/python3.12/site-packages/torch/nn/modules/module.py:1790:_call_impl";
inline const char* const kFrameU = "/home/me/train.py:10:step";
inline const char* const kFrameMain = "/home/me/train.py:30:main";

inline std::string stackedProfileJson() {
    const std::string L = std::string("\"") + kFrameL + "\"", R = std::string("\"") + kFrameR + "\"",
                      M = std::string("\"") + kFrameM + "\"", U = std::string("\"") + kFrameU + "\"",
                      MAIN = std::string("\"") + kFrameMain + "\"";
    auto tensor = [](int id, const char* name, int bytes, const std::string& frames, const char* extra = "") {
        return "{\"id\":" + std::to_string(id) + ",\"name\":\"" + name + "\",\"bytes\":" + std::to_string(bytes) +
               ",\"kind\":\"activation\",\"job\":0,\"persistent\":false" + extra +
               (frames.empty() ? std::string() : ",\"frames\":[" + frames + "]") + "}";
    };
    auto kernel = [](int id, const char* inputs, const char* outputs) {
        return "{\"id\":" + std::to_string(id) + ",\"name\":\"k" + std::to_string(id) +
               "\",\"op\":\"op\",\"phase\":\"forward\",\"job\":0,\"duration_ns\":1000,\"inputs\":[" + inputs +
               "],\"outputs\":[" + outputs + "]}";
    };
    return std::string("{\"format\":\"spillway.profile/1\",") +
           "\"metadata\":{\"model\":\"stacked\",\"batch\":1,\"device\":\"\",\"source\":\"hand-written\","
           "\"source_path\":\"stacked\",\"notes\":{}},"
           "\"jobs\":[{\"id\":0,\"name\":\"train\"}],\"tensors\":[" +
           tensor(1, "a", 1000, L + "," + M + "," + U + "," + M + "," + MAIN, ",\"alloc_time_ns\":1000,\"free_time_ns\":5000") + "," +
           tensor(2, "b", 300, R + "," + M + "," + U + "," + MAIN) + "," + tensor(3, "c", 50, U + "," + MAIN) + "," +
           "{\"id\":4,\"name\":\"w\",\"bytes\":7,\"kind\":\"weight\",\"job\":0,\"persistent\":true}," +
           tensor(5, "d", 2000, L + "," + M + "," + MAIN) + "],\"kernels\":[" + kernel(0, "4", "1") + "," +
           kernel(1, "1", "2") + "," + kernel(2, "2", "") + "," + kernel(3, "4", "3,5") + "]}";
}

// The same profile with the notes an importer writes (core/trace/kind_evidence.h,
// ImportOptions::iteration): 3 iterations, the 2nd imported, two kind rules, 40.22 % of the bytes
// unclassified (over kUnclassifiedWarning, without the importer's own warning about it) and a
// warning of another kind.
inline std::string stackedProfileWithNotesJson() {
    std::string text = stackedProfileJson();
    const std::string notes =
        "\"notes\":{\"iterations.found\":\"3\",\"iterations.imported\":\"2\",\"iterations.rule\":\"sizes repeat\","
        "\"kind_rule.persistent-with-gradient\":\"weight: 1 tensors, 7 bytes (0.2% of tensor bytes); one per gradient\","
        "\"kind_rule.fallback\":\"activation: 2 tensors, 1350 bytes (40.2% of tensor bytes); no evidence\","
        "\"kind_rule.unclassified_share\":\"0.4022\","
        "\"warning.caching_allocator\":\"the allocator's blocks hide the tensors\"}";
    text.replace(text.find("\"notes\":{}"), 10, notes);
    return text;
}

inline Profile stackedProfile() { return parseNativeProfile(stackedProfileJson(), "stacked.profile.json"); }

}  // namespace spillway::testing
