# One man page per command, made from the built tool's --help by help2man at build time, so a page
# never says what the tool does not. tuner(1) is the overview; tuner-COMMAND(1) each command.
find_program(HELP2MAN help2man)
if(NOT HELP2MAN)
  # Only the full build needs them (the tool alone, scripts/build.sh --tool, does without).
  if(TUNER_BUILD_TESTS)
    message(WARNING "help2man not found (scripts/install-deps.sh installs it): no man pages are built or installed")
  else()
    message(STATUS "help2man not found: no man pages are built or installed")
  endif()
  return()
endif()

# The commands of `tuner --help`; man_pages_test checks that this list and the tool agree.
set(TUNER_COMMANDS devices kernels occupancy explore new tune query simulate report db import export)

set(man_dir ${CMAKE_BINARY_DIR}/man)
# The sections every page shares (help2man --include), SEE ALSO naming every page of the list above.
set(TUNER_SEE_ALSO ".BR tuner (1)")
foreach(command ${TUNER_COMMANDS})
  string(APPEND TUNER_SEE_ALSO ",\n.BR tuner\\-${command} (1)")
endforeach()
set(sections ${man_dir}/sections.h2m)
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/man_sections.h2m.in ${sections} @ONLY)
set(pages)
foreach(page tuner ${TUNER_COMMANDS})
  set(output ${man_dir}/man1/tuner-${page}.1)
  if(page STREQUAL "tuner")
    set(output ${man_dir}/man1/tuner.1)
    set(page "")
  endif()
  add_custom_command(OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DHELP2MAN=${HELP2MAN} -DTUNER=$<TARGET_FILE:tuner> -DCOMMAND=${page}
            -DVERSION=${PROJECT_VERSION} -DINCLUDE=${sections} -DOUTPUT=${output} -P ${CMAKE_CURRENT_SOURCE_DIR}/man_page.cmake
    DEPENDS tuner ${CMAKE_CURRENT_SOURCE_DIR}/man_page.cmake ${sections}
    COMMENT "Man page ${output}" VERBATIM)
  list(APPEND pages ${output})
endforeach()
add_custom_target(man_pages ALL DEPENDS ${pages})
install(DIRECTORY ${man_dir}/man1 DESTINATION ${CMAKE_INSTALL_MANDIR})
