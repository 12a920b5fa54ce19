# `cpack` in the build folder (or `cmake --build build --target package`): a .tar.gz of the install
# tree (unpack anywhere: the tool finds its templates relative to itself) and a .deb that installs
# under /usr. The binary is portable (README): it needs glibc 2.34 and libgcc_s from the system, and
# libnvrtc.so.13 from the CUDA toolkit (or NVIDIA's nvidia-cuda-nvrtc wheel), which Debian does not
# package under one name, so the .deb cannot depend on it and `tuner tune` says when it is missing.
set(CPACK_PACKAGE_NAME tuner)
set(CPACK_PACKAGE_VENDOR "tuner")
set(CPACK_PACKAGE_CONTACT "tuner maintainers <tuner@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Autotuner and occupancy explorer for CUDA kernels")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR "TGZ;DEB")
set(CPACK_PACKAGE_FILE_NAME tuner-${PROJECT_VERSION}-linux-x86_64)
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR}/packages)
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE amd64)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6 (>= 2.34), libgcc-s1")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "bash-completion")

include(CPack)
