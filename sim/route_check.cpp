// gups-route-check: run by smpirun on a flow-level platform of a fat-tree or
// dragonfly (gups-topology --platform), compares SimGrid's own route between
// every pair of hosts with the one PhysicalLinks gives, link by link. The
// network levels other than flow route with PhysicalLinks, so this is what
// makes them put each message on the links flow does.
#include <mpi.h>

#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>

#include <cstdio>
#include <stdexcept>
#include <vector>

#include "sim/smpi/simulated_network.hpp"
#include "topologies/platform_names.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int status = 0;
  if (rank == 0) {
    try {
      const auto links = gups::platform_physical_links();
      if (!links) throw std::invalid_argument("the platform names no fat-tree or dragonfly (gups/topology)");
      std::vector<simgrid::s4u::Host*> hosts;
      for (std::uint64_t node = 0; node < links->nodes(); ++node) {
        hosts.push_back(simgrid::s4u::Host::by_name(gups::host_name(node)));
      }
      std::vector<simgrid::s4u::Link*> simgrid_route;
      std::vector<std::uint32_t> ours, theirs;
      std::uint64_t pairs = 0, hops = 0;
      for (std::uint64_t from = 0; from < hosts.size() && status == 0; ++from) {
        for (std::uint64_t to = 0; to < hosts.size() && status == 0; ++to) {
          if (from == to) continue;
          simgrid_route.clear();
          hosts[from]->route_to(hosts[to], simgrid_route, nullptr);
          theirs.clear();
          for (const auto* link : simgrid_route) {
            std::uint32_t number = 0;
            if (!gups::numbered_link(link->get_name(), number)) {
              throw std::invalid_argument("SimGrid's link " + link->get_name() + " has no cable number");
            }
            theirs.push_back(number);
          }
          links->route(from, to, ours);
          ++pairs;
          hops += ours.size();
          if (ours != theirs) {
            std::printf("route %llu -> %llu differs: SimGrid crosses %zu links, PhysicalLinks %zu\n",
                        static_cast<unsigned long long>(from), static_cast<unsigned long long>(to), theirs.size(),
                        ours.size());
            status = 1;
          }
        }
      }
      if (status == 0) {
        std::printf("%llu routes, %.3f links each on average: every one as SimGrid routes it\n",
                    static_cast<unsigned long long>(pairs), pairs ? static_cast<double>(hops) / pairs : 0.0);
      }
    } catch (const std::exception& e) {
      std::printf("gups-route-check: error: %s\n", e.what());
      status = 2;
    }
  }
  MPI_Finalize();
  return status;
}
