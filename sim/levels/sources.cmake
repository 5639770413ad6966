# The network levels' sources: the table, then one file per line of
# levels.def (GUPS_NETWORK_LEVEL(name) is sim/levels/name.cpp). Shared by the
# host build (gups_levels) and the SMPI build (sim/smpi). Paths from the root.
file(STRINGS ${CMAKE_CURRENT_LIST_DIR}/levels.def GUPS_LEVEL_LINES REGEX "^GUPS_NETWORK_LEVEL\\(")
set(GUPS_LEVEL_SOURCES sim/levels/network_level.cpp)
foreach(line IN LISTS GUPS_LEVEL_LINES)
  string(REGEX REPLACE "^GUPS_NETWORK_LEVEL\\(([a-z_0-9]+)\\).*" "\\1" level "${line}")
  list(APPEND GUPS_LEVEL_SOURCES sim/levels/${level}.cpp)
endforeach()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/levels.def)
