#pragma once
// Pickle opcodes (CPython Lib/pickletools.py), by byte. The reader implements only the plain
// data ones; the rest are listed so a refusal can name what it saw.
#include <cstdint>
#include <string_view>

namespace spillway::pickle_op {

// Accepted: structure and plain values.
inline constexpr std::uint8_t PROTO = 0x80;
inline constexpr std::uint8_t FRAME = 0x95;
inline constexpr std::uint8_t STOP = '.';
inline constexpr std::uint8_t MARK = '(';
inline constexpr std::uint8_t EMPTY_DICT = '}';
inline constexpr std::uint8_t EMPTY_LIST = ']';
inline constexpr std::uint8_t EMPTY_TUPLE = ')';
inline constexpr std::uint8_t SETITEM = 's';
inline constexpr std::uint8_t SETITEMS = 'u';
inline constexpr std::uint8_t APPEND = 'a';
inline constexpr std::uint8_t APPENDS = 'e';
inline constexpr std::uint8_t TUPLE = 't';
inline constexpr std::uint8_t TUPLE1 = 0x85;
inline constexpr std::uint8_t TUPLE2 = 0x86;
inline constexpr std::uint8_t TUPLE3 = 0x87;
inline constexpr std::uint8_t NONE = 'N';
inline constexpr std::uint8_t NEWTRUE = 0x88;
inline constexpr std::uint8_t NEWFALSE = 0x89;
inline constexpr std::uint8_t BININT = 'J';
inline constexpr std::uint8_t BININT1 = 'K';
inline constexpr std::uint8_t BININT2 = 'M';
inline constexpr std::uint8_t LONG1 = 0x8a;
inline constexpr std::uint8_t LONG4 = 0x8b;
inline constexpr std::uint8_t BINFLOAT = 'G';
inline constexpr std::uint8_t BINUNICODE = 'X';
inline constexpr std::uint8_t SHORT_BINUNICODE = 0x8c;
inline constexpr std::uint8_t BINUNICODE8 = 0x8d;
inline constexpr std::uint8_t BINBYTES = 'B';
inline constexpr std::uint8_t SHORT_BINBYTES = 'C';
inline constexpr std::uint8_t BINBYTES8 = 0x8e;
inline constexpr std::uint8_t MEMOIZE = 0x94;
inline constexpr std::uint8_t BINPUT = 'q';
inline constexpr std::uint8_t LONG_BINPUT = 'r';
inline constexpr std::uint8_t BINGET = 'h';
inline constexpr std::uint8_t LONG_BINGET = 'j';

// Opcode name for a byte ("GLOBAL", "REDUCE" ...), or empty when the byte is no opcode.
std::string_view opcodeName(std::uint8_t op);

// Why an opcode is refused, for the error message: code execution, object construction, or
// simply not part of the plain-data subset that memory snapshots use.
std::string_view refusalReason(std::uint8_t op);

}  // namespace spillway::pickle_op
