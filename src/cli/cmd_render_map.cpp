// `steppe render-map GAME -o FILE.svg`: draw a generated map for people to check.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/command.h"
#include "geo/mapgen.h"
#include "kernel/json_data.h"

namespace {
struct RenderArgs {
  std::string game, out, map, root;
  bool no_coast = false;
};

const steppe::cli::CommandRegistrar kRegistrar("render-map", [](CLI::App& app) {
  auto args = std::make_shared<RenderArgs>();
  auto* sub = app.add_subcommand("render-map", "Draw data/GAME/map.json as SVG");
  sub->add_option("game", args->game, "game id (e.g. bd)")->required();
  sub->add_option("-o,--output", args->out, "SVG file to write")->required();
  sub->add_option("--map", args->map, "map file (default: ROOT/data/GAME/map.json)");
  sub->add_option("--root", args->root, "repository root");
  sub->add_flag("--no-coastline", args->no_coast, "omit the real-coastline underlay");
  sub->callback([args] {
    namespace fs = std::filesystem;
    const fs::path root =
        args->root.empty() ? fs::path(STEPPE_DEFAULT_DATA_DIR).parent_path() : fs::path(args->root);
    const fs::path mp = args->map.empty() ? root / "data" / args->game / "map.json" : fs::path(args->map);
    auto map = steppe::load_json_file(mp);
    if (!map) {
      std::cerr << "render-map: " << map.error().to_string() << "\n";
      throw CLI::RuntimeError(1);
    }
    auto svg = steppe::mapgen::render_svg(*map, root, args->game, !args->no_coast);
    if (!svg) {
      std::cerr << "render-map: " << svg.error().to_string() << "\n";
      throw CLI::RuntimeError(1);
    }
    std::ofstream f(args->out, std::ios::binary);
    f << *svg;
    if (!f) {
      std::cerr << "render-map: cannot write " << args->out << "\n";
      throw CLI::RuntimeError(1);
    }
    std::cout << "wrote " << args->out << "\n";
  });
});
}  // namespace
