# Read by cpack once per generator (CPACK_PROJECT_CONFIG_FILE): the .deb packages install under
# /usr, one per component (Packaging.cmake); the .tar.gz is one relocatable archive of all of
# them (bin/, share/ at its top, unpack anywhere).
if(CPACK_GENERATOR STREQUAL "TGZ")
  set(CPACK_PACKAGING_INSTALL_PREFIX "/")
  set(CPACK_ARCHIVE_COMPONENT_INSTALL OFF)
endif()
# CPackDeb puts CPACK_PACKAGE_DESCRIPTION_SUMMARY before every package's description; each
# component's description (Packaging.cmake) starts with its own summary line instead. CPack's
# default summary is the value it leaves alone.
if(CPACK_GENERATOR STREQUAL "DEB")
  set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${CPACK_DEFAULT_PACKAGE_DESCRIPTION_SUMMARY}")
endif()
