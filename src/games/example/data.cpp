// Loading data/example/game.json: every value through a JsonReader, so a bad one is
// refused naming the file, the field and the value, and nothing half-loaded escapes.
#include <algorithm>

#include "games/example/example.h"

namespace example {

using steppe::Error;
using steppe::JsonReader;
using steppe::Result;

namespace {

constexpr const char* kSideNames[] = {"blue", "red"};

}  // namespace

Result<std::unique_ptr<ExampleGame>> ExampleGame::load(const std::filesystem::path& data_dir) {
  const std::filesystem::path file = data_dir / "game.json";
  auto doc = steppe::load_json_file(file);
  if (!doc) return doc.error();
  auto g = std::make_unique<ExampleGame>();
  JsonReader r(*doc, file.string());
  r.allow_only({"game", "reconstructed", "source", "grid", "terrain", "hexes", "crt", "units", "scenarios"});
  r.check_reconstructed();

  auto grid = steppe::HexGrid::from_json(r.at("grid"));
  if (!grid) return grid.error();
  g->grid_ = std::move(grid).value();

  // 3.1, 4.2: terrain kinds; the first is every hex not listed under "hexes".
  for (const JsonReader& t : r.at("terrain").elements()) {
    t.allow_only({"name", "cost", "shift", "rule"});
    g->terrain_.push_back({t.str("name"), t.int_in("cost", -1, 99), t.int_in("shift", -9, 9)});
  }
  if (g->terrain_.empty())
    r.at("terrain").fail("at least one terrain kind is needed (the first is the default)");
  g->hex_terrain_.assign(static_cast<size_t>(g->grid_.size()), 0);
  for (const auto& [id, v] : r.at("hexes").members()) {
    const int hex = g->grid_.parse(id);
    if (hex < 0) {
      v.fail("no hex '" + id + "' on this grid");
      continue;
    }
    const std::string name = v.as_str();
    const auto it = std::find_if(g->terrain_.begin(), g->terrain_.end(),
                                 [&](const Terrain& t) { return t.name == name; });
    if (it == g->terrain_.end())
      v.fail_value("no terrain kind of this name");
    else
      g->hex_terrain_[static_cast<size_t>(hex)] = static_cast<uint8_t>(it - g->terrain_.begin());
  }

  // 4.3: the Combat Results Table, six rows (die 1..6) of one result per column.
  const JsonReader crt = r.at("crt");
  crt.allow_only({"rule", "columns", "below_first", "rows"});
  g->crt_columns_ = crt.str_list("columns");
  g->below_first_ = crt.str("below_first");
  const auto rows = crt.at("rows").elements();
  if (rows.size() != 6) crt.at("rows").fail("the table needs 6 rows, one per die roll");
  static constexpr const char* kResults[] = {"AE", "AR", "EX", "DR", "DE"};
  for (const JsonReader& row : rows) {
    std::vector<std::string> cells = row.as_str_list();
    if (cells.size() != g->crt_columns_.size()) row.fail("a row needs one result per column");
    for (size_t c = 0; c < cells.size(); ++c) row.at(c).as_word(kResults);
    g->crt_rows_.push_back(std::move(cells));
  }

  for (const JsonReader& u : r.at("units").elements()) {
    u.allow_only({"id", "side", "attack", "defense", "ma"});
    UnitDef d{u.str("id"), u.at("side").as_word(kSideNames), u.int_in("attack", 0, 99),
              u.int_in("defense", 1, 99), u.int_in("ma", 0, 99)};
    if (g->unit_index(d.id) >= 0) u.at("id").fail_value("two units have this id");
    g->units_.push_back(std::move(d));
  }

  for (const JsonReader& s : r.at("scenarios").elements()) {
    s.allow_only({"id", "name", "description", "turns", "objective", "setup"});
    Scenario sc{s.str("id"), s.str("name"), s.str_or("description", ""), s.int_in("turns", 1, 99), -1, {}};
    sc.objective = g->grid_.parse(s.str("objective"));
    if (sc.objective < 0) s.at("objective").fail_value("no hex of this id");
    sc.setup_hexs.assign(g->units_.size(), -1);
    for (const auto& [uid, hex] : s.at("setup").members()) {
      const int u = g->unit_index(uid);
      const int h = g->grid_.parse(hex.as_str());
      if (u < 0) hex.fail("no unit '" + uid + "'");
      if (h < 0) hex.fail_value("no hex of this id");
      if (u >= 0 && h >= 0) {
        if (g->terrain_[g->hex_terrain_[static_cast<size_t>(h)]].cost < 0)
          hex.fail_value("a unit may not be set up where it may not move (3.1)");
        if (std::find(sc.setup_hexs.begin(), sc.setup_hexs.end(), h) != sc.setup_hexs.end())
          hex.fail_value("two units set up in one hex (3.3)");
        sc.setup_hexs[static_cast<size_t>(u)] = h;
      }
    }
    if (sc.id == "empty") s.at("id").fail_value("'empty' is the kernel's empty scenario");
    g->scenarios_.push_back(std::move(sc));
  }
  if (!r.ok()) return r.error();

  auto hash = steppe::rules_hash_of_dir(data_dir);
  if (!hash) return hash.error();
  g->rules_hash_ = *hash;
  g->map_doc_ =
      Json{{"grid", g->grid_.to_json()}, {"hexes", (*doc)["hexes"]}, {"terrain", (*doc)["terrain"]}};
  return g;
}

int ExampleGame::unit_index(std::string_view id) const {
  for (size_t i = 0; i < units_.size(); ++i)
    if (units_[i].id == id) return static_cast<int>(i);
  return -1;
}

const std::string& ExampleGame::crt(int col, int die) const {
  return col < 0 ? below_first_ : crt_rows_[static_cast<size_t>(die - 1)][static_cast<size_t>(col)];
}

std::vector<steppe::ScenarioInfo> ExampleGame::scenarios() const {
  std::vector<steppe::ScenarioInfo> out;
  for (const auto& s : scenarios_) out.push_back({s.id, s.name, s.description, 1, s.turns});
  return out;
}

Result<std::unique_ptr<steppe::State>> ExampleGame::new_state(const std::string& scenario,
                                                              uint64_t seed) const {
  // "empty" (every game has it, for tests): no unit on the map, one turn.
  static const Scenario kEmpty{"empty", "Empty map", "", 1, -1, {}};
  const Scenario* sc = nullptr;
  if (scenario == "empty") {
    sc = &kEmpty;
  } else {
    for (const auto& s : scenarios_)
      if (s.id == scenario) sc = &s;
  }
  if (sc == nullptr) return Error{"no scenario '" + scenario + "' in the example game", "", ""};
  return std::unique_ptr<steppe::State>(std::make_unique<ExampleState>(*this, sc, seed));
}

Json ExampleGame::map_json() const { return map_doc_; }

Result<Json> ExampleGame::describe_location(const std::string& id) const {
  const int h = grid_.parse(id);
  if (h < 0) return Error{"no hex '" + id + "'", "1.1", ""};
  const Terrain& t = terrain_at(h);
  return Json{{"hex", id}, {"terrain", t.name}, {"cost", t.cost}, {"shift", t.shift}};
}

Result<std::unique_ptr<steppe::Game>> load_game(const std::filesystem::path& data_dir) {
  auto g = ExampleGame::load(data_dir / "example");
  if (!g) return g.error();
  return std::unique_ptr<steppe::Game>(std::move(g).value());
}

}  // namespace example
