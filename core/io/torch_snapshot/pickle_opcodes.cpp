#include "core/io/torch_snapshot/pickle_opcodes.h"

namespace spillway::pickle_op {

std::string_view opcodeName(std::uint8_t op) {
    switch (op) {
        // Plain data: the ones the reader implements.
        case PROTO: return "PROTO";
        case FRAME: return "FRAME";
        case STOP: return "STOP";
        case MARK: return "MARK";
        case EMPTY_DICT: return "EMPTY_DICT";
        case EMPTY_LIST: return "EMPTY_LIST";
        case EMPTY_TUPLE: return "EMPTY_TUPLE";
        case SETITEM: return "SETITEM";
        case SETITEMS: return "SETITEMS";
        case APPEND: return "APPEND";
        case APPENDS: return "APPENDS";
        case TUPLE: return "TUPLE";
        case TUPLE1: return "TUPLE1";
        case TUPLE2: return "TUPLE2";
        case TUPLE3: return "TUPLE3";
        case NONE: return "NONE";
        case NEWTRUE: return "NEWTRUE";
        case NEWFALSE: return "NEWFALSE";
        case BININT: return "BININT";
        case BININT1: return "BININT1";
        case BININT2: return "BININT2";
        case LONG1: return "LONG1";
        case LONG4: return "LONG4";
        case BINFLOAT: return "BINFLOAT";
        case BINUNICODE: return "BINUNICODE";
        case SHORT_BINUNICODE: return "SHORT_BINUNICODE";
        case BINUNICODE8: return "BINUNICODE8";
        case BINBYTES: return "BINBYTES";
        case SHORT_BINBYTES: return "SHORT_BINBYTES";
        case BINBYTES8: return "BINBYTES8";
        case MEMOIZE: return "MEMOIZE";
        case BINPUT: return "BINPUT";
        case LONG_BINPUT: return "LONG_BINPUT";
        case BINGET: return "BINGET";
        case LONG_BINGET: return "LONG_BINGET";
        // Refused: they import names, call them, or build arbitrary objects.
        case 'c': return "GLOBAL";
        case 0x93: return "STACK_GLOBAL";
        case 'R': return "REDUCE";
        case 'b': return "BUILD";
        case 'i': return "INST";
        case 'o': return "OBJ";
        case 0x81: return "NEWOBJ";
        case 0x92: return "NEWOBJ_EX";
        case 0x82: return "EXT1";
        case 0x83: return "EXT2";
        case 0x84: return "EXT4";
        case 'P': return "PERSID";
        case 'Q': return "BINPERSID";
        // Refused: valid pickle, but outside the subset (text protocol 0/1 forms, sets,
        // out-of-band buffers, stack manipulation).
        case 'I': return "INT";
        case 'L': return "LONG";
        case 'F': return "FLOAT";
        case 'S': return "STRING";
        case 'T': return "BINSTRING";
        case 'U': return "SHORT_BINSTRING";
        case 'V': return "UNICODE";
        case 'l': return "LIST";
        case 'd': return "DICT";
        case 'p': return "PUT";
        case 'g': return "GET";
        case '0': return "POP";
        case '1': return "POP_MARK";
        case '2': return "DUP";
        case 0x8f: return "EMPTY_SET";
        case 0x90: return "ADDITEMS";
        case 0x91: return "FROZENSET";
        case 0x96: return "BYTEARRAY8";
        case 0x97: return "NEXT_BUFFER";
        case 0x98: return "READONLY_BUFFER";
        default: return {};
    }
}

std::string_view refusalReason(std::uint8_t op) {
    switch (op) {
        case 'c':
        case 0x93:
            return "it imports a Python name (module attribute), the first step of running code";
        case 'R':
        case 'i':
        case 'o':
        case 0x81:
        case 0x92:
            return "it calls a Python object to construct a value, which can run arbitrary code";
        case 'b':
            return "it sets state on an arbitrary object, which can run arbitrary code";
        case 0x82:
        case 0x83:
        case 0x84:
            return "it loads a registered extension object, which can run code";
        case 'P':
        case 'Q':
            return "it asks the application to resolve a persistent object reference";
        default:
            return "it is not part of the plain-data subset (dict, list, tuple, str, bytes, int, "
                   "float, bool, None) that PyTorch memory snapshots use";
    }
}

}  // namespace spillway::pickle_op
