# The update algorithms of kernel/core/variants.def, for the build's test
# lists: GUPS_UPDATE_ALGORITHMS (their names, in the table's order), and for
# each NAME, GUPS_ALGORITHM_<NAME>_ROUTES and _SPECIALISED (its two traits,
# TRUE or FALSE). A row added to the table is a test case wherever a list is
# built from these (tests/integration/CMakeLists.txt).
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/core/variants.def)
file(READ ${CMAKE_CURRENT_LIST_DIR}/core/variants.def _gups_variants)
set(_gups_space "[ \t\r\n]*")
string(REGEX MATCHALL
  "GUPS_UPDATE_ALGORITHM\\([a-z_]+,${_gups_space}\"[a-z0-9-]+\",${_gups_space}\"[^\"]*\",${_gups_space}(true|false),${_gups_space}(true|false)"
  _gups_rows "${_gups_variants}")
set(GUPS_UPDATE_ALGORITHMS)
foreach(_gups_row IN LISTS _gups_rows)
  string(REGEX MATCH "\"([a-z0-9-]+)\"" _ "${_gups_row}")
  set(_gups_name "${CMAKE_MATCH_1}")
  string(REGEX MATCH "(true|false),${_gups_space}(true|false)$" _ "${_gups_row}")
  list(APPEND GUPS_UPDATE_ALGORITHMS ${_gups_name})
  string(TOUPPER "${CMAKE_MATCH_1}" GUPS_ALGORITHM_${_gups_name}_ROUTES)
  string(TOUPPER "${CMAKE_MATCH_2}" GUPS_ALGORITHM_${_gups_name}_SPECIALISED)
endforeach()
if(NOT GUPS_UPDATE_ALGORITHMS)
  message(FATAL_ERROR "kernel/variants.cmake: no GUPS_UPDATE_ALGORITHM row read from kernel/core/variants.def")
endif()

# The ranks a node runs for an algorithm in the tests: 4 where its cores are
# specialised (the paper's plan), 1 where one rank routes for the node, and
# both where each process sends straight to the owners (`direct`: 1, and 4
# processes a node as virtual-node mode).
function(gups_test_ranks_per_node name out)
  if(GUPS_ALGORITHM_${name}_SPECIALISED)
    set(${out} 4 PARENT_SCOPE)
  elseif(GUPS_ALGORITHM_${name}_ROUTES)
    set(${out} 1 PARENT_SCOPE)
  else()
    set(${out} 1 4 PARENT_SCOPE)
  endif()
endfunction()
