# `cpack` in the build folder (or `cmake --build build --target package`): a .tar.gz of the install
# tree (unpack anywhere: the tool finds its templates relative to itself) and two .debs that install
# under /usr, split as Debian splits a tool from what applications build against:
#   tuner      the tool, its templates, man pages (gzip -9n), bash completion, LICENSE's terms
#   tuner-dev  the query and capture libraries: headers, static archives, CMake packages, examples
# The binary is portable (docs/getting-started.md): it needs glibc 2.34 and libgcc_s from the system,
# and libnvrtc.so.13 from the CUDA toolkit (or NVIDIA's nvidia-cuda-nvrtc wheel), which Debian does
# not package under one name, so no .deb can depend on it and `tuner tune` says when it is missing.
set(CPACK_PACKAGE_NAME tuner)
set(CPACK_PACKAGE_VENDOR "The tuner developers")
# The project has no mailing address of its own, and an invented one would bounce, so the default
# names the project alone; whoever publishes the packages sets a real "Name <address>":
#   cmake -S . -B build -DTUNER_PACKAGE_MAINTAINER="Jane Doe <jane@example.org>"
set(TUNER_PACKAGE_MAINTAINER "The tuner developers" CACHE STRING
    "the .deb's Maintainer field: 'Name <address>' of whoever publishes the packages")
set(CPACK_PACKAGE_CONTACT "${TUNER_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${TUNER_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Autotuner and occupancy explorer for CUDA kernels")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_GENERATOR "TGZ;DEB")
# The machine the build is for (x86_64, aarch64), in the .tar.gz's name and as Debian names it in the .debs'.
set(CPACK_PACKAGE_FILE_NAME tuner-${PROJECT_VERSION}-linux-${CMAKE_SYSTEM_PROCESSOR})
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR}/packages)
set(CPACK_STRIP_FILES ON)
# The .debs' man pages compressed and their copyright files, after CPack has installed what it
# packs and before it packs it (the .tar.gz is left as `cmake --install` makes it).
set(CPACK_PRE_BUILD_SCRIPTS ${CMAKE_CURRENT_LIST_DIR}/deb_conventions.cmake)
set(CPACK_TUNER_DEBIAN_COPYRIGHT ${CMAKE_CURRENT_LIST_DIR}/debian-copyright)

# The .tar.gz holds everything; the .debs are one per component: the tool's files install without
# a component (CPack's "Unspecified"), the libraries' as `dev`; `wheel` belongs to the Python wheel.
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL Unspecified dev)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE amd64)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64|ARM64)$")
  set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE arm64)
else()
  set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE ${CMAKE_SYSTEM_PROCESSOR})
endif()
set(CPACK_DEBIAN_UNSPECIFIED_PACKAGE_NAME tuner)
set(CPACK_DEBIAN_UNSPECIFIED_PACKAGE_DEPENDS "libc6 (>= 2.34), libgcc-s1")
set(CPACK_DEBIAN_UNSPECIFIED_PACKAGE_SUGGESTS "bash-completion")
set(CPACK_DEBIAN_UNSPECIFIED_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION_SUMMARY}
tuner compiles every configuration of a CUDA kernel template at run time with NVRTC, checks each
against a reference, times the correct ones on the GPU, explains their occupancy, and keeps the
fastest configuration per GPU in SQLite for applications to look up. It needs libnvrtc.so.13 from
a CUDA 13 toolkit at run time.")
set(CPACK_DEBIAN_DEV_PACKAGE_NAME tuner-dev)
# find_package(tuner_query) finds SQLite3 (libsqlite3-dev) and Threads (libc); the examples read the
# shipped templates of the tool's package. find_package(tuner_capture) also finds CUDAToolkit, which
# comes from NVIDIA's toolkit, not from a Debian package of one name (as libnvrtc above).
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "tuner (= ${PROJECT_VERSION}), libsqlite3-dev")
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_DESCRIPTION "tuner's libraries for applications
The query library (find_package(tuner_query), <tuner/tuned_config.h>) looks up the configurations
tuner stored; the capture library (find_package(tuner_capture), <tuner/launch.h>) captures a
kernel launch for tuner to tune. Static archives, headers, CMake packages and examples.")

include(CPack)
