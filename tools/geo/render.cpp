// SVG drawing of a generated hex map, the way a wargame player reads a map.
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "geo/mapgen.h"

namespace steppe::mapgen {
namespace {
constexpr double kS = 44.0;        // pixels per hex width
constexpr double kR = 0.57735027;  // hex circumradius in hex widths
constexpr double kMargin = 30.0;

std::string esc(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '&')
      o += "&amp;";
    else if (c == '<')
      o += "&lt;";
    else if (c == '>')
      o += "&gt;";
    else if (c == '"')
      o += "&quot;";
    else
      o += c;
  }
  return o;
}

const char* terrain_colour(const std::string& t) {
  if (t == "clear") return "#ece6c2";
  if (t == "rough") return "#b89c6a";
  if (t == "marsh" || t == "swamp") return "#8fbf9f";
  if (t == "woods") return "#6f9a5a";
  if (t == "desert-steppe") return "#ead08c";
  if (t == "all-sea") return "#8dbbe3";
  if (t == "all-lake") return "#a9d3f0";
  return "#ff00ff";
}
}  // namespace

Result<std::string> render_svg(const Json& map, const std::filesystem::path& root, const std::string& game,
                               bool geo_underlay) {
  if (!map.contains("hexes") || !map["hexes"].is_array())
    return Error{"map has no hexes array", "", "map.json"};
  struct H {
    int row, col;
    double x, y;  // screen
    const Json* j;
  };
  // The grid (id format, orientation) comes from the game's grid.json.
  auto grid_file = load_json_file(root / ("data/" + game + "/grid.json"));
  if (!grid_file) return grid_file.error();
  const JsonReader grid_reader(*grid_file, "data/" + game + "/grid.json");
  auto hex_grid = HexGrid::from_json(grid_reader.at("grid"));
  if (!hex_grid) return hex_grid.error();
  auto layout_r = plane_layout_of(*hex_grid, grid_reader.at("grid"));
  if (!layout_r) return layout_r.error();
  const PlaneLayout layout = *layout_r;
  const bool flat = layout == PlaneLayout::kFlatCols;
  // BD's X grows westward and is mirrored; a grid whose columns rise eastward is not.
  const bool mirror = grid_reader.at("grid").at("cols").str("increase") != "east";
  std::map<std::string, H> hexes;
  double max_x = -1e9, min_y = 1e9, max_y = -1e9, min_x = 1e9;
  for (const auto& h : map["hexes"]) {
    const std::string id = h.value("id", "");
    const int at = hex_grid->parse(id);
    if (at < 0)
      return Error{"hex id is not an id of the grid", "", "map.json: /hexes (value: \"" + id + "\")"};
    const int row = hex_grid->row(at), col = hex_grid->col(at);
    const auto p = hex_plane_centre(row, col, layout);
    max_x = std::max(max_x, p[0]);
    min_x = std::min(min_x, p[0]);
    min_y = std::min(min_y, p[1]);
    max_y = std::max(max_y, p[1]);
    hexes[id] = {row, col, p[0], p[1], &h};
  }
  auto sx = [&](double x) { return (mirror ? max_x - x + 0.5 : x - min_x + 0.5) * kS + kMargin; };
  auto sy = [&](double y) { return (y - min_y + kR) * kS + kMargin; };
  const double width = (max_x - min_x + 1.0) * kS + 2 * kMargin;
  const double height = (max_y - min_y + 2 * kR) * kS + 2 * kMargin + 64;  // + three legend lines
  std::ostringstream o;
  o.setf(std::ios::fixed);
  o.precision(1);
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
    << "\" viewBox=\"0 0 " << width << ' ' << height << "\" font-family=\"DejaVu Sans, sans-serif\">\n";
  o << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  // Hexes.
  o << "<g stroke=\"#9a9478\" stroke-width=\"0.6\">\n";
  for (const auto& [id, h] : hexes) {
    o << "<polygon fill=\"" << terrain_colour((*h.j).value("terrain", "")) << "\" points=\"";
    for (int k = 0; k < 6; ++k) {
      const double a = ((flat ? 0.0 : 30.0) + 60.0 * k) * 3.14159265358979 / 180.0;
      o << sx(h.x + kR * std::cos(a)) << ',' << sy(h.y + kR * std::sin(a)) << ' ';
    }
    o << "\"/>\n";
  }
  o << "</g>\n";
  // Marsh hatching and rough dots, so terrain reads without colour too.
  o << "<g stroke=\"#4f7f5f\" stroke-width=\"0.8\">\n";
  for (const auto& [id, h] : hexes) {
    const std::string terrain = (*h.j).value("terrain", "");
    if (terrain != "marsh" && terrain != "swamp") continue;
    for (int k = -1; k <= 1; ++k)
      o << "<line x1=\"" << sx(h.x) - 9 << "\" y1=\"" << sy(h.y) + k * 7 << "\" x2=\"" << sx(h.x) + 9
        << "\" y2=\"" << sy(h.y) + k * 7 << "\"/>\n";
  }
  o << "</g>\n";
  // Real coastline underlay (thin), to check the fit by eye.
  if (geo_underlay) {
    auto grid_doc = load_json_file(root / ("data/" + game + "/grid.json"));
    auto shore = load_json_file(root / "data/geo/shore.json");
    if (grid_doc && shore) {
      const JsonReader g(*grid_doc, "grid.json");
      auto fit = GeoFit::from_json(g);
      if (fit) {
        o << "<g fill=\"none\" stroke=\"#2a5d8f\" stroke-width=\"0.7\" stroke-opacity=\"0.7\">\n";
        for (const auto& s : (*shore)["shores"]) {
          o << "<polyline points=\"";
          for (const auto& p : s["points"]) {
            const auto q = fit->to_plane(p[0].get<double>(), p[1].get<double>());
            o << sx(q[0]) << ',' << sy(q[1]) << ' ';
          }
          o << "\"/>\n";
        }
        o << "</g>\n";
      }
    }
  }
  // Hexsides along the shared edge.
  auto edge = [&](const H& a, const H& b, double& x1, double& y1, double& x2, double& y2) {
    const double mx = (a.x + b.x) / 2, my = (a.y + b.y) / 2;
    const double dx = b.x - a.x, dy = b.y - a.y, len = std::hypot(dx, dy);
    const double px = -dy / len * kR / 2, py = dx / len * kR / 2;
    x1 = sx(mx + px);
    y1 = sy(my + py);
    x2 = sx(mx - px);
    y2 = sy(my - py);
  };
  std::ostringstream rivers, lakes, seas, straits, borders;
  for (const auto& s : map.value("hexsides", Json::array())) {
    const auto ids = s["hexes"];
    if (!hexes.count(ids[0]) || !hexes.count(ids[1])) continue;
    double x1, y1, x2, y2;
    edge(hexes[ids[0]], hexes[ids[1]], x1, y1, x2, y2);
    std::set<std::string> f;
    for (const auto& v : s["features"]) f.insert(v.get<std::string>());
    const std::string line = "<line x1=\"" + std::to_string(x1) + "\" y1=\"" + std::to_string(y1) +
                             "\" x2=\"" + std::to_string(x2) + "\" y2=\"" + std::to_string(y2) + "\"/>\n";
    if (f.count("strait"))
      straits << line;
    else if (f.count("all-sea"))
      seas << line;
    else if (f.count("all-lake"))
      lakes << line;
    else if (f.count("river") || f.count("major-river"))
      rivers << line;
    if (f.count("border")) {
      const auto& ha = *hexes[ids[0]].j;
      const auto& hb = *hexes[ids[1]].j;
      // Thick only where German meets Soviet control (the legend's "thick = German/Soviet").
      const std::string ca = ha.value("control", ""), cb = hb.value("control", "");
      const bool front = ca != cb && (ca == "german" || ca == "soviet") && (cb == "german" || cb == "soviet");
      borders << "<line stroke-width=\"" << (front ? 3.2 : 1.6) << "\" x1=\"" << x1 << "\" y1=\"" << y1
              << "\" x2=\"" << x2 << "\" y2=\"" << y2 << "\"/>\n";
    }
  }
  // The north/south logistical boundary (7.15): sides between a "north" and a "south" hex.
  std::ostringstream logi;
  auto in_region = [](const Json& h, const char* r) {
    for (const auto& v : h.value("regions", Json::array()))
      if (v.get<std::string>() == r) return true;
    return false;
  };
  for (const auto& [id, h] : hexes) {
    if (!in_region(*h.j, "north")) continue;
    for (int dr = -1; dr <= 1; ++dr)
      for (int dc = -1; dc <= 1; ++dc) {
        const int at = hex_grid->index(h.row + dr, h.col + dc);
        if (at < 0) continue;
        auto it = hexes.find(hex_grid->id(at));
        if (it == hexes.end() || std::hypot(it->second.x - h.x, it->second.y - h.y) > 1.01) continue;
        if (!in_region(*it->second.j, "south")) continue;
        double x1, y1, x2, y2;
        edge(h, it->second, x1, y1, x2, y2);
        logi << "<line x1=\"" << x1 << "\" y1=\"" << y1 << "\" x2=\"" << x2 << "\" y2=\"" << y2 << "\"/>\n";
      }
  }
  o << "<g stroke=\"#1d7a1d\" stroke-width=\"2.5\" stroke-dasharray=\"8,3,2,3\">\n" << logi.str() << "</g>\n";
  o << "<g stroke=\"#c0302a\" stroke-dasharray=\"5,3\" stroke-linecap=\"round\">\n"
    << borders.str() << "</g>\n";
  o << "<g stroke=\"#1f5fbf\" stroke-width=\"3.2\" stroke-linecap=\"round\">\n" << rivers.str() << "</g>\n";
  o << "<g stroke=\"#58a8e8\" stroke-width=\"5\" stroke-linecap=\"round\">\n" << lakes.str() << "</g>\n";
  o << "<g stroke=\"#2f6fb0\" stroke-width=\"4\" stroke-dasharray=\"2,2\">\n" << seas.str() << "</g>\n";
  o << "<g stroke=\"#c000c0\" stroke-width=\"5\">\n" << straits.str() << "</g>\n";
  // Railways through hex centres.
  o << "<g fill=\"none\" stroke=\"#222\" stroke-width=\"1.3\" stroke-dasharray=\"4,2\" "
       "stroke-opacity=\"0.8\">\n";
  for (const auto& r : map.value("railways", Json::array())) {
    o << "<polyline points=\"";
    for (const auto& id : r)
      if (hexes.count(id)) o << sx(hexes[id].x) << ',' << sy(hexes[id].y) << ' ';
    o << "\"/>\n";
  }
  o << "</g>\n";
  // Per-hex markings: fortified lines, cities, names, ids.
  for (const auto& [id, h] : hexes) {
    const Json& j = *h.j;
    std::set<std::string> f;
    for (const auto& v : j.value("features", Json::array())) f.insert(v.get<std::string>());
    const double cx = sx(h.x), cy = sy(h.y);
    if (f.count("fortified-line"))
      o << "<circle cx=\"" << cx << "\" cy=\"" << cy << "\" r=\"" << kS * 0.42
        << "\" fill=\"none\" stroke=\"#8b0000\" stroke-width=\"1.4\" stroke-dasharray=\"1.5,2.5\"/>\n";
    o << "<text x=\"" << cx << "\" y=\"" << cy - kS * 0.36
      << "\" font-size=\"6.5\" fill=\"#555\" text-anchor=\"middle\">" << id << "</text>\n";
    if (f.count("vp"))
      o << "<circle cx=\"" << cx << "\" cy=\"" << cy << "\" r=\"" << kS * 0.3
        << "\" fill=\"none\" stroke=\"#c00000\" stroke-width=\"2\"/>\n";
    if (f.count("city"))
      o << "<rect x=\"" << cx - 4 << "\" y=\"" << cy - 4 << "\" width=\"8\" height=\"8\" fill=\"#111\"/>\n";
    else if (j.contains("name"))
      o << "<circle cx=\"" << cx << "\" cy=\"" << cy << "\" r=\"2.5\" fill=\"#111\"/>\n";
    if (f.count("oil"))
      o << "<text x=\"" << cx + 6 << "\" y=\"" << cy - 3
        << "\" font-size=\"8\" fill=\"#000\">&#9679;oil</text>\n";
    if (f.count("port"))
      o << "<text x=\"" << cx - 15 << "\" y=\"" << cy + 2
        << "\" font-size=\"9\" fill=\"#1f5fbf\">&#9875;</text>\n";
    if (j.contains("name"))
      o << "<text x=\"" << cx << "\" y=\"" << cy + 13 << "\" font-size=\"" << (f.count("city") ? 8.5 : 6.5)
        << "\" font-weight=\"" << (f.count("city") ? "bold" : "normal")
        << "\" text-anchor=\"middle\" fill=\"#000\">" << esc(j["name"].get<std::string>()) << "</text>\n";
    std::string tags;
    for (const auto& r : j.value("regions", Json::array())) {
      const std::string s = r.get<std::string>();
      if (s == "AGN" || s == "AGC" || s == "AGS" || s == "R" || s == "CS")
        tags += (tags.empty() ? "" : " ") + s;
    }
    if (!tags.empty())
      o << "<text x=\"" << cx << "\" y=\"" << cy + 20
        << "\" font-size=\"6.5\" fill=\"#a00\" text-anchor=\"middle\">" << esc(tags) << "</text>\n";
  }
  o << "<text x=\"" << kMargin << "\" y=\"" << height - 38 << "\" font-size=\"11\">" << esc(game)
    << " map, generated by steppe mapgen from real geography (reconstructed). Terrain: cream clear, brown "
       "rough, green marsh, sand desert-steppe, blue sea/lake.</text>\n";
  // The key in two lines so that it fits the map's width.
  o << "<text x=\"" << kMargin << "\" y=\"" << height - 22
    << "\" font-size=\"9.5\">Hexsides: blue river, light blue all-lake, dashed blue all-sea, magenta strait, "
       "red dashed 1941 border (thick = German/Soviet).</text>\n";
  o << "<text x=\"" << kMargin << "\" y=\"" << height - 8
    << "\" font-size=\"9.5\">Dashed black railways; dotted ring fortified line; thin blue real coastline; "
       "green dash-dot the north/south logistical boundary.</text>\n";
  o << "</svg>\n";
  return o.str();
}

}  // namespace steppe::mapgen
