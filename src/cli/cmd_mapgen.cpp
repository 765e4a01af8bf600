// `steppe mapgen GAME`: generate data/GAME/map.json from real geography (tools/geo).
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/command.h"
#include "geo/mapgen.h"

namespace {
struct MapgenArgs {
  std::string game;
  std::string root;
  std::string out;
  bool quiet = false;
};

const steppe::cli::CommandRegistrar kRegistrar("mapgen", [](CLI::App& app) {
  auto args = std::make_shared<MapgenArgs>();
  auto* sub =
      app.add_subcommand("mapgen", "Generate data/GAME/map.json from data/geo and data/GAME/grid.json");
  sub->add_option("game", args->game, "game id (e.g. bd)")->required();
  sub->add_option("--root", args->root, "repository root (default: the one this binary was built from)");
  sub->add_option("-o,--output", args->out, "output file (default: ROOT/data/GAME/map.json)");
  sub->add_flag("-q,--quiet", args->quiet, "print nothing on success");
  sub->callback([args] {
    namespace fs = std::filesystem;
    const fs::path root =
        args->root.empty() ? fs::path(STEPPE_DEFAULT_DATA_DIR).parent_path() : fs::path(args->root);
    steppe::mapgen::GenerateReport report;
    auto map = steppe::mapgen::generate(root, args->game, &report);
    if (!map) {
      std::cerr << "mapgen: " << map.error().to_string() << "\n";
      throw CLI::RuntimeError(1);
    }
    const fs::path out = args->out.empty() ? root / "data" / args->game / "map.json" : fs::path(args->out);
    const fs::path tmp = out.string() + ".tmp";
    {
      std::ofstream f(tmp, std::ios::binary);
      f << steppe::mapgen::dump_map(*map);
      if (!f) {
        std::cerr << "mapgen: cannot write " << tmp << "\n";
        throw CLI::RuntimeError(1);
      }
    }
    fs::rename(tmp, out);  // atomic: a crash never leaves a half-written map
    if (args->quiet) return;
    for (const auto& l : report.lines) std::cout << l << "\n";
    const auto& fit = (*map)["geo_fit"];
    std::cout << "fit: " << fit["km_per_hex"] << " km per hex, affine RMS " << fit["affine_rms_hexes"]
              << " hexes over " << fit["anchors"].size() << " anchors\n";
    for (const auto& a : fit["anchors"])
      std::cout << "  " << a["hex"].get<std::string>() << " " << a["name"].get<std::string>()
                << ": affine residual " << a["affine_dist_hexes"] << " hex (dcol " << a["affine_dcol"]
                << ", drow " << a["affine_drow"] << "), placed in " << a["placed_hex"].get<std::string>()
                << "\n";
    std::cout << "wrote " << out.string() << "\n";
  });
});
}  // namespace
