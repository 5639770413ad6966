# The physical networks' sources (links, routes), shared by the host build
# (gups_networks) and the SMPI build (sim/smpi). Paths from the root.
set(GUPS_NETWORK_SOURCES
  topologies/network/dragonfly_links.cpp
  topologies/network/fat_tree_links.cpp
  topologies/network/torus_links.cpp)
