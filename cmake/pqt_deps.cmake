# pqt_deps.cmake - what an installed pqt tells its consumers: the link dependencies of the
# static library (for the CMake package and for pqt.pc), the relocatable paths of pqt.pc and
# the RPATH of the installed tool. Included by the top-level CMakeLists.txt after the
# dependencies are found; it only sets variables.
#
# Every path an installed file refers to is relative to where that file lands (${pcfiledir},
# $ORIGIN), so `cmake --install build --prefix DIR` works for any DIR and any libdir depth
# (lib, lib64, lib/x86_64-linux-gnu); an absolute CMAKE_INSTALL_*DIR is used as given.

# ---- the static library's link dependencies, as names ----
# pkg-config's --static list (libbrotlidec brings libbrotlicommon), then snappy, OpenMP's
# runtime as the C compiler links it (gomp;pthread for gcc, omp for clang), libm and dlopen's
# library (libcurl is not linked: src/remote/curl_api.c loads it on the first URL).
set(PQT_STATIC_DEPS "")
set(PQT_STATIC_DEP_DIRS "")
foreach(p ZSTD LZ4 ZLIB BROTLI XXHASH YAML)
  list(APPEND PQT_STATIC_DEPS ${${p}_STATIC_LIBRARIES})
  list(APPEND PQT_STATIC_DEP_DIRS ${${p}_STATIC_LIBRARY_DIRS})
endforeach()
get_filename_component(_pqt_snappy_dir "${SNAPPY_LIB}" DIRECTORY)
list(APPEND PQT_STATIC_DEPS snappy ${OpenMP_C_LIB_NAMES} m ${CMAKE_DL_LIBS})
list(REMOVE_DUPLICATES PQT_STATIC_DEPS)
# Directories the linker searches anyway are left out, so the package names no build paths.
set(_pqt_dirs "")
foreach(d ${PQT_STATIC_DEP_DIRS} ${_pqt_snappy_dir})
  if(NOT d IN_LIST CMAKE_C_IMPLICIT_LINK_DIRECTORIES)
    list(APPEND _pqt_dirs "${d}")
  endif()
endforeach()
set(PQT_STATIC_DEP_DIRS ${_pqt_dirs})
list(REMOVE_DUPLICATES PQT_STATIC_DEP_DIRS)

# ---- pqt.pc ----
# Requires.private: the dependencies whose .pc file is complete. Libs.private: the rest, in
# link order for `pkg-config --static`: snappy with the C++ runtime a static libsnappy needs
# (Debian's snappy.pc names neither, and pkg-config would put -lstdc++ before a required
# package's -lsnappy), brotli's encoder (its static library needs libm, which pkg-config would
# put before a required package's libraries), then OpenMP's runtime libraries, libm and libdl.
set(PQT_PC_REQUIRES_PRIVATE "libzstd liblz4 zlib libbrotlidec libxxhash yaml-0.1")
set(_pqt_libs snappy stdc++ brotlienc brotlicommon ${OpenMP_C_LIB_NAMES} m ${CMAKE_DL_LIBS})
list(REMOVE_DUPLICATES _pqt_libs)
list(TRANSFORM _pqt_libs PREPEND "-l")
list(JOIN _pqt_libs " " PQT_PC_LIBS_PRIVATE)
if(PQT_STATIC_DEP_DIRS)
  set(_pqt_ldirs ${PQT_STATIC_DEP_DIRS})
  list(TRANSFORM _pqt_ldirs PREPEND "-L")
  list(JOIN _pqt_ldirs " " _pqt_ldirs)
  set(PQT_PC_LIBS_PRIVATE "${_pqt_ldirs} ${PQT_PC_LIBS_PRIVATE}")
endif()

# prefix is found from where pqt.pc lies: LIBDIR/pkgconfig, as many levels below the prefix
# as LIBDIR has components plus one.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(PQT_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(PQT_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
else()
  file(RELATIVE_PATH _pqt_up "/pqt/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/pqt")
  string(REGEX REPLACE "/$" "" _pqt_up "${_pqt_up}")
  set(PQT_PC_PREFIX "\${pcfiledir}/${_pqt_up}")
  set(PQT_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(PQT_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(PQT_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()

# ---- RPATH of the installed tool: the library directory, relative to the tool ----
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(PQT_TOOL_RPATH "${CMAKE_INSTALL_LIBDIR}")
elseif(IS_ABSOLUTE "${CMAKE_INSTALL_BINDIR}")
  set(PQT_TOOL_RPATH "${CMAKE_INSTALL_FULL_LIBDIR}")
else()
  file(RELATIVE_PATH _pqt_rel "/pqt/${CMAKE_INSTALL_BINDIR}" "/pqt/${CMAKE_INSTALL_LIBDIR}")
  set(PQT_TOOL_RPATH "\$ORIGIN/${_pqt_rel}")
endif()
