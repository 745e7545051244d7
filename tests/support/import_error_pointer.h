#pragma once
// Where a reader's refusal points: runs `f` and returns the JSON pointer of the ImportError it
// throws ("(no pointer) MESSAGE" when the error has none, "(no error)" when it throws nothing).
#include "core/io/base/import_error.h"

#include <string>

namespace spillway::test {

template <typename F>
std::string importErrorPointer(F&& f) {
    try {
        f();
    } catch (const ImportError& e) {
        return e.location().jsonPointer.empty() ? "(no pointer) " + e.message() : e.location().jsonPointer;
    }
    return "(no error)";
}

}  // namespace spillway::test
