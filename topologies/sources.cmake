# The physical networks' sources: the table, then one file per line of
# topologies.def (GUPS_TOPOLOGY(name) is topologies/name_links.cpp).
# Shared by the host build (gups_networks) and the SMPI build (sim/smpi).
# Paths from the root.
file(STRINGS ${CMAKE_CURRENT_LIST_DIR}/topologies.def GUPS_TOPOLOGY_LINES REGEX "^GUPS_TOPOLOGY\\(")
set(GUPS_NETWORK_SOURCES topologies/topology.cpp)
foreach(line IN LISTS GUPS_TOPOLOGY_LINES)
  string(REGEX REPLACE "^GUPS_TOPOLOGY\\(([a-z_0-9]+)\\).*" "\\1" topology "${line}")
  list(APPEND GUPS_NETWORK_SOURCES topologies/${topology}_links.cpp)
endforeach()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/topologies.def)
