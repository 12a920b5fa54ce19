# CPACK_PRE_BUILD_SCRIPTS (packaging/cpack.cmake): Debian's conventions for the .debs, applied to
# what CPack installed before it packs it. Each package gets /usr/share/doc/PACKAGE/copyright
# (machine-readable, packaging/debian-copyright) instead of a LICENSE file, and its man pages are
# compressed with gzip -9n (no name or time stamp, so a rebuild gives the same bytes).
if(NOT CPACK_GENERATOR STREQUAL "DEB")
  return()
endif()
# One staging folder per component (CPACK_DEB_COMPONENT_INSTALL), named after the component.
foreach(component Unspecified dev)
  set(root ${CPACK_TEMPORARY_DIRECTORY}/${component}${CPACK_PACKAGING_INSTALL_PREFIX})
  if(NOT IS_DIRECTORY ${root})
    continue()
  endif()
  string(TOUPPER ${component} upper)
  set(package ${CPACK_DEBIAN_${upper}_PACKAGE_NAME})
  set(doc_dir ${root}/share/doc/${package})
  file(MAKE_DIRECTORY ${doc_dir})
  file(REMOVE ${doc_dir}/LICENSE)  # its text is in the copyright file and /usr/share/common-licenses
  file(READ ${CPACK_TUNER_DEBIAN_COPYRIGHT} copyright)
  file(WRITE ${doc_dir}/copyright "${copyright}")
  file(GLOB_RECURSE pages ${root}/share/man/*.[1-9])
  foreach(page IN LISTS pages)
    execute_process(COMMAND gzip -9nf ${page} RESULT_VARIABLE status)
    if(NOT status EQUAL 0)
      message(FATAL_ERROR "gzip -9n ${page} failed (${status})")
    endif()
  endforeach()
endforeach()
