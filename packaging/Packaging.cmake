# CPack: `cpack` in the build folder makes the .deb packages and a .tar.gz (docs/packaging.md).
#   spillway          the app, spillway-cli, spillway-replay, spillway-calibrate, `import spillway`,
#                     man pages, .desktop, MIME types, AppStream, icon, schemas, samples
#   spillway-capture  the CUPTI injection library and its launcher (only where it was built:
#                     nvcc and CUPTI found); needs NVIDIA's CUDA 13 CUPTI package
# The .tar.gz holds both (CPackPerGenerator.cmake).
install(FILES ${CMAKE_SOURCE_DIR}/packaging/spillway.desktop DESTINATION share/applications)
# AppStream wants the file named after the component id.
install(FILES ${CMAKE_SOURCE_DIR}/packaging/spillway.metainfo.xml DESTINATION share/metainfo
        RENAME invalid.example.spillway.metainfo.xml)
# Spillway's own file types, so the .desktop file claims them and not every JSON file.
install(FILES ${CMAKE_SOURCE_DIR}/packaging/spillway-mime.xml DESTINATION share/mime/packages
        RENAME spillway.xml)
install(FILES ${CMAKE_SOURCE_DIR}/resources/icons/spillway.svg
        DESTINATION share/icons/hicolor/scalable/apps)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/resources/schemas/ DESTINATION share/spillway/schemas)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/samples/ DESTINATION share/spillway/samples
        PATTERN "__pycache__" EXCLUDE)
# Debian wants the licence as share/doc/<package>/copyright (machine-readable format 1.0).
install(FILES ${CMAKE_SOURCE_DIR}/packaging/copyright ${CMAKE_SOURCE_DIR}/LICENSE
              ${CMAKE_SOURCE_DIR}/README.md DESTINATION share/doc/spillway)
include(${CMAKE_SOURCE_DIR}/packaging/ManPages.cmake)

set(CPACK_PACKAGE_NAME "spillway")
set(CPACK_PACKAGE_VENDOR "Spillway developers")
set(CPACK_PACKAGE_CONTACT "Spillway developers <spillway@example.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_RESOURCE_FILE_LICENSE "${CMAKE_SOURCE_DIR}/LICENSE")
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_PROJECT_CONFIG_FILE "${CMAKE_SOURCE_DIR}/packaging/CPackPerGenerator.cmake")
# RelWithDebInfo binaries carry ~70 MB of debug info; packages ship them stripped.
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_SECTION "science")
set(CPACK_DEBIAN_PACKAGE_LICENSE "GPL-3.0-or-later")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)

# One .deb per component. Every install() without a COMPONENT is CMake's "Unspecified": that is
# the spillway package.
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL Unspecified)
set(CPACK_DEBIAN_UNSPECIFIED_PACKAGE_NAME "spillway")
set(CPACK_DEBIAN_UNSPECIFIED_FILE_NAME DEB-DEFAULT)
# Declared by hand (not dpkg-shlibdeps, which wants a debian/ tree) so the package builds the
# same way everywhere; tests/packaging/deb_depends_test.sh checks that every library an ELF file
# in the package loads (its NEEDED entries, `dpkg -S` on the host) is named here, and nothing
# that none loads apart from SPILLWAY_DEB_RUNTIME_ONLY. Qt Concurrent and PrintSupport are
# linked but not NEEDED (nothing in them is called directly; --as-needed drops them).
set(CPACK_DEBIAN_UNSPECIFIED_PACKAGE_DEPENDS
    "libc6 (>= 2.36), libstdc++6 (>= 12), libgcc-s1, libqt6core6 (>= 6.4), libqt6gui6 (>= 6.4), libqt6widgets6 (>= 6.4), libqt6svg6 (>= 6.4), libqcustomplot2.1-qt6, libfmt9, libtbb12, coinor-libcbc3, libsqlite3-0 (>= 3.40), libssl3, zlib1g")
# Loaded at run time, not linked: Qt's platform plugins (xcb, offscreen) the app cannot start
# without. The packaging test accepts these without a NEEDED entry.
set(SPILLWAY_DEB_RUNTIME_ONLY "qt6-qpa-plugins")
# `import spillway` (app/python, SPILLWAY_BUILD_PYTHON) goes into the same package, in Debian's
# python3 dist-packages: an extension built for this python3's minor version, and pandas.
if(SPILLWAY_BUILD_PYTHON)
  math(EXPR SPILLWAY_PYTHON_NEXT_MINOR "${Python_VERSION_MINOR} + 1")
  list(APPEND SPILLWAY_DEB_RUNTIME_ONLY python3 python3-pandas)
  set(SPILLWAY_DEB_RUNTIME_ONLY_DEPENDS
      "python3 (>= ${Python_VERSION_MAJOR}.${Python_VERSION_MINOR}), python3 (<< ${Python_VERSION_MAJOR}.${SPILLWAY_PYTHON_NEXT_MINOR}), python3-pandas, ")
endif()
string(APPEND CPACK_DEBIAN_UNSPECIFIED_PACKAGE_DEPENDS
       ", ${SPILLWAY_DEB_RUNTIME_ONLY_DEPENDS}qt6-qpa-plugins")
# First line: the package's summary (CPackPerGenerator.cmake keeps CPack from putting the
# project's summary before it); CPack indents the rest.
set(CPACK_DEBIAN_UNSPECIFIED_DESCRIPTION
    "GPU memory oversubscription explorer for deep-learning training
Spillway replays GPU-memory profiles of training iterations (PyTorch traces and
snapshots, CUPTI captures, Nsight Systems exports, G10 workloads) through a
simulator of GPU memory, host memory and SSD under migration policies (UVM,
DeepUM, G10, MOST, TENSILE and more), plans operator order and arena layout,
and replays plans on a GPU. Contains the desktop app spillway, spillway-cli,
spillway-replay, spillway-calibrate and the Python module spillway.")

# Libraries no Debian package holds, "soname package" a line (CapturePackage.cmake adds CUPTI).
file(WRITE ${CMAKE_BINARY_DIR}/packaging/deb-external-libraries.txt "")
include(${CMAKE_SOURCE_DIR}/packaging/CapturePackage.cmake)

# Read back by the packaging tests (tests/packaging/), which check the .deb against them.
file(WRITE ${CMAKE_BINARY_DIR}/packaging/deb-runtime-only.txt "${SPILLWAY_DEB_RUNTIME_ONLY}\n")
include(CPack)
