#pragma once
// JSON text for every file and --json output Spillway writes. Names come from the inputs as bytes
// (a G10 config, a pickle or an SQLite export may hold any byte), and JSON text must be UTF-8:
// nlohmann's dump throws on such a name. Here each byte that is not part of valid UTF-8 is
// written as the four characters \xHH (hex, upper case): the output stays valid, the byte stays
// visible, and writing the same name twice gives the same text. (The U+FFFD nlohmann can put
// instead would make different names look alike.) Valid text is written exactly as dump() does.
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace spillway {

// `indent` as nlohmann's dump: -1 is one line, 0 or more pretty-prints with that many spaces.
std::string dumpJson(const nlohmann::json& j, int indent = -1);
std::string dumpJson(const nlohmann::ordered_json& j, int indent = -1);

// `text` with every byte that is not part of a valid UTF-8 sequence written as \xHH.
std::string escapeInvalidUtf8(std::string_view text);

}  // namespace spillway
