#pragma once
// Human-readable units, one definition for every front end: "1.50 GiB", "2.345 ms".
#include "core/trace/units.h"

#include <string>

namespace spillway {

std::string readableBytes(Bytes bytes);
std::string readableDuration(Nanoseconds ns);

}  // namespace spillway
