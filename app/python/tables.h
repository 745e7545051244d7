#pragma once
// What the Python module hands to pandas: plain C++ columns and flat records, built without the
// interpreter (so the GIL is released while they are made) and converted by pybind11's STL
// casters into lists of (name, values) pairs that `pandas.DataFrame(dict(pairs))` takes as is.
// Pairs rather than a map: the columns keep the order they were added in.
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace spillway::python {

using Column = std::variant<std::vector<std::int64_t>, std::vector<double>, std::vector<std::string>,
                            std::vector<bool>, std::vector<std::vector<std::int64_t>>>;
using Table = std::vector<std::pair<std::string, Column>>;

// One flat dict: exact integers (bytes, nanoseconds, counts), seconds as floats, names, flags;
// monostate is None.
using Value = std::variant<std::monostate, bool, std::int64_t, double, std::string>;
using Record = std::vector<std::pair<std::string, Value>>;

// A named column with one value per element of `items`: `value(item)` as a T.
template <typename T, typename Items, typename F>
std::pair<std::string, Column> column(std::string name, const Items& items, F&& value) {
    std::vector<T> values;
    values.reserve(items.size());
    for (const auto& item : items) values.push_back(static_cast<T>(value(item)));
    return {std::move(name), Column(std::move(values))};
}

// Nanoseconds as seconds, for the *_s fields beside the exact *_ns ones.
inline double seconds(std::int64_t ns) { return static_cast<double>(ns) / 1e9; }

}  // namespace spillway::python
