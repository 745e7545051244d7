# Read by cpack once per generator (CPACK_PROJECT_CONFIG_FILE): the .deb installs under /usr,
# the .tar.gz is relocatable (bin/, share/ at its top, unpack anywhere).
if(CPACK_GENERATOR STREQUAL "TGZ")
  set(CPACK_PACKAGING_INSTALL_PREFIX "/")
endif()
