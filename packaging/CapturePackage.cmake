# The spillway-capture package: the CUPTI injection library and its launcher, apart from
# spillway because it needs NVIDIA's CUDA 13 CUPTI, which is no Debian package. Built only where
# runtime/capture was (nvcc and CUPTI found); elsewhere the packages are made without it.
if(NOT TARGET spillway_capture)
  return()
endif()

# runtime/capture installs its files without a COMPONENT (the "Unspecified" one, i.e. the
# spillway package). Here they are installed again as component "capture", and taken back out of
# the spillway package's staging tree: only when CPack installs the Unspecified component alone
# (CMAKE_INSTALL_COMPONENT is then set), never in a plain `cmake --install`. These rules run
# after runtime/'s (CMP0082: install rules run in the order of add_subdirectory()).
install(TARGETS spillway_capture LIBRARY DESTINATION lib/spillway COMPONENT capture)
install(PROGRAMS ${CMAKE_BINARY_DIR}/runtime/capture/spillway-capture DESTINATION bin COMPONENT capture)
install(CODE [[
  if(CMAKE_INSTALL_COMPONENT STREQUAL "Unspecified")
    set(root "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}")
    file(REMOVE "${root}/lib/spillway/libspillway_capture.so" "${root}/bin/spillway-capture")
    file(GLOB left "${root}/lib/spillway/*")
    if(NOT left)
      file(REMOVE_RECURSE "${root}/lib/spillway")
    endif()
  endif()
]] COMPONENT Unspecified)
spillway_man_page(spillway-capture "record what a CUDA program's GPU does as a Spillway profile"
                  ${CMAKE_BINARY_DIR}/runtime/capture/spillway-capture capture)

# The CUDA major.minor nvcc reports: NVIDIA's packages carry it in their names (cuda-cupti-13-0).
execute_process(COMMAND ${CMAKE_CUDA_COMPILER} --version OUTPUT_VARIABLE nvcc_version)
string(REGEX MATCH "release ([0-9]+)\\.([0-9]+)" _ "${nvcc_version}")
set(SPILLWAY_CUDA_PACKAGE_SUFFIX "${CMAKE_MATCH_1}-${CMAKE_MATCH_2}")

list(APPEND CPACK_COMPONENTS_ALL capture)
set(CPACK_DEBIAN_CAPTURE_PACKAGE_NAME "spillway-capture")
set(CPACK_DEBIAN_CAPTURE_FILE_NAME DEB-DEFAULT)
# libcupti.so.13 comes from NVIDIA's CUDA repository (cuda-cupti-13-0); the CUDA runtime and
# driver are the captured program's own, so they are not named. The library's RUNPATH is the
# CUPTI folder of the build machine (runtime/capture/CMakeLists.txt).
set(CPACK_DEBIAN_CAPTURE_PACKAGE_DEPENDS
    "libc6 (>= 2.36), libstdc++6 (>= 12), libgcc-s1, libfmt9, zlib1g, cuda-cupti-${SPILLWAY_CUDA_PACKAGE_SUFFIX}")
set(CPACK_DEBIAN_CAPTURE_PACKAGE_RECOMMENDS "spillway (= ${PROJECT_VERSION})")
set(CPACK_DEBIAN_CAPTURE_DESCRIPTION
    "CUPTI capture of CUDA programs as Spillway profiles
A CUPTI injection library that any CUDA program loads, and the spillway-capture
launcher: records kernels, allocations, copies, unified-memory faults and
migrations and NVTX ranges, and writes a spillway.profile/1 file. Needs CUDA
${CMAKE_MATCH_1}.${CMAKE_MATCH_2}'s CUPTI from NVIDIA's CUDA repository.")
# Where the packaging tests look up a library no Debian package holds.
file(WRITE ${CMAKE_BINARY_DIR}/packaging/deb-external-libraries.txt
     "libcupti.so.${CMAKE_MATCH_1} cuda-cupti-${SPILLWAY_CUDA_PACKAGE_SUFFIX}\n")
