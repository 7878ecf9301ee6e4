# fortran/parquet_mpi.cmake - module parquet_mpi (fortran/src/parquet_mpi.f90, docs/mpi.md
# "Fortran") as the library pqt-fortran-mpi, its .mod file and package files, and its tests
# under mpiexec. Included by fortran/CMakeLists.txt when the MPI component (target pqt_mpi)
# is built; needs MPI for Fortran with the mpi_f08 module, else it is skipped with a note.
# module parquet (pqt-fortran) never depends on MPI: this library sits beside it.
find_package(MPI QUIET COMPONENTS Fortran)
if(NOT MPI_Fortran_FOUND OR NOT MPI_Fortran_HAVE_F08_MODULE)
  message(STATUS "pqt: no MPI for Fortran with mpi_f08: module parquet_mpi not built")
  return()
endif()

set(PQT_FMPI_MODDIR ${CMAKE_CURRENT_BINARY_DIR}/mod_mpi)
add_library(pqt_fortran_mpi SHARED src/parquet_mpi.f90 src/parquet_mpi_c.c)
target_compile_options(pqt_fortran_mpi PRIVATE
                       $<$<COMPILE_LANGUAGE:Fortran>:${PQT_FORTRAN_FLAGS}>
                       $<$<COMPILE_LANGUAGE:C>:${PQT_WARNINGS}>)
# A program sees module parquet's types and mpi_f08's MPI_Comm (PUBLIC); pqt_mpi and MPI for C
# are the C half's own (PRIVATE), so a Fortran-only project can use the CMake package.
target_link_libraries(pqt_fortran_mpi PUBLIC pqt_fortran MPI::MPI_Fortran
                      PRIVATE pqt_mpi MPI::MPI_C)
set_target_properties(pqt_fortran_mpi PROPERTIES OUTPUT_NAME pqt-fortran-mpi
                      Fortran_MODULE_DIRECTORY ${PQT_FMPI_MODDIR}
                      VERSION ${PROJECT_VERSION} SOVERSION 0
                      INSTALL_RPATH "$ORIGIN")
target_include_directories(pqt_fortran_mpi PUBLIC
                           $<BUILD_INTERFACE:${PQT_FMPI_MODDIR}>
                           $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/pqt-fortran>)

# ---- install: library, parquet_mpi.mod beside parquet.mod, pkg-config, CMake package ----
install(TARGETS pqt_fortran_mpi EXPORT pqtFortranMpiTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${PQT_FMPI_MODDIR}/parquet_mpi.mod
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/pqt-fortran)
install(EXPORT pqtFortranMpiTargets NAMESPACE pqt::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/pqt-fortran-mpi)
configure_package_config_file(${CMAKE_CURRENT_SOURCE_DIR}/pqt-fortran-mpiConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/pqt-fortran-mpiConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/pqt-fortran-mpi)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/pqt-fortran-mpiConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/pqt-fortran-mpiConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/pqt-fortran-mpiConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/pqt-fortran-mpi)
# pkg-config: MPI's Fortran flags as FindMPI found them (where mpi_f08.mod is, its libraries)
set(PQT_FMPI_PC_CFLAGS "")
foreach(d ${MPI_Fortran_INCLUDE_DIRS})
  string(APPEND PQT_FMPI_PC_CFLAGS " -I${d}")
endforeach()
set(PQT_FMPI_PC_LIBS "")
foreach(l ${MPI_Fortran_LIBRARIES})
  string(APPEND PQT_FMPI_PC_LIBS " ${l}")
endforeach()
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/pqt-fortran-mpi.pc.in
               ${CMAKE_CURRENT_BINARY_DIR}/pqt-fortran-mpi.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/pqt-fortran-mpi.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

if(NOT PQT_BUILD_TESTS)
  return()
endif()

# ---- tests: fortran/tests/mpi/test_*.f90 and examples/mpi_*.f90 under mpiexec -n 1..4 ----
# The flags and environment of mpi/CMakeLists.txt: Open MPI as root needs its run-as-root
# switch, and more ranks than cores need --oversubscribe.
set(PQT_FMPI_FLAGS ${MPIEXEC_PREFLAGS})
set(PQT_FMPI_ENV OMP_NUM_THREADS=2)
execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version OUTPUT_VARIABLE PQT_FMPI_VERSION
                ERROR_QUIET)
if(PQT_FMPI_VERSION MATCHES "Open MPI|OpenRTE")
  list(APPEND PQT_FMPI_FLAGS --oversubscribe)
  list(APPEND PQT_FMPI_ENV OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
       OMPI_MCA_rmaps_base_oversubscribe=1)
endif()
if(PQT_SANITIZE)
  list(APPEND PQT_FMPI_ENV ASAN_OPTIONS=detect_leaks=0)
endif()
file(GLOB PQT_FMPI_PROGRAMS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tests/mpi/test_*.f90
     ${CMAKE_CURRENT_SOURCE_DIR}/examples/mpi_*.f90)
foreach(src ${PQT_FMPI_PROGRAMS})
  get_filename_component(name ${src} NAME_WE)
  set(name fortran_${name})
  add_executable(${name} ${src})
  target_link_libraries(${name} PRIVATE pqt_fortran_mpi OpenMP::OpenMP_Fortran)
  target_compile_options(${name} PRIVATE -Wall)
  set_target_properties(${name} PROPERTIES Fortran_MODULE_DIRECTORY
                        ${CMAKE_CURRENT_BINARY_DIR}/mod_${name})
  foreach(np 1 2 3 4)
    add_test(NAME ${name}_np${np}
             COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${np} ${PQT_FMPI_FLAGS}
                     $<TARGET_FILE:${name}> ${MPIEXEC_POSTFLAGS}
             WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/data)
    set_tests_properties(${name}_np${np} PROPERTIES ENVIRONMENT "${PQT_FMPI_ENV}"
                         PROCESSORS ${np} TIMEOUT 300 FAIL_REGULAR_EXPRESSION "FAIL"
                         RESOURCE_LOCK mpiexec)
    # an example prints what DuckDB computed for its serial twin (data/expected.txt)
    if(name MATCHES "^fortran_mpi_(.*)$")
      file(STRINGS ${CMAKE_CURRENT_SOURCE_DIR}/data/expected.txt want REGEX "^${CMAKE_MATCH_1} ")
      string(REGEX REPLACE "^[^ ]+ ([0-9]+).*" "\\1" want "${want}")
      set_tests_properties(${name}_np${np} PROPERTIES
                           PASS_REGULAR_EXPRESSION "total mass: ${want}\n")
    endif()
  endforeach()
endforeach()

# `error stop` paths: every rank stops with pqt's message, the first line's "! expect: REGEX"
# (mpiexec then ends the job non-zero; the message is what is checked).
file(GLOB PQT_FMPI_STOPS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tests/mpi/stop_*.f90)
foreach(src ${PQT_FMPI_STOPS})
  get_filename_component(name ${src} NAME_WE)
  set(name fortran_mpi_${name})
  add_executable(${name} ${src})
  target_link_libraries(${name} PRIVATE pqt_fortran_mpi)
  set_target_properties(${name} PROPERTIES Fortran_MODULE_DIRECTORY
                        ${CMAKE_CURRENT_BINARY_DIR}/mod_${name})
  file(STRINGS ${src} first LIMIT_COUNT 1)
  string(REGEX REPLACE "^! expect: " "" want "${first}")
  foreach(np 1 3)
    add_test(NAME ${name}_np${np}
             COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${np} ${PQT_FMPI_FLAGS}
                     $<TARGET_FILE:${name}> ${MPIEXEC_POSTFLAGS}
             WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/data)
    set_tests_properties(${name}_np${np} PROPERTIES ENVIRONMENT "${PQT_FMPI_ENV}"
                         PROCESSORS ${np} TIMEOUT 120 PASS_REGULAR_EXPRESSION "${want}" RESOURCE_LOCK mpiexec
                         FAIL_REGULAR_EXPRESSION "FAIL")
  endforeach()
endforeach()
