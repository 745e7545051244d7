#include "core/io/g10/g10_configs.h"

#include "core/io/base/file_text.h"
#include "core/io/g10/g10_kernel_count.h"
#include "core/io/g10/g10_text.h"
#include "core/io/base/import_error.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_set>
#include <unordered_map>

namespace spillway {

namespace {

struct TensorLine {
    TensorId id = 0;
    bool weight = false;
    Bytes bytes = 0;
};

// "tensor12 Is weight (global)?: 0, Size in byte: 100663296, Range:597352448--698015744"
TensorLine parseTensorLine(const G10LineCursor& cursor, std::string_view line) {
    G10LineFields f(cursor, line);
    TensorLine t;
    f.expect("tensor", "a tensor line: tensor<N> Is weight (global)?: <0|1>, Size in byte: "
                       "<bytes>, Range:<start>--<end>");
    t.id = f.integer("the tensor number after 'tensor'");
    if (t.id < 0) f.fail("a tensor number of 0 or more");
    f.expect(" Is weight (global)?: ", "the weight flag");
    const auto flagColumn = f.column();
    const auto flag = f.integer("the weight flag 0 or 1");
    if (flag != 0 && flag != 1)
        cursor.failHere(fmt::format("expected the weight flag 0 or 1, found {}", flag), flagColumn);
    t.weight = flag == 1;
    f.expect(", Size in byte: ", "the tensor size");
    const auto sizeColumn = f.column();
    t.bytes = f.integer("the tensor size in bytes");
    if (t.bytes <= 0)
        cursor.failHere(fmt::format("expected a positive tensor size, found {}", t.bytes),
                        sizeColumn);
    f.expect(", Range:", "the address range");
    f.integer("the start of the address range");
    f.expect("--", "the address range");
    f.integer("the end of the address range");
    f.expectEnd("the address range");
    return t;
}

struct TensorTable {
    std::vector<G10RawTensor> tensors;
    std::unordered_map<TensorId, size_t> pos;
};

TensorTable parseTensors(const std::string& file, std::string_view text) {
    G10LineCursor cursor(file, text);
    TensorTable table;
    table.tensors.reserve(static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + 1);
    table.pos.reserve(table.tensors.capacity());
    while (!cursor.onlyBlankLeft()) {
        const auto t = parseTensorLine(cursor, cursor.next());
        auto [it, fresh] = table.pos.emplace(t.id, table.tensors.size());
        if (!fresh)
            cursor.failHere(fmt::format("tensor{} is listed twice (first on line {}); expected "
                                        "each tensor once",
                                        t.id, it->second + 1),
                            1);
        table.tensors.push_back({t.id, t.bytes, t.weight, fmt::format("tensor{}", t.id)});
    }
    if (table.tensors.empty())
        cursor.failAtEnd("one line per tensor: tensor<N> Is weight (global)?: <0|1>, Size in "
                         "byte: <bytes>, Range:<start>--<end>");
    return table;
}

class KernelsParser {
public:
    KernelsParser(const std::string& file, std::string_view text, const TensorTable& tensors,
                  const std::string& tensorsFile)
        : cursor_(file, text), tensors_(tensors), tensorsFile_(tensorsFile) {}

    std::vector<G10RawKernel> parse(size_t sizeHint) {
        std::vector<G10RawKernel> kernels;
        kernels.reserve(sizeHint);
        while (!cursor_.onlyBlankLeft()) kernels.push_back(parseKernel(kernels.size()));
        if (kernels.empty())
            cursor_.failAtEnd("a kernel block starting with 'Kernel ID: 0, Name: <kernel>'");
        checkEveryTensorNamed(kernels);
        return kernels;
    }

private:
    // The file has no end marker: cut at a kernel boundary it still parses. G10 lists in
    // tensors.config exactly the tensors its kernels use, so a listed tensor that no kernel
    // names means kernels are missing. The error sits at the last line read.
    void checkEveryTensorNamed(const std::vector<G10RawKernel>& kernels) const {
        std::unordered_set<TensorId> named;
        for (const auto& k : kernels) {
            named.insert(k.inputs.begin(), k.inputs.end());
            named.insert(k.outputs.begin(), k.outputs.end());
        }
        for (size_t i = 0; i < tensors_.tensors.size(); ++i) {
            const auto& t = tensors_.tensors[i];
            if (named.contains(t.id)) continue;
            const auto& last = kernels.back();
            cursor_.failHere(fmt::format("the file ends here after {} kernels (the last is kernel "
                                         "{}, {}), but {} lists tensor{} (line {}), which no kernel "
                                         "names; expected every listed tensor to be used by a "
                                         "kernel: this kernels.config is cut short, or the two "
                                         "files belong to different workloads",
                                         kernels.size(), last.id, last.name, tensorsFile_, t.id, i + 1));
        }
    }

    std::string_view nextLine(std::string_view expected) {
        if (cursor_.atEnd()) cursor_.failAtEnd(std::string(expected));
        return cursor_.next();
    }

    G10RawKernel parseKernel(size_t position) {
        G10RawKernel k;
        {
            G10LineFields f(cursor_, nextLine("'Kernel ID: <n>, Name: <kernel>'"));
            f.expect("Kernel ID: ", "the start of a kernel block");
            const auto idColumn = f.column();
            k.id = f.integer("the kernel id");
            if (k.id != static_cast<KernelId>(position))
                cursor_.failHere(fmt::format("expected kernel id {} (kernels are numbered in "
                                             "order from 0), found {}",
                                             position, k.id),
                                 idColumn);
            f.expect(", Name: ", "the kernel name");
            k.name = std::string(f.word("the kernel name"));
            f.expectEnd("the kernel name");
        }
        {
            // Transformer kernels name a parent op, CNN kernels a parent layer.
            G10LineFields f(cursor_, nextLine("'Parent OP ID:<n>; Name: <op>'"));
            if (f.tryExpect("Parent OP ID:")) {
                k.parentId = f.integer("the parent op id");
                f.expect("; Name: ", "the parent op name");
            } else {
                f.expect("Parent Layer ID:", "the parent op or layer");
                k.parentId = f.integer("the parent layer id");
                f.expect("; Name:", "the parent layer name");
            }
            k.op = std::string(f.word("the parent op or layer name"));
            f.expectEnd("the parent name");
        }
        {
            G10LineFields f(cursor_, nextLine("'Execution Time: <cycles>'"));
            f.expect("Execution Time: ", "the kernel time in cycles");
            const auto column = f.column();
            const auto cycles = f.integer("the kernel time in cycles at 1.2 GHz");
            if (cycles < 0)
                cursor_.failHere(fmt::format("expected a kernel time of 0 cycles or more, found "
                                             "{}",
                                             cycles),
                                 column);
            k.cycles = cycles;
            f.expectEnd("the kernel time");
        }
        // CNN layers add their input shape "(N,C,H,W)": informative only.
        if (cursor_.peek().starts_with("(")) {
            const auto line = cursor_.next();
            if (!line.ends_with(")"))
                G10LineFields(cursor_, line).fail("a layer shape '(N,C,H,W)'");
        }
        {
            G10LineFields f(cursor_, nextLine("'Input Tensors:'"));
            f.expect("Input Tensors:", "the list of input tensors");
            f.expectEnd("'Input Tensors:'");
        }
        while (!cursor_.peek().starts_with("Output Tensors:") &&
               !cursor_.peek().starts_with("_") && !cursor_.atEnd())
            k.inputs.push_back(tensorRef(cursor_.next(), k));
        {
            G10LineFields f(cursor_, nextLine("'Output Tensors:'"));
            f.expect("Output Tensors:", "the list of output tensors");
            f.expectEnd("'Output Tensors:'");
        }
        while (!cursor_.peek().starts_with("_") && !cursor_.atEnd())
            k.outputs.push_back(tensorRef(cursor_.next(), k));
        {
            const auto line = nextLine("the line of underscores that ends a kernel block");
            if (line.empty() || line.find_first_not_of('_') != std::string_view::npos)
                G10LineFields(cursor_, line)
                    .fail("the line of underscores that ends a kernel block");
        }
        return k;
    }

    TensorId tensorRef(std::string_view line, const G10RawKernel& k) {
        const auto t = parseTensorLine(cursor_, line);
        const auto it = tensors_.pos.find(t.id);
        if (it == tensors_.pos.end())
            cursor_.failHere(fmt::format("kernel {} ({}) names tensor{}, which {} does not list; "
                                         "expected every tensor a kernel names to be listed there",
                                         k.id, k.name, t.id, tensorsFile_),
                             1);
        const auto& listed = tensors_.tensors[it->second];
        if (listed.bytes != t.bytes || listed.weight != t.weight)
            cursor_.failHere(fmt::format("tensor{} has size {} and weight flag {} here but size "
                                         "{} and weight flag {} in {} (line {}); expected the "
                                         "same",
                                         t.id, t.bytes, int(t.weight), listed.bytes,
                                         int(listed.weight), tensorsFile_, it->second + 1),
                             1);
        return t.id;
    }

    G10LineCursor cursor_;
    const TensorTable& tensors_;
    const std::string& tensorsFile_;
};

}  // namespace

G10RawWorkload parseG10Configs(const std::string& kernelsFile, std::string_view kernelsText,
                               const std::string& tensorsFile, std::string_view tensorsText) {
    TensorTable table = parseTensors(tensorsFile, tensorsText);
    G10RawWorkload w;
    // About nine lines per kernel in practice; only a capacity hint.
    const auto hint = static_cast<size_t>(std::count(kernelsText.begin(), kernelsText.end(), '\n') / 9 + 1);
    w.kernels = KernelsParser(kernelsFile, kernelsText, table, tensorsFile).parse(hint);
    w.tensors = std::move(table.tensors);
    std::sort(w.tensors.begin(), w.tensors.end(),
              [](const auto& a, const auto& b) { return a.id < b.id; });
    return w;
}

G10RawWorkload readG10Configs(const std::filesystem::path& kernelsConfig) {
    const auto tensorsConfig = kernelsConfig.parent_path() / "tensors.config";
    const std::string kernels = readFileText(kernelsConfig);
    const std::string tensors = readFileText(tensorsConfig);
    auto workload = parseG10Configs(kernelsConfig.string(), kernels, tensorsConfig.string(), tensors);
    checkG10KernelCountBeside(kernelsConfig, kernels, workload.kernels.size());
    return workload;
}

}  // namespace spillway
