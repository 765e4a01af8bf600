#include "games/bd/bd_data.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>

namespace bd {

using steppe::JsonReader;

const char* side_name(int side) { return side == kGerman ? "german" : side == kSoviet ? "soviet" : "none"; }

// ---------------------------------------------------------------- grid (digest 2.2)

// The box of bd_data.h as a kernel "grid" object: the same form as map.json's.
steppe::HexGrid make_grid_2_2() {
  const Json grid{{"id_format", "RRCC"},
                  {"orientation", "pointy"},
                  {"rows", {{"first", kFirstRow}, {"last", kLastRow}, {"increase", "south"}}},
                  {"cols", {{"first", kFirstCol}, {"last", kLastCol}, {"increase", "west"}}},
                  {"odd_rows_shift", "west"}};
  auto g = steppe::HexGrid::from_json(grid, "bd grid (digest 2.2)");
  if (!g) {  // the constants above are wrong: no game could be played
    std::fprintf(stderr, "%s\n", g.error().to_string().c_str());
    std::abort();
  }
  return std::move(g).value();
}

std::string hex_id(int idx) { return idx >= 0 && idx < kNumHexes ? grid_2_2().id(idx) : "----"; }

const char* dir_name(int d) { return d >= 0 && d < 6 ? grid_2_2().direction_name(d).c_str() : "?"; }

const char* result_name(int r) {
  static const char* names[] = {"AE", "AS", "DE", "BB", "DR"};
  return r >= 0 && r < 5 ? names[r] : "?";
}

std::string odds_label(int index) {
  if (index >= 0) return std::to_string(index + 1) + ":1";
  return "1:" + std::to_string(1 - index);
}

namespace {

struct TypeName {
  UnitType t;
  const char* name;
};
constexpr TypeName kTypeNames[] = {
    {kPanzer, "panzer"},
    {kInfantry, "infantry"},
    {kMountain, "mountain"},
    {kParatroop, "paratroop"},
    {kLuftwaffeField, "luftwaffe-field"},
    {kSsInfantry, "ss-infantry"},
    {kKampfgruppe, "kampfgruppe"},
    {kEmergency, "emergency"},
    {kSatelliteArmy, "satellite-army"},
    {kArmyDetachment, "army-detachment"},
    {kGroup, "group"},
    {kFortressCommand, "fortress-command"},
    {kTigerBattalion, "tiger-battalion"},
    {kCoastalCommand, "coastal-command"},
    {kRifleArmy, "rifle-army"},
    {kOversizedRifleArmy, "oversized-rifle-army"},
    {kShockArmy, "shock-army"},
    {kGuardsArmy, "guards-army"},
    {kTankArmy, "tank-army"},
    {kGuardsTankArmy, "guards-tank-army"},
    {kMechCorps, "mech-corps"},
    {kRifleCorps, "rifle-corps"},
    {kAirborneCorps, "airborne-corps"},
    {kCavalryGroup, "cavalry-group"},
    {kCmGroup, "cm-group"},
    {kMechGroup, "mech-group"},
    {kNavalInfantry, "naval-infantry"},
    {kCoastalArmy, "coastal-army"},
    {kMilitiaArmy, "militia-army"},
    {kCounterFireCorps, "counter-fire-corps"},
    {kCommunistSatelliteArmy, "communist-satellite-army"},
};

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

int read_factor(const JsonReader& r, const char* key) {
  JsonReader v = r.at(key);
  if (v.json().is_string()) {
    if (v.as_str() == "d6") return kRolled;
    v.fail_value("combat factor must be an integer >= 0 or \"d6\"");
    return 0;
  }
  return v.as_int_in(0, 99);
}

int read_hex(const JsonReader& r) {
  const std::string s = r.as_str();
  const int h = parse_hex(s);
  if (h < 0 && r.json().is_string())
    r.fail_value("not a hex id of the BD grid (RRCC, rows 10-32, columns 00-24)");
  return h;
}

std::vector<int> read_hex_list(const JsonReader& r) {
  std::vector<int> out;
  for (const JsonReader& e : r.elements()) out.push_back(read_hex(e));
  return out;
}

Result<UnitDef> parse_unit_reader(const JsonReader& u) {
  UnitDef d;
  d.id = u.str("id");
  d.label = u.str("label");
  d.name = u.str_or("name", d.label);
  const std::string side = u.str("side");
  if (side == "german")
    d.side = kGerman;
  else if (side == "soviet")
    d.side = kSoviet;
  else if (u.has("side"))
    u.at("side").fail_value("side must be \"german\" or \"soviet\"");
  d.set_nation(u.str_or("nation", d.side == kGerman ? "german" : "soviet"));
  const std::string cls = u.str("class");
  if (cls == "mech")
    d.cls = kMech;
  else if (cls == "non-mech")
    d.cls = kNonMech;
  else if (cls == "static")
    d.cls = kStatic;
  else if (u.has("class"))
    u.at("class").fail_value("class must be mech, non-mech or static");
  const std::string type = u.str("type");
  bool found = false;
  for (const auto& tn : kTypeNames)
    if (type == tn.name) {
      d.type = tn.t;
      found = true;
    }
  if (!found && u.has("type")) u.at("type").fail_value("unknown unit type (data/bd/SCHEMA.md lists them)");
  d.attack = read_factor(u, "attack");
  d.defense = read_factor(u, "defense");
  d.attack_circled = u.boolean_or("attack_circled", false);
  d.support_shifts = static_cast<int>(u.integer_or("support_shifts", 0));
  d.dotted = u.boolean_or("dotted", false);
  d.returns_once = u.boolean_or("returns_once", false);
  const std::string zone = u.str_or("zone", "");
  d.zone = zone == "north" ? kZoneNorth : zone == "south" ? kZoneSouth : kZoneNone;
  if (auto sc = u.opt("setup_code")) {
    if (sc->json().is_string()) d.setup_code = sc->as_str();
  }
  if (auto et = u.opt("entry_turn")) d.entry_turn = et->as_int_in(1, 32);
  if (auto eh = u.opt("entry_hex")) d.entry_hex = read_hex(*eh);
  if (d.label.find(' ') != std::string::npos) u.at("label").fail_value("label must not contain spaces");
  u.check_reconstructed();
  if (!u.ok()) return u.error();
  return d;
}

Terrain terrain_from(const std::string& s, bool& ok) {
  ok = true;
  if (s == "clear") return kClear;
  if (s == "rough") return kRough;
  if (s == "marsh") return kMarsh;
  if (s == "desert-steppe" || s == "desert") return kDesert;
  if (s == "all-sea" || s == "sea") return kAllSea;
  if (s == "all-lake" || s == "lake") return kAllLake;
  ok = false;
  return kClear;
}

Country country_from(const std::string& s) {
  if (s == "ussr" || s == "soviet-union") return kUssr;
  if (s == "baltic" || s == "lithuania" || s == "latvia" || s == "estonia" || s == "baltic-states")
    return kBaltic;
  if (s == "greater-germany" || s == "germany") return kGreaterGermany;
  if (s == "general-government") return kGeneralGovernment;
  if (s == "slovakia") return kSlovakia;
  if (s == "hungary") return kHungary;
  if (s == "romania") return kRomania;
  if (s == "yugoslavia") return kYugoslavia;
  if (s == "bulgaria") return kBulgaria;
  if (s.empty()) return kCountryNone;
  return kCountryOther;
}

uint8_t dir_mask(const JsonReader& r) {
  uint8_t m = 0;
  for (const JsonReader& e : r.elements()) {
    const std::string s = e.as_str();
    bool ok = false;
    for (int d = 0; d < 6; ++d)
      if (s == dir_name(d)) {
        m = static_cast<uint8_t>(m | (1u << d));
        ok = true;
      }
    if (!ok && e.json().is_string()) e.fail_value("hexside direction must be one of E, NE, NW, W, SW, SE");
  }
  return m;
}

// Reads map.json's grid and checks that it is the one BD positions are sized for: the same box,
// numbering and shift (2.2; a position keeps per-hex arrays of kNumHexes entries).
steppe::Status load_grid(BdData& d, const Json& grid, const std::string& file) {
  auto g = steppe::HexGrid::from_json(grid, file);
  if (!g) return g.error();
  if (g->to_json() != grid_2_2().to_json())
    return Error{"the grid is not the Barbarossa Deluxe grid (RRCC, rows " + std::to_string(kFirstRow) + "-" +
                     std::to_string(kLastRow) + " rising south, columns " + std::to_string(kFirstCol) + "-" +
                     std::to_string(kLastCol) + " rising west, odd rows shifted west)",
                 "2.2", file};
  d.grid = std::move(g).value();
  return steppe::Status::ok();
}

steppe::Status load_map(BdData& d, const std::filesystem::path& file) {
  for (int i = 0; i < kNumHexes; ++i) d.hexes[static_cast<size_t>(i)].on_map = true;
  d.grid = grid_2_2();  // a map without "grid" (a hand-written test map)
  if (!std::filesystem::exists(file)) return steppe::Status::ok();  // empty map until the maps helper lands
  auto doc = steppe::load_json_file(file);
  if (!doc) return doc.error();
  JsonReader r(*doc, file.string());
  if (doc->contains("grid"))
    if (auto s = load_grid(d, (*doc)["grid"], file.string()); !s) return s;
  if (!r.has("hexes")) return steppe::Status::ok();
  for (int i = 0; i < kNumHexes; ++i) d.hexes[static_cast<size_t>(i)].on_map = false;
  JsonReader hexes = r.at("hexes");
  std::vector<std::pair<std::string, JsonReader>> items;
  if (hexes.is_object()) {
    items = hexes.members();
  } else {
    for (const JsonReader& h : hexes.elements()) items.emplace_back(h.str("id"), h);
  }
  for (auto& [id, h] : items) {
    const int idx = parse_hex(id);
    if (idx < 0) {
      h.fail("hex id \"" + id + "\" is not on the BD grid");
      continue;
    }
    HexInfo& x = d.hexes[static_cast<size_t>(idx)];
    x.on_map = true;
    bool ok = true;
    x.terrain = terrain_from(h.str_or("terrain", "clear"), ok);
    if (!ok) h.at("terrain").fail_value("unknown terrain");
    if (auto c = h.opt("city")) {
      if (c->json().is_string()) {
        x.city = true;
        x.name = c->as_str();
      } else if (c->json().is_boolean()) {
        x.city = c->as_bool();
      }
    }
    x.name = h.str_or("name", x.name);
    // Kernel HexMap format (maps helper): "features" list, "control", "fortified_by", "regions".
    if (auto feats = h.opt("features")) {
      for (const std::string& f : feats->as_str_list()) {
        if (f == "city") x.city = true;
        if (f == "city" || f == "oil" || f == "industrial") x.vp = true;  // 4.2
        if (f == "coastal" || f == "port") x.coastal = true;
        if (f == "fortified-line") {
          const std::string by = h.str_or("fortified_by", "soviet");
          x.fortified = by == "german" ? int8_t{kGerman} : int8_t{kSoviet};
        }
      }
    }
    if (auto ctl = h.opt("control")) {
      const std::string c = ctl->as_str();
      x.initial_control = c == "german" ? int8_t{kGerman} : c == "soviet" ? int8_t{kSoviet} : int8_t{-1};
      x.west_of_start_line = c == "german";  // 5.15: the start line is the 1941 border
    }
    if (auto regs = h.opt("regions")) {
      for (const std::string& g : regs->as_str_list()) {
        if (g == "DP" && x.area == kAreaNone) x.area = kAreaDP;
        if (g == "R") x.area = kAreaR;
        if (g == "CS") x.area = kAreaCS;
        if (g == "north") x.zone = kZoneNorth;
        if (g == "south") x.zone = kZoneSouth;
      }
    }
    // The flat keys below (hand-written test maps) add to what "features", "control" and
    // "regions" said; a key that is absent leaves the value alone. (They used to reset zone,
    // area, fortified and west_of_start_line for every hex of the generated map, and drop the
    // VP of oil fields and the USIR: rules 4.2, 5.15, 7.4, 11.21 saw none of them.)
    x.vp = x.vp || h.boolean_or("vp", false) || h.integer_or("vp_value", 0) > 0 ||
           h.boolean_or("oil", false) || x.city;
    x.country = country_from(h.str_or("country", ""));
    if (h.has("zone")) {
      const std::string z = h.str("zone");
      x.zone = z == "north" ? kZoneNorth : z == "south" ? kZoneSouth : kZoneNone;
    }
    if (h.has("area")) {
      const std::string a = h.str("area");
      x.area = a == "DP" ? kAreaDP : a == "R" ? kAreaR : a == "CS" ? kAreaCS : kAreaNone;
    }
    if (h.has("fortified")) {
      const std::string f = h.str("fortified");
      x.fortified = f == "soviet" ? int8_t{kSoviet} : f == "german" ? int8_t{kGerman} : int8_t{-1};
    }
    if (auto c = h.opt("coastal")) x.coastal = !c->json().is_boolean() || c->as_bool();
    if (h.has("west_of_start_line")) x.west_of_start_line = h.boolean_or("west_of_start_line", false);
    if (auto rv = h.opt("rivers")) x.river = dir_mask(*rv);
    if (auto rv = h.opt("lake_sides")) x.lake_side = dir_mask(*rv);
    if (auto rv = h.opt("sea_sides")) x.sea_side = dir_mask(*rv);
  }
  if (auto sides = r.opt("hexsides")) {
    for (const JsonReader& e : sides->elements()) {
      const auto ids = e.str_list("hexes");
      if (ids.size() != 2) {
        e.at("hexes").fail("a hexside lists two hexes");
        continue;
      }
      const int a = parse_hex(ids[0]), b = parse_hex(ids[1]);
      const int dd = direction(a, b);
      if (a < 0 || b < 0 || dd < 0) {
        e.at("hexes").fail_value("hexside hexes must be adjacent hexes of the grid");
        continue;
      }
      for (const std::string& f : e.str_list_or_empty("features")) {
        const uint8_t bit = static_cast<uint8_t>(1u << dd);
        HexInfo& x = d.hexes[static_cast<size_t>(a)];
        if (f == "river" || f == "major-river") x.river |= bit;  // 10.18
        if (f == "all-lake") x.lake_side |= bit;                 // 11.19
        if (f == "all-sea") x.sea_side |= bit;  // 10.13 (Kerch/Sivash handled by places.json)
      }
    }
  }
  // Hexside features are symmetric: mirror them onto the neighbour.
  for (int i = 0; i < kNumHexes; ++i)
    for (int dd = 0; dd < 6; ++dd) {
      const int n = neighbour(i, dd);
      if (n < 0) continue;
      const uint8_t bit = static_cast<uint8_t>(1u << dd), obit = static_cast<uint8_t>(1u << ((dd + 3) % 6));
      auto& a = d.hexes[static_cast<size_t>(i)];
      auto& b = d.hexes[static_cast<size_t>(n)];
      if (a.river & bit) b.river |= obit;
      if (a.lake_side & bit) b.lake_side |= obit;
      if (a.sea_side & bit) b.sea_side |= obit;
    }
  d.map_loaded = true;
  return r.status();
}

steppe::Status load_tables(BdData& d, const std::filesystem::path& dir) {
  // crt.json (11.10, 11.25)
  {
    const auto file = dir / "crt.json";
    auto doc = steppe::load_json_file(file);
    if (!doc) return doc.error();
    JsonReader r(*doc, file.string());
    r.check_reconstructed();
    const auto cols = r.str_list("columns");
    if (cols.empty() || cols.front() != "1:6" || cols.back() != "7:1" || cols.size() != 12)
      r.at("columns").fail("columns must be the 12 odds 1:6 .. 7:1 (11.10)");
    auto rows = r.at("results").elements();
    if (rows.size() != cols.size()) r.at("results").fail("results must have one row per column");
    for (const JsonReader& row : rows) {
      std::array<uint8_t, 6> out{};
      auto cells = row.elements();
      if (cells.size() != 6) row.fail("each column needs 6 results (die 1..6)");
      for (size_t i = 0; i < cells.size() && i < 6; ++i) {
        const std::string s = cells[i].as_str();
        int v = -1;
        for (int k = 0; k < 5; ++k)
          if (s == result_name(k)) v = k;
        if (v < 0)
          cells[i].fail_value("result must be AE, AS, DE, BB or DR");
        else
          out[i] = static_cast<uint8_t>(v);
      }
      d.crt.results.push_back(out);
    }
    if (!r.ok()) return r.error();
  }
  // terrain.json (10.8-10.20, 11.13-11.24)
  {
    const auto file = dir / "terrain.json";
    auto doc = steppe::load_json_file(file);
    if (!doc) return doc.error();
    JsonReader r(*doc, file.string());
    r.check_reconstructed();
    JsonReader t = r.at("terrain");
    for (int i = 0; i < kNumTerrain; ++i) {
      JsonReader e = t.at(terrain_name(static_cast<Terrain>(i)));
      e.check_reconstructed();
      d.tec.prohibited[i] = e.boolean_or("prohibited", false);
      if (!d.tec.prohibited[i]) {
        d.tec.mp[i][kMech] = e.at("mp").int_in("mech", 1, 20);
        d.tec.mp[i][kNonMech] = e.at("mp").int_in("non-mech", 1, 20);
        d.tec.shift[i] = static_cast<int>(e.integer_or("shift", 0));
        d.tec.ma_allowed[i] = e.boolean_or("ma_allowed", false);
      }
    }
    JsonReader river = r.at("hexside").at("river");
    d.tec.river_mp[kMech] = river.at("mp").int_in("mech", 0, 20);
    d.tec.river_mp[kNonMech] = river.at("mp").int_in("non-mech", 0, 20);
    JsonReader f = r.at("features");
    d.tec.city_shift = static_cast<int>(f.at("city").integer("shift"));
    d.tec.fortress_shift = static_cast<int>(f.at("hero-city").integer("shift"));
    d.tec.line_shift = static_cast<int>(f.at("fortified-line").integer("shift"));
    d.tec.fa_first = static_cast<int>(f.at("fortified-area").integer("shift_first_turn"));
    d.tec.fa_later = static_cast<int>(f.at("fortified-area").integer("shift_later"));
    JsonReader ma = r.at("mobile_assault");
    d.tec.ma_extra_clear = ma.int_in("extra_mp_clear", 0, 20);
    d.tec.ma_extra_city = ma.int_in("extra_mp_city_or_line", 0, 20);
    d.tec.ma_shift = static_cast<int>(ma.integer("shift"));
    if (!r.ok()) return r.error();
  }
  // stacking.json (6.3, 6.4, 8.30)
  {
    const auto file = dir / "stacking.json";
    auto doc = steppe::load_json_file(file);
    if (!doc) return doc.error();
    JsonReader r(*doc, file.string());
    r.check_reconstructed();
    d.stacking.units_per_hex = r.int_in("units_per_hex", 1, 99);
    d.stacking.satellite_armies_per_hex = r.int_in("satellite_armies_per_hex", 0, 99);
    d.stacking.cavalry_groups_per_hex = r.int_in("cavalry_groups_per_hex", 0, 99);
    if (!r.ok()) return r.error();
  }
  // calendar.json (5.8, 5.9), trrt.json, victory.json
  d.turns.assign(32, TurnInfo{});
  {
    const auto file = dir / "calendar.json";
    auto doc = steppe::load_json_file(file);
    if (!doc) return doc.error();
    JsonReader r(*doc, file.string());
    auto turns = r.at("turns").elements();
    if (turns.size() != 32) r.at("turns").fail("the calendar must list game turns 1..32 (5.8)");
    for (const JsonReader& t : turns) {
      const int n = t.int_in("turn", 1, 32);
      TurnInfo& ti = d.turns[static_cast<size_t>(n - 1)];
      ti.turn = n;
      ti.months = t.str("months");
      const std::string ty = t.str("type");
      if (ty != "single" && ty != "double") t.at("type").fail_value("type must be single or double");
      ti.single = ty == "single";
      ti.year = t.int_in("year", 1941, 1945);
    }
    if (!r.ok()) return r.error();
  }
  {
    const auto file = dir / "trrt.json";
    auto doc = steppe::load_json_file(file);
    if (!doc) return doc.error();
    JsonReader r(*doc, file.string());
    r.check_reconstructed();
    for (const JsonReader& t : r.at("turns").elements()) {
      const int n = t.int_in("turn", 1, 32);
      TurnInfo& ti = d.turns[static_cast<size_t>(n - 1)];
      const char* sides[] = {"german", "soviet"};
      for (int s = 0; s < 2; ++s) {
        JsonReader sr = t.at(sides[s]);
        ti.mf[s][kMech] = sr.at("mf").int_in("mech", 0, 30);
        ti.mf[s][kNonMech] = sr.at("mf").int_in("non-mech", 0, 30);
        ti.repl[s][kMech] = sr.at("replacements").int_in("mech", 0, 20);
        ti.repl[s][kNonMech] = sr.at("replacements").int_in("non-mech", 0, 20);
      }
      ti.luftwaffe = t.at("german").int_in("luftwaffe", 0, 20);
    }
    for (const JsonReader& m : r.at("markers").elements()) {
      m.check_reconstructed();
      MarkerArrival a;
      a.marker = m.str("marker");
      a.side = m.str("side") == "german" ? kGerman : kSoviet;
      a.letter = m.str_or("letter", "");
      a.range = static_cast<int>(m.integer_or("range", 0));
      a.withdrawn = static_cast<int>(m.integer_or("withdrawn", 0));  // 8.37
      if (m.has("turns")) {
        for (const JsonReader& tt : m.at("turns").elements()) {
          MarkerArrival b = a;
          b.turn = tt.as_int_in(1, 32);
          b.count = 1;
          d.markers.push_back(b);
        }
      } else {
        a.turn = m.int_in("turn", 1, 32);
        a.count = static_cast<int>(m.integer_or("count", 1));
        d.markers.push_back(a);
      }
    }
    if (!r.ok()) return r.error();
  }
  {
    const auto file = dir / "victory.json";
    auto doc = steppe::load_json_file(file);
    if (!doc) return doc.error();
    JsonReader r(*doc, file.string());
    r.check_reconstructed();
    d.vp_start = static_cast<int>(r.at("vp_start").integer("value"));
    JsonReader ms = r.at("moscow_sudden_death");
    for (const JsonReader& m : ms.at("modifiers").elements()) {
      d.moscow_mods_hex.push_back(read_hex(m.at("hex")));
      d.moscow_mods_value.push_back(m.int_in("mod", -6, 6));
    }
    for (const JsonReader& row : ms.at("table").elements())
      if (row.str("result") == "surrender") d.moscow_surrender_at = row.int_in("min", 1, 99);
    VictoryRules& vr = d.victory;
    auto vp_roll = [](const JsonReader& x) {
      VpRoll v;
      v.divide = x.int_in("divide", 1, 6);
      v.add = x.int_in("add", -6, 6);
      return v;
    };
    for (const JsonReader& e : r.at("early_loss").elements()) {  // 4.7, 4.8
      EarlyLoss l;
      l.hex = read_hex(e.at("hex"));
      l.name = e.str("name");
      l.rule = e.str("rule");
      l.before_turn = e.int_in("before_turn", 1, 33);
      l.roll = vp_roll(e);
      vr.early_loss.push_back(l);
    }
    vr.baltic_after = r.at("baltic_states").int_in("after_turn", 0, 32);  // 4.5
    vr.baltic_vp = r.at("baltic_states").int_in("vp", -99, 99);
    JsonReader dn = r.at("dnepr");  // 4.6
    vr.dnepr_after = dn.int_in("after_turn", 0, 32);
    vr.dnepr_vp = dn.int_in("vp", -99, 99);
    auto mark_dnepr = [&](int h) {
      if (h >= 0) d.hexes[static_cast<size_t>(h)].dnepr = true;
    };
    for (const JsonReader& side : dn.at("hexsides").elements()) {
      const std::vector<int> pair = read_hex_list(side);
      if (pair.size() != 2 || pair[0] < 0 || pair[1] < 0 || direction(pair[0], pair[1]) < 0) {
        side.fail("a Dnepr hexside is two adjacent hexes (4.6)");
        continue;
      }
      for (int h : pair) mark_dnepr(h);
    }
    for (int h : read_hex_list(dn.at("all_sides"))) {  // Kiev, Dnepropetrovsk: all six sides
      mark_dnepr(h);
      for (int side = 0; side < 6; ++side) mark_dnepr(neighbour(h, side));
    }
    JsonReader so = r.at("summer_offensive_1943");  // 4.4
    for (const JsonReader& t : so.at("turns").elements()) vr.summer_turns.push_back(t.as_int_in(1, 32));
    vr.summer_roll = vp_roll(so);
    JsonReader ko = r.at("kiev_option");  // 4.21
    vr.kiev_hex = read_hex(ko.at("hex"));
    vr.kiev_by_turn = ko.int_in("by_turn", 0, 32);
    vr.kiev_roll = vp_roll(ko);
    JsonReader wo = r.at("watch_on_the_oder");  // 4.18, 4.19
    vr.watch_choose_turn = wo.int_in("choose_turn", 1, 32);
    vr.watch_reveal_turn = wo.int_in("reveal_turn", 1, 32);
    vr.oder_cities = wo.int_in("cities_taken", 1, 99);
    vr.oder_one_city_units = wo.int_in("one_city_units", 0, 999);
    vr.oder_units_alone = wo.int_in("units_alone", 0, 999);
    vr.oder_big_cf = wo.int_in("big_unit_above_cf", 0, 99);
    vr.oder_repl_mech = wo.at("oder_replacements").int_in("mech", 0, 20);
    vr.oder_repl_non = wo.at("oder_replacements").int_in("non-mech", 0, 20);
    vr.oder_mech_mf = wo.int_in("oder_mech_mf", 0, 30);
    vr.oder_luftwaffe_extra = wo.int_in("oder_luftwaffe_extra", 0, 20);
    vr.oder_units = wo.str_list_or_empty("oder_units");
    vr.soviet_perm_withdrawal_turn = r.at("soviet_permanent_withdrawal").int_in("turn", 1, 32);  // 8.21
    if (auto ep = r.opt("empty_scenario_params"))
      for (auto& [name, v] : ep->members())
        if (name != "rule") vr.empty_params[name] = v.as_int_in(0, 99);
    JsonReader ss = r.at("ss_withdrawal_failed");  // 4.10, 8.17
    vr.ss_unit = ss.str("unit");
    for (const JsonReader& t : ss.at("turns").elements()) vr.ss_turns.push_back(t.as_int_in(1, 32));
    for (const JsonReader& t : ss.at("return_turns").elements()) vr.ss_returns.push_back(t.as_int_in(1, 33));
    if (vr.ss_returns.size() != vr.ss_turns.size()) ss.fail("one return turn per withdrawal turn (8.17)");
    vr.ss_vp = ss.int_in("vp", -99, 99);
    JsonReader ca = r.at("caucasus");  // 4.11-4.13
    vr.caucasus_launch_hexes = read_hex_list(ca.at("launch_hexes"));
    vr.caucasus_exits = read_hex_list(ca.at("exit_hexes"));
    vr.caucasus_breakthrough_at = ca.int_in("breakthrough_at", 1, 99);
    vr.caucasus_stalingrad_mod = ca.int_in("stalingrad_mod", -6, 6);
    vr.caucasus_stalingrad = read_hex(ca.at("stalingrad"));
    vr.caucasus_response = ca.int_in("response_armies", 0, 20);
    vr.caucasus_infantry = ca.at("expedition").int_in("infantry", 0, 5);
    vr.caucasus_panzer = ca.at("expedition").int_in("panzer", 0, 5);
    vr.caucasus_per_turn_vp = ca.int_in("per_turn_vp", -9, 9);
    vr.caucasus_award.divide = ca.int_in("award_divide", 1, 6);
    vr.caucasus_award.add = ca.int_in("award_add", -6, 6);
    auto types = [&](const char* key, std::vector<UnitType>& out) {
      for (const JsonReader& t : ca.at(key).elements()) {
        bool ok = false;
        out.push_back(type_from_name(t.as_str(), ok));
        if (!ok) t.fail_value("unknown unit type");
      }
    };
    types("response_types", vr.caucasus_response_types);
    types("infantry_types", vr.caucasus_infantry_types);
    types("panzer_types", vr.caucasus_panzer_types);
    JsonReader mg = r.at("mansteins_gambit");  // 4.16, 4.17
    vr.mg_end_turn = mg.int_in("end_turn", 1, 32);
    vr.mg_units = mg.str_list("units");
    for (const JsonReader& e : mg.at("early").elements())
      vr.mg_early.emplace_back(e.str("unit"), e.int_in("from_turn", 1, 33));
    vr.mg_repl_mech = mg.at("replacements").int_in("mech", 0, 20);
    vr.mg_repl_non = mg.at("replacements").int_in("non-mech", 0, 20);
    vr.mg_cities = read_hex_list(mg.at("cities"));
    vr.mg_cities_needed = mg.int_in("cities_needed", 0, 10);
    if (vr.caucasus_infantry + vr.caucasus_panzer < 1 || vr.caucasus_infantry + vr.caucasus_panzer > 5)
      ca.at("expedition").fail("an expedition is 1 to 5 units (4.11)");
    for (const JsonReader& v : r.at("victory_check_chart").elements()) {
      v.check_reconstructed();
      const int n = v.int_in("turn", 1, 32);
      TurnInfo& ti = d.turns[static_cast<size_t>(n - 1)];
      ti.check = true;
      ti.german_wins_at = v.int_in("german_wins_at_or_above", -99, 999);
      ti.soviet_wins_at = v.int_in("soviet_wins_at_or_below", -99, 999);
    }
    if (!r.ok()) return r.error();
  }
  // places.json (hex numbers named in the text)
  {
    const auto file = dir / "places.json";
    auto doc = steppe::load_json_file(file);
    if (!doc) return doc.error();
    JsonReader r(*doc, file.string());
    JsonReader h = r.at("hexes");
    Places& p = d.places;
    p.moscow = read_hex(h.at("moscow"));
    p.leningrad = read_hex(h.at("leningrad"));
    p.kiev = read_hex(h.at("kiev"));
    p.stalingrad = read_hex(h.at("stalingrad"));
    p.rostov = read_hex(h.at("rostov"));
    p.dnepropetrovsk = read_hex(h.at("dnepropetrovsk"));
    p.sevastopol = read_hex(h.at("sevastopol"));
    p.odessa = read_hex(h.at("odessa"));
    p.bucharest = read_hex(h.at("bucharest"));
    p.ploesti = read_hex(h.at("ploesti"));
    p.budapest = read_hex(h.at("budapest"));
    p.riga = read_hex(h.at("riga"));
    p.usir = read_hex(h.at("usir"));
    for (auto& [name, x] : h.members()) p.named[name] = read_hex(x);
    for (auto& [name, z] : r.at("zones").members()) p.zones[name] = read_hex_list(z);
    auto edge = [&](const char* key, std::vector<int>& out) {
      JsonReader e = r.at(key);
      auto rows = e.at("rows").elements();
      const int col = e.int_in("col", kFirstCol, kLastCol);
      std::vector<int> except;
      if (auto ex = e.opt("except_rows"))
        for (const JsonReader& x : ex->elements()) except.push_back(x.as_int_in(kFirstRow, kLastRow));
      if (rows.size() != 2) return;
      for (int row = rows[0].as_int_in(kFirstRow, kLastRow); row <= rows[1].as_int_in(kFirstRow, kLastRow);
           ++row)
        if (std::find(except.begin(), except.end(), row) == except.end()) out.push_back(hex_index(row, col));
    };
    edge("german_supply_edge", p.german_edge);
    edge("soviet_supply_edge", p.soviet_edge);
    edge("rvgk_exit_edge", p.rvgk_edge);
    p.gt1_marsh = read_hex_list(r.at("gt1_marsh_as_clear").at("hexes"));
    p.kerch = read_hex_list(r.at("kerch").at("hexes"));
    p.sivash = read_hex_list(r.at("sivash").at("hexes"));
    if (auto az = r.opt("azov_coast")) p.azov_coast = read_hex_list(az->at("hexes"));
    p.bulgarian_exits = read_hex_list(r.at("bulgarian_exits").at("hexes"));  // 8.26
    if (auto sm = r.opt("sea_movement"))
      for (const JsonReader& sea : sm->elements()) p.sea_ports.push_back(read_hex_list(sea.at("ports")));
    if (!r.ok()) return r.error();
  }
  return steppe::Status::ok();
}

steppe::Status load_counters(BdData& d, const std::filesystem::path& file) {
  if (!std::filesystem::exists(file)) return steppe::Status::ok();  // bd-oob fills it
  auto doc = steppe::load_json_file(file);
  if (!doc) return doc.error();
  JsonReader r(*doc, file.string());
  r.check_reconstructed();
  std::vector<std::string> counterpart_ids;
  for (const JsonReader& u : r.at("units").elements()) {
    auto def = parse_unit_reader(u);
    if (!def) continue;  // error already recorded in r
    const std::string kid = lower(def->id), klabel = lower(def->label);
    if (d.unit_by_key.count(kid) || d.unit_by_key.count(klabel)) {
      u.fail("duplicate unit id or label \"" + def->label + "\" (labels must be unique, SCHEMA.md)");
      continue;
    }
    const int idx = static_cast<int>(d.units.size());
    d.unit_by_key[kid] = idx;
    d.unit_by_key[klabel] = idx;
    d.units.push_back(*def);
    counterpart_ids.push_back(u.str_or("counterpart", ""));
  }
  if (!r.ok()) return r.error();
  if (d.units.size() > static_cast<size_t>(kMaxUnits))
    return Error{std::to_string(d.units.size()) + " units: at most " + std::to_string(kMaxUnits) +
                     " (kMaxUnits, bd_data.h: a position keeps them inline)",
                 "", file.string() + ": /units"};
  for (size_t i = 0; i < d.units.size(); ++i) {
    if (counterpart_ids[i].empty()) continue;
    const int c = d.find_unit(counterpart_ids[i]);
    if (c < 0)
      return Error{"counterpart \"" + counterpart_ids[i] + "\" is not a unit id", "",
                   file.string() + ": /units/" + std::to_string(i) + "/counterpart"};
    d.units[i].counterpart = c;
  }
  return steppe::Status::ok();
}

// "control": the hex control at the start of a scenario, over the 3.6 default (the 1941
// borders), which is right only for the 1941 and the 1942 What If starts. The later
// scenarios start on a front deep inside the USSR (12.14/12.15, 13.6, 14.6/14.7, 14.9):
//   "german_front": one hex per map row, the easternmost German-held hex of that row;
//                   every hex of the row at or west of it (column >= its column) that 3.6
//                   gives the Soviet starts German;
//   "german", "soviet": single hexes over that (pockets on either side of the front).
// The object must say where it comes from ("rule", or "reconstructed": true + "source").
void read_control(const BdData& d, const JsonReader& c, ScenarioDef& s) {
  if (!c.is_object()) {
    c.fail_value("control must be an object (german_front, german, soviet)");
    return;
  }
  c.check_reconstructed();
  if (!c.has("rule") && !c.is_reconstructed())
    c.fail("control needs a \"rule\" or \"reconstructed\": true with a \"source\"");
  auto on_map = [&](const JsonReader& e, int h) {
    if (h < 0) return false;  // read_hex reported it
    if (d.map_loaded && !d.hexes[static_cast<size_t>(h)].on_map) {
      e.fail_value("hex is not on the map");
      return false;
    }
    return true;
  };
  std::array<int8_t, kNumHexes> ctl{};  // what this object says, -1: nothing
  ctl.fill(-1);
  if (auto f = c.opt("german_front")) {
    std::array<bool, kRows> row_seen{};
    for (const JsonReader& e : f->elements()) {
      const int h = read_hex(e);
      if (!on_map(e, h)) continue;
      const int row = hex_row(h);
      if (row_seen[static_cast<size_t>(row - kFirstRow)]) {
        e.fail_value("row " + std::to_string(row) + " has a front hex already (one per row)");
        continue;
      }
      row_seen[static_cast<size_t>(row - kFirstRow)] = true;
      for (int col = hex_col(h); col <= kLastCol; ++col) {
        const int x = hex_index(row, col);
        if (x < 0) continue;
        const HexInfo& hi = d.hexes[static_cast<size_t>(x)];
        if (hi.on_map && start_control_3_6(hi) == kSoviet) ctl[static_cast<size_t>(x)] = kGerman;
      }
    }
  }
  std::array<bool, kNumHexes> listed{};
  for (const auto& [key, side] : {std::pair<const char*, int8_t>{"german", int8_t{kGerman}},
                                  std::pair<const char*, int8_t>{"soviet", int8_t{kSoviet}}}) {
    auto list = c.opt(key);
    if (!list) continue;
    for (const JsonReader& e : list->elements()) {
      const int h = read_hex(e);
      if (!on_map(e, h)) continue;
      if (listed[static_cast<size_t>(h)]) {
        e.fail_value("hex listed twice in control (german and soviet lists together)");
        continue;
      }
      listed[static_cast<size_t>(h)] = true;
      ctl[static_cast<size_t>(h)] = side;
    }
  }
  s.german_control.clear();
  s.soviet_control.clear();
  for (int h = 0; h < kNumHexes; ++h) {
    if (ctl[static_cast<size_t>(h)] == kGerman) s.german_control.push_back(h);
    if (ctl[static_cast<size_t>(h)] == kSoviet) s.soviet_control.push_back(h);
  }
}

// Set-up entries: a free-placement zone must exist (a misspelt one would leave the unit
// with nowhere to go); 3.1/3.6 a fixed set-up places each unit in a hex its own side
// controls at the start: a unit standing in enemy territory means the control data or the
// set-up is wrong (and placing it would silently move the front).
void check_setup(const BdData& d, const JsonReader& r, const ScenarioDef& s) {
  std::array<int, kNumHexes> ctl{};
  for (int h = 0; h < kNumHexes; ++h)
    ctl[static_cast<size_t>(h)] = start_control_3_6(d.hexes[static_cast<size_t>(h)]);
  for (int h : s.german_control) ctl[static_cast<size_t>(h)] = kGerman;
  for (int h : s.soviet_control) ctl[static_cast<size_t>(h)] = kSoviet;
  auto setup = r.opt("setup");
  if (!setup) return;
  const auto entries = setup->elements();
  for (size_t i = 0; i < entries.size() && i < s.setup.size(); ++i) {
    const SetupEntry& e = s.setup[i];
    if (!e.zone.empty() && !s.zones.count(e.zone) && !d.places.zones.count(e.zone) &&
        !builtin_setup_zone(e.zone))
      entries[i].at("zone").fail_value(
          "unknown set-up zone (not in this file's \"zones\", places.json or the built-in romania, "
          "any-german, any-soviet, german-occupied)");
    if (e.hex < 0 || e.unit < 0) continue;
    const int side = d.units[static_cast<size_t>(e.unit)].side;
    if (d.map_loaded && ctl[static_cast<size_t>(e.hex)] != side)
      entries[i].at("hex").fail_value(
          std::string(side_name(side)) + " unit " + d.units[static_cast<size_t>(e.unit)].id +
          " set up in a hex that starts " + side_name(ctl[static_cast<size_t>(e.hex)]) +
          "-controlled (3.6; see \"control\")");
  }
}

// A hex by the name the rulebook gives it: places.json "hexes" first (the hexes the text
// numbers), else the map's hex names, case-insensitive; -1 if none.
int named_hex(const BdData& d, const std::string& name) {
  auto lower = [](std::string x) {
    for (char& c : x) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return x;
  };
  const std::string key = lower(name);
  if (auto it = d.places.named.find(key); it != d.places.named.end()) return it->second;
  for (int h = 0; h < kNumHexes; ++h)
    if (!d.hexes[static_cast<size_t>(h)].name.empty() && lower(d.hexes[static_cast<size_t>(h)].name) == key)
      return h;
  return -1;
}

// "end_victory": which section's end-of-play conditions, with the lists and numbers it prints
// (13.4, 14.4, 14.10, 15.4). Errors name the field; the places are places.json or map names.
void read_end_victory(const BdData& d, const JsonReader& r, EndVictory& ev) {
  r.allow_only({"rule", "cities", "cities_needed", "clear_around", "no_enemy_in", "note"});
  ev.rule = r.str("rule");
  const bool known = ev.rule == "13.4" || ev.rule == "14.4" || ev.rule == "14.10" || ev.rule == "15.4";
  if (!known && r.at("rule").json().is_string()) {
    r.at("rule").fail_value("end_victory rule must be one of 13.4, 14.4, 14.10, 15.4");
    return;
  }
  auto place = [&](std::string_view key, int& hex, std::string& name) {
    name = r.str(key);
    hex = named_hex(d, name);
    if (hex < 0 && r.at(key).json().is_string())
      r.at(key).fail_value("no hex of that name in places.json \"hexes\" or on the map (map.json names)");
  };
  if (ev.rule == "13.4") {  // hold `cities_needed` of `cities`
    for (const JsonReader& e : r.at("cities").elements()) {
      const std::string name = e.as_str();
      const int h = named_hex(d, name);
      if (h < 0 && e.json().is_string())
        e.fail_value("no hex of that name in places.json \"hexes\" or on the map (map.json names)");
      ev.cities.push_back(h);
      ev.city_names.push_back(name);
    }
    ev.cities_needed = r.int_in("cities_needed", 1, static_cast<int>(std::max<size_t>(1, ev.cities.size())));
  } else {
    ev.cities_needed = r.int_in("cities_needed", 1, 99);
  }
  if (ev.rule == "14.4") {
    place("clear_around", ev.clear_around, ev.clear_around_name);
    place("no_enemy_in", ev.no_enemy_in, ev.no_enemy_in_name);
  } else {
    for (const char* key : {"clear_around", "no_enemy_in"})
      if (r.has(key)) r.at(key).fail("only a 14.4 end_victory has \"" + std::string(key) + "\"");
  }
  if (ev.rule != "13.4" && r.has("cities")) r.at("cities").fail("only a 13.4 end_victory lists \"cities\"");
}

steppe::Status load_scenarios(BdData& d, const std::filesystem::path& dir) {
  if (!std::filesystem::is_directory(dir)) return steppe::Status::ok();
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    auto doc = steppe::load_json_file(file);
    if (!doc) return doc.error();
    JsonReader r(*doc, file.string());
    r.check_reconstructed();
    ScenarioDef s;
    s.id = r.str("id");
    s.name = r.str_or("name", s.id);
    s.description = r.str_or("description", "");
    s.rule = r.str_or("rule", "");
    s.first_turn = r.int_in("first_turn", 1, 32);
    s.last_turn = r.int_in("last_turn", 1, 32);
    s.first_player = r.str_or("first_player", "german") == "soviet" ? kSoviet : kGerman;
    s.start_phase = r.str_or("start_phase", "admin");
    s.vp_start = static_cast<int>(r.integer_or("vp_start", d.vp_start));
    std::vector<bool> seen(d.units.size(), false);
    if (auto setup = r.opt("setup")) {
      for (const JsonReader& e : setup->elements()) {
        SetupEntry se;
        const std::string uid = e.str("unit");
        se.unit = d.find_unit(uid);
        if (se.unit < 0 && e.has("unit")) {
          e.at("unit").fail_value("unknown unit (not in counters.json)");
          continue;
        }
        if (se.unit >= 0) {
          if (seen[static_cast<size_t>(se.unit)]) e.at("unit").fail_value("unit listed twice in the set-up");
          seen[static_cast<size_t>(se.unit)] = true;
        }
        if (auto h = e.opt("hex")) se.hex = read_hex(*h);
        se.zone = e.str_or("zone", "");
        se.box = e.str_or("box", "");
        se.turn = static_cast<int>(e.integer_or("turn", 0));
        if (se.hex < 0 && se.zone.empty() && se.box.empty())
          e.fail("set-up entry needs a hex, a zone or a box");
        s.setup.push_back(se);
      }
    }
    // Scenario reinforcements (e.g. Manstein's Gambit's 2nd Para, 4.17): they wait on the
    // turn record track and enter by the normal rules of 8.1 on their turn.
    if (auto re = r.opt("reinforcements")) {
      for (const JsonReader& e : re->elements()) {
        SetupEntry se;
        se.unit = d.find_unit(e.str("unit"));
        if (se.unit < 0) {
          if (e.has("unit")) e.at("unit").fail_value("unknown unit (not in counters.json)");
          continue;
        }
        if (seen[static_cast<size_t>(se.unit)]) {
          e.at("unit").fail_value("unit listed twice in the set-up and reinforcements");
          continue;
        }
        seen[static_cast<size_t>(se.unit)] = true;
        se.box = "trrt";
        se.turn = e.int_in("turn", 1, 32);
        const std::string where = e.str_or("where", "west-edge");
        if (where != "west-edge" && where != "east-edge")
          e.at("where").fail_value("only \"west-edge\" and \"east-edge\" (normal 8.1 entry) are supported");
        s.setup.push_back(se);
      }
    }
    if (auto z = r.opt("zones"))
      for (auto& [name, list] : z->members()) s.zones[name] = read_hex_list(list);
    if (auto c = r.opt("control")) read_control(d, *c, s);
    if (auto m = r.opt("markers"))
      for (const JsonReader& e : m->elements()) {
        int h = -1;
        if (auto hh = e.opt("hex")) h = read_hex(*hh);
        s.markers.emplace_back(e.str("marker"), h);
      }
    s.special_rules = r.str_list_or_empty("special_rules");
    if (auto sd = r.opt("sudden_death"))
      for (const JsonReader& e : sd->elements()) {
        SuddenDeath v;
        const std::string side = e.str("side");
        if (side != "german" && side != "soviet")
          e.at("side").fail_value("side must be \"german\" or \"soviet\"");
        v.side = side == "soviet" ? kSoviet : kGerman;
        v.place = e.str("place");
        v.rule = e.str("rule");
        v.hex = named_hex(d, v.place);
        if (v.hex < 0)
          e.at("place").fail_value(
              "no hex of that name in places.json \"hexes\" or on the map (map.json names)");
        s.sudden_death.push_back(std::move(v));
      }
    if (auto ev = r.opt("end_victory")) read_end_victory(d, *ev, s.end_victory);
    if (auto pr = r.opt("params"))
      for (auto& [name, v] : pr->members())
        if (name != "rule") s.params[name] = v.as_int_in(0, 99);
    s.fixed_mf = {{{s.param("mf_german_mech"), s.param("mf_german_non")},
                   {s.param("mf_soviet_mech"), s.param("mf_soviet_non")}}};
    if (r.ok()) check_setup(d, r, s);
    if (!r.ok()) return r.error();
    d.scenarios.push_back(std::move(s));
  }
  return steppe::Status::ok();
}

}  // namespace

const char* terrain_name(Terrain t) {
  static constexpr const char* kNames[kNumTerrain] = {"clear",         "rough",   "marsh",
                                                      "desert-steppe", "all-sea", "all-lake"};
  return t < kNumTerrain ? kNames[t] : "?";
}

const char* country_name(Country c) {
  static constexpr const char* kNames[] = {
      "",         "ussr",    "baltic",  "greater-germany", "general-government",
      "slovakia", "hungary", "romania", "yugoslavia",      "bulgaria",
      "other"};
  return c <= kCountryOther ? kNames[c] : "?";
}

bool builtin_setup_zone(const std::string& zone) {
  return zone == "romania" || zone == "Rom" || zone == "any-german" || zone == "any-soviet" ||
         zone == "german-occupied";
}

int start_control_3_6(const HexInfo& h) {
  if (h.initial_control >= 0) return h.initial_control;
  switch (h.country) {
    case kGreaterGermany:
    case kGeneralGovernment:
    case kSlovakia:
    case kHungary:
    case kRomania:
    case kYugoslavia:
      return kGerman;
    case kUssr:
    case kBaltic:
      return kSoviet;
    default:
      return kNoSide;
  }
}

UnitType type_from_name(const std::string& s, bool& ok) {
  for (const auto& tn : kTypeNames)
    if (s == tn.name) {
      ok = true;
      return tn.t;
    }
  ok = false;
  return kInfantry;
}

const char* unit_type_name(UnitType t) {
  for (const auto& tn : kTypeNames)
    if (tn.t == t) return tn.name;
  return "?";
}

int BdData::find_unit(std::string_view key) const {
  auto it = unit_by_key.find(lower(std::string(key)));
  return it == unit_by_key.end() ? -1 : it->second;
}

Result<UnitDef> parse_unit(const Json& j, const std::string& where) {
  JsonReader r(j, where);
  return parse_unit_reader(r);
}

std::vector<int> entry_candidates_of(const BdData& d, const std::array<HexInfo, kNumHexes>& hexes, int side) {
  std::vector<int> out;
  const auto& edge = side == kGerman ? d.places.german_edge : d.places.soviet_edge;
  for (int h : edge)  // 8.1 friendly edge supply hexes
    if (h >= 0 && hexes[static_cast<size_t>(h)].on_map &&
        !d.tec.prohibited[hexes[static_cast<size_t>(h)].terrain])
      out.push_back(h);
  for (int h = 0; h < kNumHexes; ++h)  // 8.1 friendly cities with overland supply
    if (hexes[static_cast<size_t>(h)].city && std::find(out.begin(), out.end(), h) == out.end())
      out.push_back(h);
  return out;
}

Result<std::shared_ptr<const BdData>> load_data(const std::filesystem::path& data_dir) {
  auto d = std::make_shared<BdData>();
  const auto dir = data_dir / "bd";
  if (!std::filesystem::is_directory(dir))
    return Error{"no Barbarossa Deluxe data directory", "", dir.string()};
  if (auto s = load_map(*d, dir / "map.json"); !s) return s.error();
  if (auto s = load_tables(*d, dir); !s) return s.error();
  if (auto s = load_counters(*d, dir / "counters.json"); !s) return s.error();
  if (!d->units.empty()) {
    if (!d->victory.ss_unit.empty() && d->find_unit(d->victory.ss_unit) < 0)  // 8.17
      return Error{"victory.json ss_withdrawal_failed names unknown unit '" + d->victory.ss_unit + "'",
                   "8.17", (dir / "victory.json").string()};
    for (const auto& label : d->victory.oder_units)  // 4.18 special reinforcements
      if (d->find_unit(label) < 0)
        return Error{"victory.json watch_on_the_oder names unknown unit '" + label + "'", "4.18",
                     (dir / "victory.json").string()};
    std::vector<std::string> mg = d->victory.mg_units;  // 4.17
    for (const auto& [label, t] : d->victory.mg_early) mg.push_back(label);
    for (const auto& label : mg)
      if (d->find_unit(label) < 0)
        return Error{"victory.json mansteins_gambit names unknown unit '" + label + "'", "4.17",
                     (dir / "victory.json").string()};
  }
  if (auto s = load_scenarios(*d, dir / "scenarios"); !s) return s.error();
  auto h = steppe::rules_hash_of_dir(dir);
  if (!h) return h.error();
  d->rules_hash = *h;
  for (int side : {kGerman, kSoviet})
    d->entry_candidates[static_cast<size_t>(side)] = entry_candidates_of(*d, d->hexes, side);
  d->entry_candidates_built = true;
  d->supply_graph = build_supply_graph(d->grid, d->hexes, d->places);
  return std::shared_ptr<const BdData>(std::move(d));
}

SupplyGraph build_supply_graph(const steppe::HexGrid& grid, const std::array<HexInfo, kNumHexes>& hexes,
                               const Places& pl) {
  SupplyGraph g;
  const auto n = static_cast<size_t>(grid.size());
  const auto at = [&](int h) -> const HexInfo& { return hexes[static_cast<size_t>(h)]; };
  auto own_lake = [](int side, const HexInfo& x) {  // 7.14
    if (side == kSoviet) return x.country == kUssr || x.country == kBaltic;
    return x.country == kGreaterGermany || x.country == kHungary;
  };
  // Side may trace into the hex: on the map, not all-sea, lakes only in own territory (7.14).
  auto enter = [&](int side, int h) {
    const HexInfo& x = at(h);
    return x.on_map && x.terrain != kAllSea && (x.terrain != kAllLake || own_lake(side, x));
  };
  g.tier.resize(n);
  g.crimea_enter.resize(n);
  for (int h = 0; h < grid.size(); ++h) {
    const Area a = at(h).area;
    g.tier[static_cast<size_t>(h)] = a == kAreaR ? 2 : a == kAreaDP ? 1 : 0;
    g.crimea_enter[static_cast<size_t>(h)] = a == kAreaCS && enter(kGerman, h) ? 1 : 0;  // 7.4
  }
  g.crimea_sides = steppe::HexSideBits(grid);
  for (int side = 0; side < 2; ++side) {
    auto& fort = g.enemy_fort[static_cast<size_t>(side)];
    auto& enters = g.enter[static_cast<size_t>(side)];
    fort.resize(n);
    enters.resize(n);
    for (int h = 0; h < grid.size(); ++h) {
      fort[static_cast<size_t>(h)] = at(h).fortified == 1 - side ? 1 : 0;
      enters[static_cast<size_t>(h)] = enter(side, h) ? 1 : 0;
    }
    // 7.19: a side's sources are its own edge hexes only; a captured enemy source never serves.
    for (int s : side == kGerman ? pl.german_edge : pl.soviet_edge)
      if (grid.valid(s) && enter(side, s) && (side == kSoviet || g.tier[static_cast<size_t>(s)] == 0))
        g.sources[static_cast<size_t>(side)].push_back(s);  // 7.3, 7.9; 7.4 the German outside DP/R
    g.sides[static_cast<size_t>(side)] = steppe::HexSideBits(grid);
  }
  // Each hexside once, from the hex that owns it in the kernel's numbering (directions 0, 1, 5);
  // HexSideBits::set marks it from both hexes. Sea and lake sides count from either hex.
  for (int a = 0; a < grid.size(); ++a)
    for (int d : {0, 1, 5}) {
      const int b = grid.neighbour(a, d);
      if (b < 0) continue;
      const HexInfo& x = at(a);
      const HexInfo& y = at(b);
      if (x.zone != y.zone) continue;  // 7.15
      const int back = steppe::HexGrid::opposite(d);
      const bool sea = ((x.sea_side >> d) & 1u) != 0 || ((y.sea_side >> back) & 1u) != 0;
      const bool lake = ((x.lake_side >> d) & 1u) != 0 || ((y.lake_side >> back) & 1u) != 0;
      const bool kerch = is_crossing(pl.kerch, a, b), sivash = is_crossing(pl.sivash, a, b);
      for (int side = 0; side < 2; ++side) {
        if (!enter(side, a) || !enter(side, b)) continue;
        bool ok = true;
        if (kerch || sivash)
          ok = side == kSoviet;  // 7.14 (German only as Crimea supply, compute_crimea: BD-5), 10.15
        else if (sea)
          ok = false;
        else if (lake)
          ok = own_lake(side, x) && own_lake(side, y);
        if (ok) g.sides[static_cast<size_t>(side)].set(grid, a, d);
      }
      if (!sivash && (kerch || (!sea && !lake))) g.crimea_sides.set(grid, a, d);  // 7.14, 7.15
    }
  return g;
}

}  // namespace bd
