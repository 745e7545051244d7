#pragma once
// G10's transformer graphs (frontend/Nets/BERT_Base.txt, VIT.txt, NeRF.txt): blocks of one
// number or word per line. See docs/g10-import.md for the format.
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace spillway {

struct G10GraphInput {
    std::int64_t id = 0;
    std::vector<std::int64_t> dims;  // as written: 99 stands for the batch size
};

struct G10GraphOp {
    std::int64_t id = 0;  // also the id of its output tensor
    std::string type;     // "GatherV2", "Dot", ...
    std::vector<G10GraphInput> inputs;
    std::int64_t line = 0;  // line of the op id in the file
};

struct G10Graph {
    std::string file;
    std::vector<G10GraphOp> ops;  // file order; a SoftmaxBasic's 4 blocks are one op
    // For each tensor id used as an input: the dims it has at its LAST use in the file
    // (the inner SoftmaxBasic blocks included). G10 sizes every tensor from this.
    std::unordered_map<std::int64_t, std::vector<std::int64_t>> lastDims;
};

// The op types G10's simulator builds kernels for.
bool isG10GraphOpType(std::string_view type);

// Throws ImportError (file, line, what was expected) on anything G10 could not read.
G10Graph parseG10Graph(const std::string& file, std::string_view text);

}  // namespace spillway
