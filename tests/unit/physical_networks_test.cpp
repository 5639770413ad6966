// Networks off the torus: SimGrid's fat-tree and dragonfly as PhysicalLinks
// (their exact routes are checked against SimGrid itself by
// gups-route-check), machine files naming them, partitions, the virtual
// torus laid on them, and the network bound derived from their routes.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "models/src/bounds.hpp"
#include "models/src/machine.hpp"
#include "models/src/machine_network.hpp"
#include "models/src/network_bound.hpp"
#include "topologies/dragonfly_links.hpp"
#include "topologies/fat_tree_links.hpp"
#include "topologies/topology.hpp"
#include "topologies/torus_links.hpp"

namespace gups {
namespace {

using model::load_machine;
using model::default_machine_directories;

std::vector<std::uint32_t> route_of(const PhysicalLinks& links, std::uint64_t from, std::uint64_t to) {
  std::vector<std::uint32_t> route;
  links.route(from, to, route);
  return route;
}

TEST(FatTreeLinks, ParametersReadAndWriteSimGridsForm) {
  const auto p = FatTreeParameters::parse("2;4,4;1,2;1,2");
  EXPECT_EQ(p.down, (std::vector<unsigned>{4, 4}));
  EXPECT_EQ(p.up, (std::vector<unsigned>{1, 2}));
  EXPECT_EQ(p.nodes(), 16u);
  EXPECT_EQ(p.to_simgrid(), "2;4,4;1,2;1,2");
  EXPECT_THROW(FatTreeParameters::parse("2;4,4;1;1,1"), std::invalid_argument);
  EXPECT_THROW(FatTreeParameters::parse("3;4,4;1,2;1,1"), std::invalid_argument);
  EXPECT_THROW(FatTreeParameters::parse("2;4,0;1,2;1,1"), std::invalid_argument);
  EXPECT_THROW(FatTreeParameters::parse("2;4,x;1,2;1,1"), std::invalid_argument);
}

// Two levels, 4 leaves of 4 nodes, 2 top switches: a route stays under its
// leaf when it can, else goes up one cable and down one, on the top switch
// d-mod-k picks from the destination.
TEST(FatTreeLinks, RoutesClimbOnlyAsHighAsTheCommonAncestor) {
  const FatTreeLinks tree(FatTreeParameters::parse("2;4,4;1,2;1,1"));
  EXPECT_EQ(tree.nodes(), 16u);
  EXPECT_EQ(tree.elements_by_level(), (std::vector<std::uint64_t>{16, 4, 2}));
  EXPECT_EQ(tree.count(), 2u * (16 + 8));  // a cable per node, two per leaf
  const auto same_leaf = route_of(tree, 0, 3);
  ASSERT_EQ(same_leaf.size(), 2u);
  EXPECT_EQ(tree.link_class(same_leaf[0]), 0u);  // up from the node
  EXPECT_EQ(tree.link_class(same_leaf[1]), 1u);  // down to the node
  const auto across = route_of(tree, 0, 15);
  ASSERT_EQ(across.size(), 4u);
  EXPECT_EQ(tree.link_class(across[1]), 2u);
  EXPECT_EQ(tree.link_class(across[2]), 3u);
  // d-mod-k: destinations 12 and 13 leave the same leaf by different top switches.
  EXPECT_NE(route_of(tree, 0, 12)[1], route_of(tree, 0, 13)[1]);
  EXPECT_EQ(route_of(tree, 0, 12)[1], route_of(tree, 1, 14)[1]);
  EXPECT_EQ(tree.class_names().at(2), "level 1-2 up");
}

TEST(FatTreeLinks, InconsistentLevelsAreRefused) {
  // Leaves with 3 parents each, but only 2 x 1 top switches' worth of ports.
  EXPECT_NO_THROW(FatTreeLinks(FatTreeParameters::parse("2;4,4;1,3;1,1")));
  EXPECT_THROW(FatTreeLinks(FatTreeParameters{{4, 4}, {1, 2}, {1}}), std::invalid_argument);
}

TEST(DragonflyLinks, ParametersAreCheckedAsSimGridNeedsThem) {
  const auto p = DragonflyParameters::parse("3,2;2,1;4,1;2");
  EXPECT_EQ(p.nodes(), 48u);
  EXPECT_EQ(p.to_simgrid(), "3,2;2,1;4,1;2");
  EXPECT_THROW(DragonflyParameters::parse("5,1;1,1;4,1;2"), std::invalid_argument);  // more groups than routers
  EXPECT_THROW(DragonflyParameters::parse("2,1;1,1;4,0;2"), std::invalid_argument);
  EXPECT_THROW(DragonflyParameters::parse("2,1;1,1;4;2"), std::invalid_argument);
}

// One chassis per group: minimal routes. Node, then green to the router of
// the destination group's number, blue, green to the destination's router, node.
TEST(DragonflyLinks, RoutesAreMinimalWithOneChassisPerGroup) {
  const DragonflyLinks fly(DragonflyParameters::parse("4,2;1,1;4,1;2"));
  EXPECT_EQ(fly.nodes(), 32u);
  const auto same_router = route_of(fly, 0, 1);
  EXPECT_EQ(same_router.size(), 2u);
  const auto same_group = route_of(fly, 0, 7);
  ASSERT_EQ(same_group.size(), 3u);
  EXPECT_EQ(fly.link_class(same_group[1]), 1u);  // green
  // Node 0 (group 0, router 0) to node 31 (group 3, router 3): router 0 of
  // group 0 reaches group 3 from router 3, which lands on router 0 of group 3.
  const auto across = route_of(fly, 0, 31);
  ASSERT_EQ(across.size(), 5u);
  EXPECT_EQ(fly.link_class(across[1]), 1u);
  EXPECT_EQ(fly.link_class(across[2]), 3u);
  EXPECT_EQ(fly.link_class(across[3]), 1u);
  EXPECT_EQ(fly.bandwidth_factor(across[2]), 2.0);  // two cables between groups
  EXPECT_EQ(fly.bandwidth_factor(across[1]), 1.0);
  // Group 0's router 3 leaves for group 3 without a green hop.
  EXPECT_EQ(route_of(fly, 6, 24).size(), 3u);
}

TEST(MachineNetwork, PartitionsKeepTheLowerLevelsWhole) {
  const auto tree = load_machine("fattree", default_machine_directories());
  EXPECT_EQ(model::simgrid_parameters(tree, 64), "2;16,4;1,16;1,1");
  EXPECT_EQ(model::simgrid_parameters(tree, 4096), "3;16,16,16;1,16,16;1,1,1");
  EXPECT_EQ(model::simgrid_parameters(tree, 8), "1;8;1;1");
  EXPECT_THROW(model::simgrid_parameters(tree, 24), std::invalid_argument);
  EXPECT_THROW(model::simgrid_parameters(tree, 16384), std::invalid_argument);
  const auto fly = load_machine("dragonfly", default_machine_directories());
  EXPECT_EQ(model::simgrid_parameters(fly, 64), "1,4;1,1;16,1;4");
  EXPECT_EQ(model::simgrid_parameters(fly, 4096), "32,4;1,1;32,1;4");
  EXPECT_THROW(model::simgrid_parameters(fly, 192), std::invalid_argument);
  try {
    model::simgrid_parameters(fly, 8192);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("8192 nodes exceed the 4096 nodes of 'dragonfly'"), std::string::npos)
        << e.what();
  }
}

// Every registered topology is found by its name, and an unknown name is
// refused naming them; a topology whose partitions are not shapes gives
// them, its bisection and its links from SimGrid's parameters.
TEST(Topologies, EachIsRegisteredOnceUnderItsName) {
  std::set<std::string> names;
  for (const auto* kind : topologies()) {
    EXPECT_TRUE(names.insert(kind->name).second) << kind->name;
    EXPECT_EQ(&topology_named(kind->name), kind);
    EXPECT_TRUE(kind->platform_links != nullptr || kind->links != nullptr) << kind->name;
    EXPECT_EQ(kind->partition == nullptr, kind->is_virtual_torus) << kind->name;
    if (kind->partition) {
      EXPECT_NE(kind->bisection, nullptr) << kind->name;
      EXPECT_NE(kind->links, nullptr) << kind->name;
    }
  }
  // The machine files' three are there; a topology added by its recipe joins them without a change here.
  for (const auto* name : {"torus", "fat_tree", "dragonfly"}) EXPECT_TRUE(names.count(name)) << name;
  try {
    topology_named("hypercube");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("unknown topology 'hypercube' (give torus, fat_tree, dragonfly"),
              std::string::npos)
        << e.what();
  }
  const auto& tree = topology_named("fat_tree");
  EXPECT_EQ(tree.partition("3;16,16,16;1,16,16;1,1,1", 64, "t"), "2;16,4;1,16;1,1");
  EXPECT_EQ(tree.links(tree.partition("3;16,16,16;1,16,16;1,1,1", 64, "t"))->nodes(), 64u);
  const auto read = [](const char* name) -> std::string {
    if (std::string(name) == "gups/torus-shape") return "4x2";
    if (std::string(name) == "gups/torus-wraps") return "1,0";
    throw std::invalid_argument(name);
  };
  const auto torus = platform_links(topology_named("torus"), read);
  EXPECT_EQ(torus->nodes(), 8u);
  EXPECT_TRUE(torus->classes_are_dimensions());
  EXPECT_EQ(torus->independent_lines(TorusShape({4, 2})).size(), 2u);
  EXPECT_TRUE(torus->independent_lines(TorusShape({2, 4})).empty());
  const auto read_tree = [](const char* name) -> std::string {
    if (std::string(name) == "gups/topology-parameters") return "1;16;1;1";
    throw std::invalid_argument(name);
  };
  EXPECT_EQ(platform_links(tree, read_tree)->nodes(), 16u);
  EXPECT_THROW(platform_links(tree, read), std::invalid_argument);
}

// The virtual torus is chosen apart from the physical network: the paper's
// (the physical torus) on a torus, a balanced grid of the file's virtual
// dimensions elsewhere, whose node count the network must hold.
TEST(MachineNetwork, VirtualShapeOnEachTopology) {
  const auto bgq = load_machine("bgq", default_machine_directories());
  EXPECT_EQ(bgq.topology, &topology_named("torus"));
  EXPECT_TRUE(bgq.topology->is_virtual_torus);
  EXPECT_EQ(bgq.shape_for(4096).to_string(), "4x4x4x8x8");  // no listed partition: the balanced rule
  EXPECT_EQ(bgq.shape_for(1024).to_string(), "4x4x4x8x2");  // Mira's, a mesh in D in the default queue
  EXPECT_EQ(bgq.wraps_of(bgq.shape_for(1024)), (std::vector<bool>{true, true, true, false, true}));
  EXPECT_EQ(bgq.wraps_of(TorusShape({4, 4, 4, 4, 4})), std::vector<bool>(5, true));  // not the listed shape
  const auto tree = load_machine("fattree", default_machine_directories());
  EXPECT_EQ(tree.shape_for(4096).to_string(), "16x16x16");
  EXPECT_EQ(tree.shape_for(64).to_string(), "4x4x4");
  EXPECT_THROW(tree.shape_for(40), std::invalid_argument);
  EXPECT_FALSE(tree.is_mesh(64));
  const auto fly = load_machine("dragonfly", default_machine_directories());
  EXPECT_EQ(fly.shape_for(512).to_string(), "8x8x8");
  EXPECT_EQ(model::physical_links(fly, fly.shape_for(512), false)->nodes(), 512u);
}

// On a torus whose virtual torus is the physical one, a software hop along
// a ring of k crosses the shorter way round. With k odd both ways carry
// (k^2 - 1) / 8k of a node's updates, a little under the k/8 the paper's 4B/b
// assumes: the bound is k^2 / (k^2 - 1) times 4B/b. With k even SimGrid
// sends the half-way hop the + way, so + carries (1 + .. + k/2) / k: for
// k = 8, 10/8, and the bound is 0.8 times 4B/b; for k = 4, 2/3.
TEST(NetworkBound, OnATorusTheBusiestLinkIsTheBisectionsAsSimGridRoutes) {
  struct Case {
    std::vector<std::uint32_t> sides;
    double of_four_b_over_b;
    double mean_distance;  // links per software hop: the mean ring distance of a move
  };
  for (const auto& [sides, factor, distance] : std::vector<Case>{{{5, 5, 5}, 25.0 / 24.0, 6.0 / 4.0},
                                                                 {{8, 8, 8}, 0.8, 16.0 / 7.0},
                                                                 {{4, 4, 4, 4, 4}, 2.0 / 3.0, 4.0 / 3.0}}) {
    const TorusShape shape(sides);
    const TorusLinks links(shape, std::vector<bool>(shape.dimensions(), true));
    const auto bound = model::network_bound(links, shape, true, 10.0, 1e9);
    EXPECT_NEAR(bound.physical_hops_per_software_hop, distance, 1e-12) << shape.to_string();
    EXPECT_NEAR(bound.software_hops, shape.expected_hops(), 1e-12);
    const double four_b_over_b = 4 * model::bisection_bandwidth(shape, 1e9) / 10.0 * 1e-9;
    EXPECT_NEAR(bound.gups, factor * four_b_over_b, 1e-9 * four_b_over_b) << shape.to_string();
  }
}

// One switch: every node's own cable carries each of its software hops, so
// the bound is nodes x bandwidth / (hops x b).
TEST(NetworkBound, OnOneSwitchTheNodesCablesBind) {
  const FatTreeLinks tree(FatTreeParameters::parse("1;16;1;1"));
  const TorusShape shape({4, 4});
  const auto routed = model::network_bound(tree, shape, true, 8.0, 1e9);
  EXPECT_DOUBLE_EQ(routed.physical_hops_per_software_hop, 2.0);  // up to the switch, down
  EXPECT_NEAR(routed.software_hops, shape.expected_hops(), 1e-12);
  EXPECT_NEAR(routed.gups, 16 * 1e9 / (routed.software_hops * 8.0) * 1e-9, 1e-12);
  const auto direct = model::network_bound(tree, shape, false, 8.0, 1e9);
  EXPECT_NEAR(direct.software_hops, 15.0 / 16.0, 1e-12);
  EXPECT_EQ(direct.busiest_class, "level 0-1 up");
  EXPECT_NEAR(topology_named("fat_tree").bisection("1;16;1;1", 1e9), 8e9, 1);
}

// A tapered tree binds at its narrow level; a dragonfly of few global
// cables binds on them, and more cables move the binding to the nodes.
TEST(NetworkBound, TheNarrowestLinksBindAndTheirClassIsNamed) {
  const FatTreeParameters tapered{{16, 16}, {1, 4}, {1, 1}};  // leaves of 16 nodes with 4 up-cables
  const FatTreeLinks tree(tapered);
  const TorusShape grid = TorusShape::balanced(256, 3);
  const auto bound = model::network_bound(tree, grid, false, 8.0, 1e9);
  EXPECT_EQ(bound.busiest_class, "level 1-2 up");
  EXPECT_NEAR(topology_named("fat_tree").bisection(tapered.to_simgrid(), 1e9), 32e9, 1);  // 64 top cables / 2
  const DragonflyLinks thin(DragonflyParameters::parse("8,1;1,1;8,1;4"));
  const DragonflyLinks thick(DragonflyParameters::parse("8,16;1,1;8,16;4"));
  const auto shape = TorusShape::balanced(256, 3);
  const auto thin_bound = model::network_bound(thin, shape, false, 8.0, 1e9);
  const auto thick_bound = model::network_bound(thick, shape, false, 8.0, 1e9);
  EXPECT_EQ(thin_bound.busiest_class, "blue (groups)");
  EXPECT_EQ(thick_bound.busiest_class, "node-router");
  EXPECT_GT(thick_bound.gups, 4 * thin_bound.gups);
  EXPECT_NEAR(topology_named("dragonfly").bisection("8,1;1,1;8,1;4", 1e9), 16e9, 1);
}

// The model names the network and what binds; the torus machines keep the
// paper's 4B/b.
TEST(NetworkBound, ThePredictionCarriesTheDerivation) {
  const auto tree = load_machine("fattree", default_machine_directories());
  model::ModelOptions options;
  options.algorithm = Algorithm::routed;
  const auto p = model::predict(tree, tree.shape_for(512), options);
  EXPECT_EQ(p.topology, &topology_named("fat_tree"));
  EXPECT_GT(p.physical_hops_per_software_hop, 2.0);
  ASSERT_TRUE(p.network_gups);
  const auto links = model::physical_links(tree, p.shape, false);
  EXPECT_NEAR(*p.network_gups,
              model::network_bound(*links, p.shape, true, p.bytes_per_update, tree.link_bandwidth).gups, 1e-12);
  const auto bgp = load_machine("bgp", default_machine_directories());
  const auto torus = model::predict(bgp, bgp.shape_for(4096), {});
  // On a torus 4B/b is printed beside the routes' bound; the bound taken is the lower, times the network's share.
  EXPECT_NEAR(*torus.bisection_network_gups, 4 * torus.bisection_bytes_per_s / torus.bytes_per_update * 1e-9, 1e-12);
  EXPECT_NEAR(*torus.network_gups,
              std::min(*torus.bisection_network_gups, *torus.routes_network_gups) * bgp.network_efficiency, 1e-12);
  EXPECT_EQ(torus.network_bottleneck.rfind("dimension", 0), 0u);
}

std::string error_of(nlohmann::json document) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("torus-gups-network-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + ".json");
  std::ofstream(path) << document.dump();
  try {
    load_machine(path.string(), {});
  } catch (const std::invalid_argument& e) {
    std::filesystem::remove(path);
    return e.what();
  }
  std::filesystem::remove(path);
  return {};
}

TEST(MachineNetwork, BadTopologiesAreNamedByField) {
  std::ifstream in(load_machine("dragonfly", default_machine_directories()).path);
  const auto fly = nlohmann::json::parse(in);
  auto doc = fly;
  doc["dragonfly"]["groups"] = 40;
  EXPECT_NE(error_of(doc).find("field 'dragonfly' does not describe a network: a dragonfly of 40 groups needs"),
            std::string::npos)
      << error_of(doc);
  doc = fly;
  doc["dragonfly"]["routers_per_chassis"] = 0;
  EXPECT_NE(error_of(doc).find("'dragonfly.routers_per_chassis' must be a whole number >= 1"), std::string::npos);
  doc = fly;
  doc["dragonfly"]["virtual_dimensions"] = 7;
  EXPECT_NE(error_of(doc).find("'dragonfly.virtual_dimensions' must be at most 6"), std::string::npos);
  doc = fly;
  doc["torus"] = {{"dimensions", 3}};
  EXPECT_NE(error_of(doc).find("give exactly one network section"), std::string::npos);
  doc = fly;
  doc.erase("dragonfly");
  EXPECT_NE(error_of(doc).find("field 'torus' is missing"), std::string::npos);
  std::ifstream tree_in(load_machine("fattree", default_machine_directories()).path);
  const auto tree = nlohmann::json::parse(tree_in);
  doc = tree;
  doc["fat_tree"]["up"] = {1, 16};
  EXPECT_NE(error_of(doc).find("field 'fat_tree' does not describe a network: a fat-tree of 3 levels needs"),
            std::string::npos)
      << error_of(doc);
  doc = tree;
  doc["fat_tree"]["down"][1] = 0;
  EXPECT_NE(error_of(doc).find("'fat_tree.down[1]' must be a whole number from 1 to 2^20"), std::string::npos);
  doc = tree;
  doc["fat_tree"]["levels"] = 3;
  EXPECT_NE(error_of(doc).find("'fat_tree.levels' is not a known field"), std::string::npos);
  EXPECT_EQ(error_of(tree), "");
}

}  // namespace
}  // namespace gups

namespace gups::model {
namespace {

// Mira's 1,024 nodes are a mesh in D in the default queue: the weakest
// halving cut is across D, once, where the whole torus would be cut twice.
TEST(MachineNetwork, APartitionThatWrapsInSomeDimensionsIsCutWhereItIsWeakest) {
  const TorusShape shape({4, 4, 4, 8, 2});
  EXPECT_DOUBLE_EQ(bisection_bandwidth(shape, 1.0, std::vector<bool>{true, true, true, false, true}), 128);
  EXPECT_DOUBLE_EQ(bisection_bandwidth(shape, 1.0, std::vector<bool>(5, true)), 256);
  // A mesh dimension that is not the longest: the longest one's cut may still be the least.
  EXPECT_DOUBLE_EQ(bisection_bandwidth(TorusShape({8, 8, 2}), 1.0, std::vector<bool>{true, true, false}), 32);
  const auto bgq = load_machine("bgq", default_machine_directories());
  ModelOptions options;
  options.mapping_mode = 8;
  const auto p = predict(bgq, bgq.shape_for(1024), options);
  EXPECT_EQ(p.wraps, (std::vector<bool>{true, true, true, false, true}));
  EXPECT_FALSE(p.mesh);
  ASSERT_TRUE(p.network_gups);
  EXPECT_NEAR(*p.network_gups, 4 * 128 * bgq.link_bandwidth / p.bytes_per_update * 1e-9, 1e-9);
}

// The K computer's Tofu: X, Y, Z tori, a and c meshes of 2, b a ring of 3.
TEST(MachineNetwork, TofuWrapsInXYZAndB) {
  const auto k = load_machine("k", default_machine_directories());
  const auto shape = k.shape_for(768);
  EXPECT_EQ(shape.to_string(), "4x4x4x2x3x2");
  EXPECT_EQ(k.wraps_of(shape), (std::vector<bool>{true, true, true, false, true, false}));
  EXPECT_EQ(k.shape_for(82944).to_string(), "24x18x16x2x3x2");
}

}  // namespace
}  // namespace gups::model
