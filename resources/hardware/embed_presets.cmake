# Writes a C++ source that holds every resources/hardware/*.json as a string, for
# core/hardware/hardware_preset_data.h. Run by the build (see core/CMakeLists.txt):
#   cmake -DINPUT_DIR=<resources/hardware> -DOUTPUT=<file.cpp> -P embed_presets.cmake
# The output is rewritten only when its text changes, so unchanged presets rebuild nothing.
file(GLOB preset_files "${INPUT_DIR}/*.json")
list(SORT preset_files)
set(entries "")
foreach(preset ${preset_files})
  file(READ "${preset}" text)
  string(FIND "${text}" ")spillway_json" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${preset} contains the raw-string delimiter )spillway_json")
  endif()
  get_filename_component(name "${preset}" NAME)
  string(APPEND entries "    {\"${name}\", R\"spillway_json(${text})spillway_json\"},\n")
endforeach()
if(entries STREQUAL "")
  set(body "    return {};\n")
else()
  set(body "    static constexpr EmbeddedHardwarePreset presets[] = {\n${entries}    };\n    return presets;\n")
endif()
file(WRITE "${OUTPUT}.tmp"
"// Generated from resources/hardware/*.json by resources/hardware/embed_presets.cmake; do not edit.
#include \"core/hardware/hardware_preset_data.h\"

namespace spillway {

std::span<const EmbeddedHardwarePreset> embeddedHardwarePresets() {
${body}}

}  // namespace spillway
")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
