# CPack: `cpack` in the build folder makes a .deb (with its Debian dependencies declared) and
# a .tar.gz holding the binaries, the .desktop file, the icon, the AppStream metadata, the schema
# and the samples.
install(FILES ${CMAKE_SOURCE_DIR}/packaging/spillway.desktop DESTINATION share/applications)
# AppStream wants the file named after the component id.
install(FILES ${CMAKE_SOURCE_DIR}/packaging/spillway.metainfo.xml DESTINATION share/metainfo
        RENAME invalid.example.spillway.metainfo.xml)
install(FILES ${CMAKE_SOURCE_DIR}/resources/icons/spillway.svg
        DESTINATION share/icons/hicolor/scalable/apps)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/resources/schemas/ DESTINATION share/spillway/schemas)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/samples/ DESTINATION share/spillway/samples
        PATTERN "__pycache__" EXCLUDE)
install(FILES ${CMAKE_SOURCE_DIR}/LICENSE ${CMAKE_SOURCE_DIR}/README.md DESTINATION share/doc/spillway)

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
# Declared by hand (not dpkg-shlibdeps) so the package builds the same way everywhere.
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libqt6widgets6 (>= 6.4), libqt6gui6 (>= 6.4), libqt6core6 (>= 6.4), libqt6concurrent6 (>= 6.4), libqt6printsupport6 (>= 6.4), libqt6svg6 (>= 6.4), libqcustomplot2.1-qt6, libfmt9, coinor-libcbc3, libsqlite3-0 (>= 3.40), libssl3, libstdc++6 (>= 12), libgcc-s1, libc6 (>= 2.36), qt6-qpa-plugins")
# `import spillway` (app/python, SPILLWAY_BUILD_PYTHON) goes into the same package, in Debian's
# python3 dist-packages: an extension built for this python3's minor version, and pandas.
if(SPILLWAY_BUILD_PYTHON)
  math(EXPR SPILLWAY_PYTHON_NEXT_MINOR "${Python_VERSION_MINOR} + 1")
  string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS
         ", python3 (>= ${Python_VERSION_MAJOR}.${Python_VERSION_MINOR}), "
         "python3 (<< ${Python_VERSION_MAJOR}.${SPILLWAY_PYTHON_NEXT_MINOR}), python3-pandas")
endif()
include(CPack)
