# Man pages, made at build time from each program's --help with help2man (Debian's help2man), so
# they never fall behind the options. Installed gzipped (-n: no timestamp, reproducible) to
# share/man/man1, as Debian policy wants.
find_program(SPILLWAY_HELP2MAN help2man)
if(NOT SPILLWAY_HELP2MAN)
  message(WARNING "help2man not found: the packages will have no man pages (scripts/install-deps installs it)")
endif()

# spillway_man_page(NAME SUMMARY PROGRAM [COMPONENT]): PROGRAM is a target or a file. help2man runs
# NAME through PATH (the program's folder first) so the page says `NAME`, not the build path;
# --version-string because not every program has --version. Qt's app needs a platform to start.
function(spillway_man_page name summary program)
  if(NOT SPILLWAY_HELP2MAN)
    return()
  endif()
  set(component Unspecified)
  if(ARGC GREATER 3)
    set(component ${ARGV3})
  endif()
  if(TARGET ${program})
    set(dir $<TARGET_FILE_DIR:${program}>)
  else()
    get_filename_component(dir ${program} DIRECTORY)
  endif()
  set(page ${CMAKE_BINARY_DIR}/man/${name}.1)
  add_custom_command(OUTPUT ${page}.gz
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/man
    COMMAND ${CMAKE_COMMAND} -E env "PATH=${dir}:/usr/bin:/bin" QT_QPA_PLATFORM=offscreen
            ${SPILLWAY_HELP2MAN} --no-info --version-string=${PROJECT_VERSION} --name=${summary}
            --section=1 --output=${page} ${name}
    COMMAND gzip -9nf ${page}
    DEPENDS ${program}
    COMMENT "Man page ${name}.1 from ${name} --help"
    VERBATIM)
  add_custom_target(man_${name} ALL DEPENDS ${page}.gz)
  install(FILES ${page}.gz DESTINATION share/man/man1 COMPONENT ${component})
endfunction()

if(SPILLWAY_BUILD_GUI)
  spillway_man_page(spillway "explore GPU memory of deep-learning training profiles" spillway)
endif()
spillway_man_page(spillway-cli "inspect, convert, simulate and plan GPU memory profiles" spillway-cli)
spillway_man_page(spillway-replay "replay an exported Spillway plan on a GPU and measure it" spillway-replay)
spillway_man_page(spillway-calibrate "measure this machine's GPU into a spillway.hardware/1 file" spillway-calibrate)
