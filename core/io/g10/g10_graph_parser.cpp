#include "core/io/g10/g10_graph_parser.h"

#include "core/io/g10/g10_text.h"
#include "core/io/base/import_error.h"

#include <fmt/format.h>

#include <array>

namespace spillway {

namespace {

constexpr std::array<std::string_view, 15> kOpTypes{
    "GatherV2", "Convolution", "Dot",  "Relu", "Add", "BatchMatMul", "Divide", "Multiply",
    "Power",    "SoftmaxBasic", "Sqrt", "Subtract", "Sum", "Tanh", "Erf"};

// Bounds that keep sizes well inside 64 bits and reject nonsense early.
constexpr std::int64_t kMaxInputs = 64;
constexpr std::int64_t kMaxRank = 16;
constexpr std::int64_t kMaxDim = std::int64_t(1) << 31;

class GraphParser {
public:
    GraphParser(const std::string& file, std::string_view text) : cursor_(file, text) {
        graph_.file = file;
    }

    G10Graph parse() {
        while (!cursor_.onlyBlankLeft()) {
            G10GraphOp op = block(true);
            // A SoftmaxBasic is four blocks (its steps); the op keeps the first block's inputs
            // and takes the id of the last, which is what later ops consume.
            if (op.type == "SoftmaxBasic")
                for (int step = 0; step < 3; ++step) op.id = block(false).id;
            graph_.ops.push_back(std::move(op));
        }
        if (graph_.ops.empty())
            cursor_.failAtEnd("an op block: op id, op type, number of inputs, input ids, input "
                              "shapes, a line of dashes");
        return std::move(graph_);
    }

private:
    // The next non-blank line, trimmed. Blank lines are skipped: G10 reads the file token by
    // token and does not see them either.
    std::string_view token(const std::string& expected) {
        std::string_view line;
        while (line.empty()) {
            if (cursor_.atEnd()) cursor_.failAtEnd(expected);
            line = cursor_.next();
            while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
            while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
        }
        return line;
    }

    std::int64_t integer(const std::string& expected, std::int64_t min, std::int64_t max) {
        const auto text = token(expected);
        G10LineFields f(cursor_, text);
        const auto value = f.integer(expected);
        f.expectEnd(expected);
        if (value < min || value > max)
            cursor_.failHere(fmt::format("expected {} between {} and {}, found {}", expected, min,
                                         max, value),
                             1);
        return value;
    }

    // One block; `outer` is false for the three inner steps of a SoftmaxBasic.
    G10GraphOp block(bool outer) {
        G10GraphOp op;
        op.id = integer(outer ? "an op id (start of an op block)"
                              : "the op id of the next SoftmaxBasic step (a SoftmaxBasic is 4 "
                                "blocks)",
                        0, std::int64_t(1) << 40);
        op.line = cursor_.line();
        const auto type = token("the op type");
        if (outer && !isG10GraphOpType(type)) {
            std::string known;
            for (auto t : kOpTypes) known += fmt::format("{}{}", known.empty() ? "" : ", ", t);
            cursor_.failHere(fmt::format("expected an op type G10 builds kernels for ({}), "
                                         "found {}",
                                         known, quoteForMessage(type)),
                             1);
        }
        if (type.empty() || type.find_first_of(" \t") != std::string_view::npos)
            cursor_.failHere("expected the op type (one word), found " + quoteForMessage(type), 1);
        op.type = std::string(type);
        const auto n = integer("the number of inputs", 1, kMaxInputs);
        op.inputs.resize(static_cast<size_t>(n));
        for (auto& in : op.inputs)
            in.id = integer(fmt::format("an input id ({} of {})", &in - op.inputs.data() + 1, n),
                            0, std::int64_t(1) << 40);
        for (auto& in : op.inputs) {
            const auto which = &in - op.inputs.data() + 1;
            const auto rank = integer(fmt::format("the rank of input {}", which), 0, kMaxRank);
            in.dims.resize(static_cast<size_t>(rank));
            for (auto& d : in.dims)
                d = integer(fmt::format("dimension {} of input {}", &d - in.dims.data() + 1, which),
                            1, kMaxDim);
            graph_.lastDims[in.id] = in.dims;
        }
        const auto dashes = token("a line of dashes that ends the op block");
        if (dashes.empty() || dashes.find_first_not_of('-') != std::string_view::npos)
            cursor_.failHere("expected a line of dashes that ends the op block (after " +
                                 fmt::format("{} inputs and their shapes), found ", n) +
                                 quoteForMessage(dashes),
                             1);
        return op;
    }

    G10LineCursor cursor_;
    G10Graph graph_;
};

}  // namespace

bool isG10GraphOpType(std::string_view type) {
    for (auto t : kOpTypes)
        if (t == type) return true;
    return false;
}

G10Graph parseG10Graph(const std::string& file, std::string_view text) {
    return GraphParser(file, text).parse();
}

}  // namespace spillway
