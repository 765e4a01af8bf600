// Loading data/aa/: the map (1.1), the unit types (3.1-3.23), the set-up (1.1, 2.1-2.8) and the
// numbers of chapters I and II (rules.json). Every reconstructed object carries its source.
#include <algorithm>
#include <cctype>

#include "games/aa/aa.h"
#include "kernel/json_data.h"

namespace steppe::aa {

namespace {

constexpr std::array<const char*, kNationCount> kNationIds = {"germany",  "hungary", "italy", "romania",
                                                              "bulgaria", "finland", "spain", "russia"};

// "German Reinforcement Zone 1" -> "german-reinforcement-zone-1": the zone's id in notation.
std::string slug(std::string_view name) {
  std::string s;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) != 0) {
      s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!s.empty() && s.back() != '-') {
      s += '-';
    }
  }
  while (!s.empty() && s.back() == '-') s.pop_back();
  return s;
}

ZoneKind kind_of(const std::string& k) {
  if (k == "city") return ZoneKind::kCity;
  if (k == "marsh") return ZoneKind::kMarsh;
  if (k == "lake") return ZoneKind::kLake;
  if (k == "sea") return ZoneKind::kSea;
  return ZoneKind::kLand;
}

}  // namespace

const char* sbr_target_id(int t) {
  static constexpr std::array<const char*, kTargetCount> kIds = {
      "industrial_complex", "air_base", "naval_base", "railroad", "aa_gun", "supply", "train"};
  return t >= 0 && t < kTargetCount ? kIds[static_cast<size_t>(t)] : "?";
}

const char* nation_id(int n) { return n >= 0 && n < kNationCount ? kNationIds[static_cast<size_t>(n)] : "?"; }

int nation_from_id(std::string_view id) {
  for (int n = 0; n < kNationCount; ++n)
    if (id == kNationIds[static_cast<size_t>(n)]) return n;
  return -1;
}

std::vector<ScenarioInfo> AaGame::scenarios() const {
  return {
      {"barbarossa",
       "Barbarossa (12 turns)",
       "Summer 1941 to Turn 12: the Axis win by taking and holding Moscow or Baku for one turn (1.3).",
       1,
       rules_.last_turn,
       {{"casualty-chart", "Combat Casualties chart", "4.2"},
        {"murphy", "Murphy's Law cards", "4.4"},
        {"generals", "Generals", "4.5"}}},
      {"barbarossa-18",
       "Barbarossa, extended (18 turns)",
       "Played through Turn 18 with the same conditions, and the Axis also win with 28 VP at the end of Turn "
       "18 "
       "(1.3).",
       1,
       rules_.extended_last_turn,
       {{"casualty-chart", "Combat Casualties chart", "4.2"},
        {"murphy", "Murphy's Law cards", "4.4"},
        {"generals", "Generals", "4.5"}}},
  };
}

bool AaGame::river_between(int a, int b) const {
  return border_[static_cast<size_t>(a) * zones_.size() + static_cast<size_t>(b)] != 0;
}
bool AaGame::kerch_between(int a, int b) const {
  return border_[static_cast<size_t>(a) * zones_.size() + static_cast<size_t>(b)] == 2;
}

int AaGame::base_index(std::string_view id) const {
  for (int t = 0; t < base_count_; ++t)
    if (battle_types_.at(t).id == id) return t;
  return -1;
}

const std::vector<int>& AaGame::city_zones(std::string_view city) const {
  static const std::vector<int> kNone;
  for (const auto& [name, zs] : cities_)
    if (name == city) return zs;
  return kNone;
}

// 1.2.3, 3.2: what a side may buy. The minor Axis buy nothing (their units come by 2.2-2.7);
// Advanced Setup units (3.13-3.17, 3.22-3.23) and the optional fortifications and generals
// (4.3, 4.5) are not in the basic game; elites belong to their nation (SS to Germany,
// Guards to Russia).
bool AaGame::purchasable(int side, int base_type) const {
  if (base_type < 0 || base_type >= base_count_) return false;
  const UnitType& t = base(base_type);
  if (t.advanced || t.optional) return false;
  if (!t.nations.empty())
    return std::find(t.nations.begin(), t.nations.end(), side == kAxis ? "germany" : "russia") !=
           t.nations.end();
  return true;
}

Result<std::unique_ptr<Game>> load_game(const std::filesystem::path& data_dir) {
  const auto dir = data_dir / "aa";
  auto g = std::make_unique<AaGame>();

  // --- units.json (3.1-3.23) ---
  auto base = UnitTypes::load(dir);
  if (!base) return base.error();
  auto minor = UnitTypes::load(dir, "romania");
  if (!minor) return minor.error();
  std::vector<UnitType> all = base->all();
  g->base_count_ = base->size();
  for (UnitType t : minor->all()) {
    t.id = "minor:" + t.id;  // 3.1: the minor Axis values, one table for every minor nation
    all.push_back(std::move(t));
  }
  g->battle_types_ = UnitTypes::from_list(std::move(all));

  // --- map.json (1.1) ---
  const auto map_file = dir / "map.json";
  auto doc = load_json_file(map_file);
  if (!doc) return doc.error();
  JsonReader root(*doc, map_file.string());
  root.check_reconstructed();
  Json areas = Json::array(), connections = Json::array();
  const auto terrs = root.at("territories").elements();
  for (const JsonReader& t : terrs) {
    Zone z;
    z.name = t.str("name");
    z.id = slug(z.name);
    z.kind = kind_of(t.str("kind"));
    const std::string owner = t.str_or("original_owner", "");
    z.original_owner = owner.empty() ? -1 : nation_from_id(owner);
    if (!owner.empty() && z.original_owner < 0) t.at("original_owner").fail_value("unknown nation");
    z.vp = static_cast<int>(t.integer_or("vp", 0));
    z.ic = t.boolean_or("ic", false);
    z.reinforcement = t.str_or("reinforcement", "");
    z.city = t.str_or("city", "");
    const std::string locked = t.str_or("locked_until_mobilized", "");
    z.locked_nation = locked.empty() ? -1 : nation_from_id(locked);
    Json extra = t.json();
    extra.erase("adjacent");
    areas.push_back(Json{{"id", z.id}, {"name", z.name}, {"terrain", t.str("kind")}, {"aa", extra}});
    g->zones_.push_back(std::move(z));
  }
  const size_t n = g->zones_.size();
  g->border_.assign(n * n, 0);
  auto by_name = [&](const std::string& name) {
    for (size_t i = 0; i < n; ++i)
      if (g->zones_[i].name == name) return static_cast<int>(i);
    return -1;
  };
  for (size_t i = 0; i < terrs.size(); ++i) {
    for (const JsonReader& a : terrs[i].at("adjacent").elements()) {
      const int j = by_name(a.str("to"));
      if (j < 0) {
        a.at("to").fail_value("no zone of this name");
        continue;
      }
      const bool kerch = a.boolean_or("kerch", false);
      const bool river = a.has("river");
      g->border_[i * n + static_cast<size_t>(j)] = kerch ? 2 : river ? 1 : 0;
      if (static_cast<int>(i) < j) {
        Json types = Json::array();
        if (river) types.push_back("river");
        if (kerch) types.push_back("kerch");
        connections.push_back(
            Json{{"a", g->zones_[i].id}, {"b", g->zones_[static_cast<size_t>(j)].id}, {"types", types}});
      }
    }
  }
  if (!root.ok()) return root.error();
  Json area_doc{{"reconstructed", true},
                {"source", root.str("source")},
                {"terrain_types", Json::array({"land", "city", "marsh", "lake", "sea"})},
                {"connection_types", Json::array({"river", "kerch"})},
                {"areas", areas},
                {"connections", connections}};
  auto m = AreaMap::from_json(area_doc, map_file.string());
  if (!m) return m.error();
  g->map_ = std::make_unique<AreaMap>(std::move(m.value()));
  for (size_t i = 0; i < n; ++i) {
    const Zone& z = g->zones_[i];
    if (z.city.empty()) continue;
    auto it =
        std::find_if(g->cities_.begin(), g->cities_.end(), [&](const auto& c) { return c.first == z.city; });
    if (it == g->cities_.end()) {
      g->cities_.push_back({z.city, {}});
      it = g->cities_.end() - 1;
    }
    it->second.push_back(static_cast<int>(i));
  }

  auto units_of = [&](const JsonReader& obj, std::vector<std::pair<int, int>>& out) {
    for (const auto& [id, count] : obj.members()) {
      const int t = g->base_index(id);
      if (t < 0) {
        count.fail("unknown unit type \"" + id + "\"");
        continue;
      }
      out.emplace_back(t, count.as_int_in(0, 99));
    }
  };

  // --- setup.json (1.1; 2.1, 2.8 starting Build Points) ---
  const auto setup_file = dir / "setup.json";
  auto sdoc = load_json_file(setup_file);
  if (!sdoc) return sdoc.error();
  JsonReader s(*sdoc, setup_file.string());
  s.check_reconstructed();
  for (const JsonReader& f : s.at("forces").elements()) {
    SetupForce force;
    force.zone = by_name(f.str("zone"));
    if (force.zone < 0) f.at("zone").fail_value("no zone of this name");
    force.nation = nation_from_id(f.str("nation"));
    if (force.nation < 0) f.at("nation").fail_value("unknown nation");
    force.locked = f.boolean_or("locked", false);
    units_of(f.at("units"), force.units);
    g->setup_.push_back(std::move(force));
  }
  if (!s.ok()) return s.error();

  // --- rules.json (1.2, 1.3, chapter II) ---
  const auto rules_file = dir / "rules.json";
  auto rdoc = load_json_file(rules_file);
  if (!rdoc) return rdoc.error();
  JsonReader r(*rdoc, rules_file.string());
  Rules& ru = g->rules_;
  const JsonReader v = r.at("victory");
  ru.last_turn = v.int_in("turns", 1, 99);
  ru.extended_last_turn = v.int_in("extended_turns", 1, 99);
  ru.hold_to_win = v.str_list("hold_to_win");
  for (const auto& c : ru.hold_to_win)
    if (g->city_zones(c).empty()) v.at("hold_to_win").fail("no city area \"" + c + "\" on the map");
  ru.vp_to_win = v.int_in("vp_to_win", 0, 999);
  ru.vp_checked_at_turn = v.int_in("vp_checked_at_end_of_turn", 1, 99);
  const JsonReader ci = r.at("combat_initiative");
  ru.ci_automatic_through = ci.int_in("germany_automatic_through_turn", 0, 99);
  const JsonReader e = r.at("economy");
  ru.german_start = s.at("build_points").int_in("germany", 0, 999);
  ru.russia_start = s.at("build_points").int_in("russia", 0, 999);
  ru.german_income = e.at("germany").int_in("income", 0, 999);
  e.at("germany").at("income_reconstructed").check_reconstructed();
  ru.russia_max = e.at("russia").int_in("max", 0, 999);
  ru.naval_capacity[kAxis] = e.at("germany").int_in("naval_capacity", 0, 99);   // 2.1, 3.28
  ru.naval_capacity[kRussia] = e.at("russia").int_in("naval_capacity", 0, 99);  // 2.8, 3.28
  ru.ic_placement_limit = e.at("russia").int_in("ic_placement_limit", 0, 99);
  ru.supply_placement_limit = e.at("russia").int_in("supply_placement_limit", 0, 99);
  ru.destroyed_ic_penalty = e.at("russia").int_in("destroyed_ic_penalty", 0, 99);
  ru.lend_lease_from = e.at("lend_lease").int_in("from_turn", 1, 99);
  ru.lend_lease_bp = e.at("lend_lease").int_in("build_points", 0, 999);
  ru.siberian_from = e.at("siberian").int_in("from_turn", 1, 99);
  ru.siberian_bp = e.at("siberian").int_in("build_points", 0, 999);
  ru.elite_per_turn = e.int_in("elite_purchases_per_turn", 0, 99);
  const JsonReader mi = r.at("minor_axis");
  ru.romania_vp = mi.at("romania").int_in("mobilize_at_vp", 0, 999);
  ru.bulgaria_vp = mi.at("bulgaria").int_in("mobilize_at_vp", 0, 999);
  for (const JsonReader& t : mi.at("italy").at("turns").elements())
    ru.italy_turns.push_back(t.as_int_in(1, 99));
  g->hungary_.nation = kHungary;
  units_of(mi.at("hungary").at("each_turn"), g->hungary_.units);
  g->italy_.nation = kItaly;
  units_of(mi.at("italy").at("each_turn"), g->italy_.units);
  for (int nation : {kRomania, kBulgaria, kFinland, kSpain}) {
    g->mobilization_[static_cast<size_t>(nation)].nation = nation;
    units_of(mi.at(nation_id(nation)).at("places"), g->mobilization_[static_cast<size_t>(nation)].units);
  }
  {
    // 4.2 Combat Casualties: the d12 ranges of the chart's rows, in order.
    ru.casualty_chart.assign(kDie + 1, 0);
    int band = 0;
    for (const JsonReader& b : r.at("casualty_chart").at("bands").elements()) {
      ++band;
      const auto ends = b.elements();
      if (ends.size() != 2) {
        b.fail("a band is [lowest, highest] d12 result");
        continue;
      }
      for (int d = ends[0].as_int_in(1, kDie); d <= ends[1].as_int_in(1, kDie); ++d)
        ru.casualty_chart[static_cast<size_t>(d)] = band;
    }
  }
  const JsonReader fd = r.at("facility_damage");
  for (int t = kIndustrialComplex; t <= kRailroad; ++t)
    ru.facility_capacity[static_cast<size_t>(t)] = fd.int_in(sbr_target_id(t), 1, 99);
  ru.repair_cost_per_point = fd.int_in("repair_cost_per_point", 0, 99);
  if (!r.ok()) return r.error();

  // --- generals (4.5: setup.json generals_optional; 4.5.1: generals.json) ---
  {
    const JsonReader go = s.at("generals_optional");
    g->generals_germany_ = go.int_in("germany_start", 0, 12);
    g->generals_russia_ = go.int_in("russia_start", 0, 12);
    for (const char* key : {"axis", "russian"})
      for (const JsonReader& row : go.at(key).elements()) {
        const auto cells = row.elements();
        if (cells.size() < 3) {
          row.fail("a general is [name, skill, attribute(, nation)]");
          continue;
        }
        General gen;
        gen.name = cells[0].as_str();
        gen.skill = cells[1].as_int_in(0, 12);
        gen.attribute = cells[2].as_int_in(1, 6);
        gen.nation = cells.size() > 3 ? nation_from_id(cells[3].as_str()) : kRussiaNation;
        if (gen.nation < 0) cells[3].fail_value("unknown nation");
        g->generals_.push_back(std::move(gen));
      }
    if (!s.ok()) return s.error();
    const auto gen_file = dir / "generals.json";
    auto gdoc = load_json_file(gen_file);
    if (!gdoc) return gdoc.error();
    JsonReader gr(*gdoc, gen_file.string());
    gr.at("placement").check_reconstructed();
    for (const JsonReader& a : gr.at("attributes").elements()) {
      GeneralAttribute at;
      at.number = a.int_in("attribute", 1, 6);
      at.effect = a.str("effect");
      at.text = a.str("text");
      at.played = a.boolean_or("played", true);
      at.cls = a.str_or("class", "");
      at.first_round = a.boolean_or("first_round", false);
      at.attack = static_cast<int>(a.integer_or("attack", 0));
      at.defence = static_cast<int>(a.integer_or("defence", 0));
      g->attributes_.push_back(std::move(at));
    }
    if (!gr.ok()) return gr.error();
  }

  // --- murphy.json (4.4.1, 4.4.2) ---
  const auto murphy_file = dir / "murphy.json";
  auto mdoc = load_json_file(murphy_file);
  if (!mdoc) return mdoc.error();
  JsonReader mr(*mdoc, murphy_file.string());
  mr.at("draw").check_reconstructed();
  for (int side : {kAxis, kRussia}) {
    for (const JsonReader& c : mr.at(side == kAxis ? "axis" : "russia").elements()) {
      MurphyCard card;
      card.card = c.str("card");
      card.text = c.str("text");
      card.effect = c.str("effect");
      card.duration = c.str("duration");
      card.needs = c.str_or("needs", "");
      card.played = c.boolean_or("played", true);
      card.value = static_cast<int>(c.integer_or("value", 0));
      card.city_value = static_cast<int>(c.integer_or("city_value", 0));
      card.this_turn = static_cast<int>(c.integer_or("this_turn", 0));
      if (c.has("zone")) {
        card.zone = by_name(c.str("zone"));
        if (card.zone < 0) c.at("zone").fail_value("no zone of this name");
      }
      if (c.has("nation")) {
        card.grant.nation = nation_from_id(c.str("nation"));
        if (card.grant.nation < 0) c.at("nation").fail_value("unknown nation");
      }
      if (c.has("units")) units_of(c.at("units"), card.grant.units);
      g->murphy_[static_cast<size_t>(side)].push_back(std::move(card));
    }
    if (g->murphy_[static_cast<size_t>(side)].size() != 13)
      mr.at(side == kAxis ? "axis" : "russia")
          .fail("a Murphy's Law chart has the 13 cards of one suit (4.4)");
  }
  if (!mr.ok()) return mr.error();

  auto h = rules_hash_of_dir(dir);
  if (!h) return h.error();
  g->rules_hash_ = *h;
  return std::unique_ptr<Game>(std::move(g));
}

}  // namespace steppe::aa
