// `steppe-mapgen`: the map generator's own binary (tools/geo), kept out of the product CLI
// so that src/ never compiles a tool (docs/architecture.md, "Layers").
//   steppe-mapgen generate GAME [-o FILE]   data/GAME/map.json from data/geo and grid.json
//   steppe-mapgen render GAME -o FILE.svg  draw a generated map for people to check
#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "geo/mapgen.h"
#include "kernel/json_data.h"

namespace {

namespace fs = std::filesystem;

fs::path root_or_default(const std::string& root) {
  return root.empty() ? fs::path(STEPPE_DEFAULT_DATA_DIR).parent_path() : fs::path(root);
}

struct GenerateArgs {
  std::string game, root, out;
  bool quiet = false;
};

int generate(const GenerateArgs& a) {
  const fs::path root = root_or_default(a.root);
  steppe::mapgen::GenerateReport report;
  auto map = steppe::mapgen::generate(root, a.game, &report);
  if (!map) {
    std::cerr << "steppe-mapgen: " << map.error().to_string() << "\n";
    return 1;
  }
  const fs::path out = a.out.empty() ? root / "data" / a.game / "map.json" : fs::path(a.out);
  const fs::path tmp = out.string() + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary);
    f << steppe::mapgen::dump_map(*map);
    if (!f) {
      std::cerr << "steppe-mapgen: cannot write " << tmp << "\n";
      return 1;
    }
  }
  fs::rename(tmp, out);  // atomic: a crash never leaves a half-written map
  if (a.quiet) return 0;
  for (const auto& l : report.lines) std::cout << l << "\n";
  const auto& fit = (*map)["geo_fit"];
  std::cout << "fit: " << fit["km_per_hex"] << " km per hex, affine RMS " << fit["affine_rms_hexes"]
            << " hexes over " << fit["anchors"].size() << " anchors\n";
  for (const auto& an : fit["anchors"])
    std::cout << "  " << an["hex"].get<std::string>() << " " << an["name"].get<std::string>()
              << ": affine residual " << an["affine_dist_hexes"] << " hex (dcol " << an["affine_dcol"]
              << ", drow " << an["affine_drow"] << "), placed in " << an["placed_hex"].get<std::string>()
              << "\n";
  std::cout << "wrote " << out.string() << "\n";
  return 0;
}

struct RenderArgs {
  std::string game, out, map, root;
  bool no_coast = false;
};

int render(const RenderArgs& a) {
  const fs::path root = root_or_default(a.root);
  const fs::path mp = a.map.empty() ? root / "data" / a.game / "map.json" : fs::path(a.map);
  auto map = steppe::load_json_file(mp);
  if (!map) {
    std::cerr << "steppe-mapgen render: " << map.error().to_string() << "\n";
    return 1;
  }
  auto svg = steppe::mapgen::render_svg(*map, root, a.game, !a.no_coast);
  if (!svg) {
    std::cerr << "steppe-mapgen render: " << svg.error().to_string() << "\n";
    return 1;
  }
  std::ofstream f(a.out, std::ios::binary);
  f << *svg;
  if (!f) {
    std::cerr << "steppe-mapgen render: cannot write " << a.out << "\n";
    return 1;
  }
  std::cout << "wrote " << a.out << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"steppe-mapgen: hex maps from real geography (tools/geo, docs/maps/README.md)"};
  app.require_subcommand(1);
  int status = 0;

  GenerateArgs gen;
  auto* g =
      app.add_subcommand("generate", "Generate data/GAME/map.json from data/geo and data/GAME/grid.json");
  g->add_option("game", gen.game, "game id (e.g. bd)")->required();
  g->add_option("--root", gen.root, "repository root (default: the one this binary was built from)");
  g->add_option("-o,--output", gen.out, "output file (default: ROOT/data/GAME/map.json)");
  g->add_flag("-q,--quiet", gen.quiet, "print nothing on success");
  g->callback([&] { status = generate(gen); });

  RenderArgs ren;
  auto* r = app.add_subcommand("render", "Draw data/GAME/map.json as SVG");
  r->add_option("game", ren.game, "game id (e.g. bd)")->required();
  r->add_option("-o,--output", ren.out, "SVG file to write")->required();
  r->add_option("--map", ren.map, "map file (default: ROOT/data/GAME/map.json)");
  r->add_option("--root", ren.root, "repository root");
  r->add_flag("--no-coastline", ren.no_coast, "omit the real-coastline underlay");
  r->callback([&] { status = render(ren); });

  CLI11_PARSE(app, argc, argv);
  return status;
}
