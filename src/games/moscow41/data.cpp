// Loading and validating Moscow '41's data (map, roster, tables, scenarios).
#include <algorithm>

#include "games/moscow41/moscow41.h"
#include "games/moscow41/state.h"
#include "kernel/json_data.h"

namespace moscow41 {

using steppe::Error;
using steppe::JsonReader;
using steppe::Result;

namespace {

int fire_of(const std::string& colour) {
  if (colour == "black") return kSingle;
  if (colour == "white") return kDouble;
  if (colour == "red") return kTriple;
  return -1;
}

}  // namespace

Moscow41Game* as_moscow41(steppe::Game* g) { return dynamic_cast<Moscow41Game*>(g); }

int Moscow41Game::block_index(std::string_view id) const {
  for (size_t i = 0; i < blocks_.size(); ++i)
    if (blocks_[i].id == id) return static_cast<int>(i);
  return -1;
}

bool Moscow41Game::river_between(int a, int b) const {
  const size_t n = static_cast<size_t>(map_->node_count());
  return river_[static_cast<size_t>(a) * n + static_cast<size_t>(b)] != 0;
}

const std::vector<std::string>& Moscow41Game::staging_for(const std::string& colour) const {
  static const std::vector<std::string> kNone;
  for (const auto& [c, v] : staging_)
    if (c == colour) return v;
  return kNone;
}

const VictoryRules* Moscow41Game::victory_rules(std::string_view kind) const {
  for (const auto& v : victory_rules_)
    if (v.kind == kind) return &v;
  return nullptr;
}

const Scenario* Moscow41Game::scenario(const std::string& id) const {
  for (const auto& s : scenarios_)
    if (s.info.id == id) return &s;
  return nullptr;
}

std::vector<steppe::ScenarioInfo> Moscow41Game::scenarios() const {
  std::vector<steppe::ScenarioInfo> out;
  std::vector<steppe::ScenarioOption> options;  // 14.0: every optional rule in every scenario
  options.reserve(kOptCount);
  for (int o = 0; o < kOptCount; ++o)
    options.push_back({option_info(o).name, option_info(o).title, option_info(o).rule});
  for (const auto& s : scenarios_) {
    out.push_back(s.info);
    out.back().options = options;
  }
  out.push_back({"empty", "Empty map (tests)", "No blocks; July impulses.", 1, 6});
  return out;
}

Result<std::unique_ptr<steppe::Game>> load_game(const std::filesystem::path& data_dir) {
  const auto dir = data_dir / "moscow41";
  auto g = std::unique_ptr<Moscow41Game>(new Moscow41Game());
  auto map = steppe::AreaMap::load(dir / "map.json");
  if (!map) return map.error();
  g->map_ = std::make_unique<steppe::AreaMap>(std::move(map).value());
  const steppe::AreaMap& m = *g->map_;
  const int n = m.node_count();
  const std::string map_file = (dir / "map.json").string();

  // --- Areas (2.0-2.4) --------------------------------------------------------------
  g->areas_.assign(static_cast<size_t>(n), AreaDef{});
  const int city = m.area_features().find("city");
  const int special = m.area_features().find("special_city");
  for (int i = 0; i < n; ++i) {
    AreaDef& a = g->areas_[static_cast<size_t>(i)];
    a.node = i;
    if (m.is_box(i)) continue;
    const std::string& t = m.terrain_name(i);
    a.terrain = t == "yellow" ? kYellow : t == "victory" ? kVictory : t == "staging" ? kStaging : kGreen;
    a.special_city = special >= 0 && m.has_feature(i, special);
    a.city = a.special_city || (city >= 0 && m.has_feature(i, city));
    const Json& extra = m.extra(i);
    JsonReader r(extra, map_file, "/areas/" + std::to_string(i));
    for (const std::string& s : r.str_list_or_empty("supply")) {
      if (s == "east")
        a.src_east = true;
      else if (s == "kiev")
        a.src_kiev = true;
      else if (s == "shlisselburg")
        a.src_shl = true;
      else if (s == "leningrad")
        a.src_len = true;
      else if (s == "german")
        a.src_german = true;
      else
        r.at("supply").fail("unknown supply tag \"" + s + "\" (east, kiev, shlisselburg, leningrad, german)");
    }
    if (auto fs = r.opt("front_side")) {
      a.typhoon_german = fs->str_or("typhoon", "soviet") == "german";
      a.last_gasp_german = fs->str_or("last-gasp", "soviet") == "german";
    }
    if (!r.ok()) return r.error();
  }
  g->river_.assign(static_cast<size_t>(n) * static_cast<size_t>(n), 0);
  const int land = m.connection_types().find("land");
  const int river = m.connection_types().find("river");
  const int road = m.connection_types().find("road_to_leningrad");
  if (land < 0 || river < 0 || road < 0)
    return Error{"connection_types must declare land, river and road_to_leningrad", "", map_file};
  for (int c = 0; c < m.connection_count(); ++c)
    if (m.connection(c).one_way && (m.connection(c).types & steppe::feature_bit(land)) != 0)
      return Error{"connection " + m.id(m.connection(c).a) + "-" + m.id(m.connection(c).b) +
                       " is a land border and one-way: borders are crossed both ways",
                   "2.0", map_file};
  g->land_ = m.subgraph(steppe::feature_bit(land));
  // 2.4.6: river borders come from the river model (map.json "rivers": each river's course,
  // the areas it passes and the borders it forms); the connections' "river" type must agree,
  // so the rules and the drawing read one truth.
  const auto& rivers = m.json().contains("rivers") ? m.json().at("rivers") : Json::array();
  for (const auto& rv : rivers) {
    const std::string rname = rv.value("name", std::string("?"));
    if (!rv.contains("borders") || !rv.at("borders").is_array())
      return Error{"river " + rname + " has no \"borders\" list", "2.4.6", map_file};
    for (const auto& pair : rv.at("borders")) {
      const int a = pair.is_array() && pair.size() == 2 && pair[0].is_string()
                        ? m.find(pair[0].get<std::string>())
                        : -1;
      const int b = pair.is_array() && pair.size() == 2 && pair[1].is_string()
                        ? m.find(pair[1].get<std::string>())
                        : -1;
      if (a < 0 || b < 0 || !m.connection_has(a, b, land))
        return Error{"river " + rname + ": border " + pair.dump() + " is not a land border between two areas",
                     "2.4.6", map_file};
      g->river_[static_cast<size_t>(a) * static_cast<size_t>(n) + static_cast<size_t>(b)] = 1;
      g->river_[static_cast<size_t>(b) * static_cast<size_t>(n) + static_cast<size_t>(a)] = 1;
    }
  }
  for (int c = 0; c < m.connection_count(); ++c) {
    const auto& con = m.connection(c);
    const bool typed = (con.types & steppe::feature_bit(river)) != 0;
    if (typed != g->river_between(con.a, con.b))
      return Error{"connection " + m.id(con.a) + "-" + m.id(con.b) + (typed ? " is" : " is not") +
                       " typed river, but the river model says otherwise",
                   "2.4.6", map_file};
  }
  g->rastenburg_ = m.find("rastenburg");
  g->kiev_ = m.find("kiev");
  g->moscow_ = m.find("63");
  if (g->rastenburg_ < 0 || g->kiev_ < 0 || g->moscow_ < 0)
    return Error{"the map needs boxes rastenburg and kiev and area 63 (Moscow)", "2.2", map_file};
  for (int k = 1; k <= 10; ++k) {
    const int b = m.find("R" + std::to_string(k));
    if (b < 0) return Error{"road box R" + std::to_string(k) + " missing", "2.2", map_file};
    g->road_.push_back(b);
    if (m.extra(b).value("shlisselburg", false)) g->road_shl_ = k - 1;
  }
  if (g->road_shl_ < 0) return Error{"no road box is marked shlisselburg", "2.2", map_file};
  if (m.area_count() != 175 || m.box_count() != 12)
    return Error{"Moscow '41 has 175 areas and 12 boxes (got " + std::to_string(m.area_count()) + " and " +
                     std::to_string(m.box_count()) + ")",
                 "2.0", map_file};
  {
    JsonReader r(m.json(), map_file);
    for (const JsonReader& ic : r.at("setup_icons").at("icons").elements()) {
      const std::string area = ic.str("area");
      if (m.find(area) < 0) ic.at("area").fail_value("unknown area");
      g->icons_.push_back({area, ic.str("colour"), ic.str("type")});
    }
    if (!r.ok()) return r.error();
  }

  // --- Tables ---------------------------------------------------------------------
  const std::string tables_file = (dir / "tables.json").string();
  auto tdoc = steppe::load_json_file(dir / "tables.json");
  if (!tdoc) return tdoc.error();
  {
    JsonReader r(*tdoc, tables_file);
    Tables& t = g->tables_;
    JsonReader hits = r.at("firepower").at("hits_on");
    t.hits_on = {hits.int_in("black", 1, 6), hits.int_in("white", 1, 6), hits.int_in("red", 1, 6)};
    const char* names[] = {"green", "yellow", "victory", "staging"};
    for (int k = 0; k < 4; ++k) {
      JsonReader tr = r.at("terrain").at(names[k]);
      t.mp[static_cast<size_t>(k)] = tr.int_in("mp", 1, 9);
      t.absorb[static_cast<size_t>(k)] = tr.int_in("absorb", 0, 3);
      t.stack[static_cast<size_t>(k)] = tr.at("stack").is_null() ? 1000 : tr.int_in("stack", 1, 9);
    }
    t.absorb_city = r.at("absorb").int_in("city", 0, 3);
    t.absorb_dl = r.at("absorb").int_in("dl", 0, 3);
    t.absorb_max = r.at("absorb").int_in("max", 0, 9);
    t.mp_rain = r.at("weather_mp").int_in("rain", 1, 9);
    t.mp_snow = r.at("weather_mp").int_in("snow", 1, 9);
    t.fast_mp = r.at("movement").int_in("fast", 1, 9);
    t.slow_mp = r.at("movement").int_in("slow", 1, 9);
    t.disengage = r.at("movement").int_in("disengage", 0, 9);
    t.mp_rain_cavalry = r.at("weather_mp").int_in("cavalry_rain_or14_6", 1, 9);          // OR 14.6
    t.infantry_division_mp = r.at("movement").int_in("infantry_division_or14_7", 1, 9);  // OR 14.7
    t.blizzard_defend_div = r.at("blizzard_or14_5").int_in("german_defending_divisor", 1, 9);
    t.blizzard_attack_div = r.at("blizzard_or14_5").int_in("german_attacking_divisor", 1, 9);
    JsonReader rc = r.at("replacement_cost");
    t.replacement = {rc.int_in("black", 0, 9), rc.int_in("white", 0, 9), rc.int_in("red", 0, 9)};
    t.hq_step_cost = rc.int_in("hq_step", 0, 9);
    t.dl_german = r.at("defensive_lines").int_in("german", 0, 99);
    t.dl_soviet = r.at("defensive_lines").int_in("soviet", 0, 99);
    t.losses_per_point = r.at("logistics").int_in("losses_per_bonus_point", 1, 99);
    t.sudden_death_vp = r.at("victory").int_in("sudden_death_vp", 1, 7);
    t.weather_track_len = static_cast<int>(r.at("weather_track").at("boxes").size());
    if (!r.ok()) return r.error();
  }

  // --- Roster (4.2) ---------------------------------------------------------------
  const std::string roster_file = (dir / "roster.json").string();
  auto rdoc = steppe::load_json_file(dir / "roster.json");
  if (!rdoc) return rdoc.error();
  {
    JsonReader r(*rdoc, roster_file);
    for (const JsonReader& b : r.at("blocks").elements()) {
      b.check_reconstructed();
      BlockDef d;
      d.id = b.str("id");
      if (g->block_index(d.id) >= 0) b.at("id").fail_value("block id used twice");
      d.name = b.str("name");
      const std::string side = b.str("side");
      if (side != "german" && side != "soviet") b.at("side").fail_value("side must be german or soviet");
      d.side = side == "german" ? kGerman : kSoviet;
      const std::string kind = b.str("kind");
      d.kind = kind == "leader"  ? Kind::kLeader
               : kind == "hq"    ? Kind::kHq
               : kind == "lw_hq" ? Kind::kLwHq
                                 : Kind::kCombat;
      if (kind != "leader" && kind != "hq" && kind != "lw_hq" && kind != "combat")
        b.at("kind").fail_value("kind must be leader, hq, lw_hq or combat");
      if (!b.at("colour").is_null()) d.colour = b.str("colour");
      d.tag = b.str_or("tag", "");
      d.fast = b.boolean("fast");
      d.remnant = b.boolean("remnant");
      d.blitz = b.boolean_or("blitz", false);
      d.infantry_division = b.boolean_or("infantry_division", false);
      d.cavalry_mobility = b.boolean_or("cavalry_mobility_or14_6", false);
      const std::string letter = b.str_or("letter", "");
      if (!letter.empty()) d.letter = letter[0];
      const int max = b.int_in("max", 0, 4);
      if (d.kind == Kind::kCombat) {
        const std::string t = b.str("type");
        d.type = t == "infantry"    ? BlockType::kInfantry
                 : t == "motorized" ? BlockType::kMotorized
                 : t == "cavalry"   ? BlockType::kCavalry
                 : t == "tank"      ? BlockType::kTank
                                    : BlockType::kNone;
        if (d.type == BlockType::kNone)
          b.at("type").fail_value("type must be infantry, motorized, cavalry or tank");
        const auto steps = b.str_list("steps");  // colours from strength 1 upward
        if (static_cast<int>(steps.size()) != max)
          b.at("steps").fail_value("one colour per step (max) expected");
        for (int s = max; s >= 1; --s) {
          d.levels.push_back(s);
          const int f =
              s - 1 < static_cast<int>(steps.size()) ? fire_of(steps[static_cast<size_t>(s - 1)]) : -1;
          if (f < 0 && s - 1 < static_cast<int>(steps.size()))
            b.at("steps").fail_value("step colours are black, white or red");
          d.fire.push_back(std::max(f, 0));
          d.cost.push_back(g->tables_.replacement[static_cast<size_t>(std::max(f, 0))]);
        }
      } else {
        for (const JsonReader& l : b.at("levels").elements()) d.levels.push_back(l.as_int_in(0, 4));
        if (d.levels.empty() || d.levels[0] != max) b.at("levels").fail_value("levels must start at max");
        for (size_t k = 0; k < d.levels.size(); ++k) {
          d.fire.push_back(kDouble);  // HQ stars are white (4.2.2)
          d.cost.push_back(g->tables_.hq_step_cost);
        }
      }
      g->blocks_.push_back(std::move(d));
    }
    JsonReader st = r.at("staging").at("by_colour");
    for (auto& [colour, v] : st.members()) {
      std::vector<std::string> areas = v.as_str_list();
      for (const auto& a : areas)
        if (m.find(a) < 0 || g->areas_[static_cast<size_t>(m.find(a))].terrain != kStaging)
          v.fail("\"" + a + "\" is not a German Staging Area");
      g->staging_.emplace_back(colour, std::move(areas));
    }
    for (const JsonReader& bo : r.at("bombers").at("list").elements()) {
      g->bomber_fk_.push_back(bo.str("fk"));
      g->bomber_id_.push_back(bo.str("id"));
      g->bomber_type_.push_back(bo.str("type"));
    }
    if (!r.ok()) return r.error();
  }
  int german = 0, soviet = 0;
  for (const auto& b : g->blocks_) (b.side == kGerman ? german : soviet)++;
  if (german != 50 || soviet != 70)
    return Error{"the roster must have 50 German and 70 Soviet blocks (has " + std::to_string(german) +
                     " and " + std::to_string(soviet) + ")",
                 "1.1", roster_file};
  for (const char* leader : {"Hitler", "Stalin", "Zhukov", "HQ4Pg", "2FK", "8FK"})
    if (g->block_index(leader) < 0)
      return Error{std::string("block ") + leader + " missing", "4.2", roster_file};

  // --- Scenarios --------------------------------------------------------------------
  for (const char* sid : {"campaign", "beyond-the-dnieper", "typhoon", "last-gasp"}) {
    const auto file = dir / "scenarios" / (std::string(sid) + ".json");
    auto sdoc = steppe::load_json_file(file);
    if (!sdoc) return sdoc.error();
    JsonReader r(*sdoc, file.string());
    Scenario s;
    s.info.id = r.str("id");
    s.info.name = r.str("name");
    s.info.description = r.str("description");
    s.info.first_turn = r.int_in("first_turn", 1, 6);
    s.info.last_turn = r.int_in("last_turn", 1, 6);
    const std::string phase = r.str("start_phase");
    if (phase != "impulses" && phase != "logistics") r.at("start_phase").fail_value("impulses or logistics");
    r.check_reconstructed();
    // Every block and area named in the set-up must exist.
    for (const char* side : {"soviet", "german"}) {
      for (const JsonReader& step : r.at("setup").at(side).elements()) {
        for (const std::string& b : step.str_list_or_empty("blocks"))
          if (g->block_index(b) < 0) step.at("blocks").fail("unknown block \"" + b + "\"");
        for (const char* key : {"areas", "dl"})
          for (const std::string& a : step.str_list_or_empty(key))
            if (m.find(a) < 0) step.at(key).fail("unknown area \"" + a + "\"");
        if (step.has("area") && m.find(step.str("area")) < 0) step.at("area").fail_value("unknown area");
        if (step.has("near") && g->block_index(step.str("near")) < 0)
          step.at("near").fail_value("unknown HQ");
        // Scenario Setup: a step that leaves the placement to a player ("in any adjacent
        // Area", "along the frontline", "at the German player choice") says so with
        // "choice" (true: its pieces wait for their owner in the set-up phase; false: the
        // automatic procedure places them); any other step may not carry it.
        const bool placed_by_rule =
            step.has("near") || step.has("near_own_hq") || step.has("zone") || step.has("dl_count");
        if (placed_by_rule && !step.has("choice"))
          step.fail(
              "a step placed \"in any adjacent Area\", \"along the frontline\" or by zone must say "
              "\"choice\": true or false");
        if (step.has("choice")) {
          const bool choice = step.boolean("choice");
          if (choice && !placed_by_rule)
            step.at("choice").fail_value("only a near, near_own_hq, zone or dl_count step can be a choice");
        }
        if (step.has("one_each") && !(step.has("near") || step.has("near_own_hq")))
          step.at("one_each").fail_value("one_each belongs to a near or near_own_hq step");
        else if (step.has("one_each"))
          (void)step.boolean("one_each");
      }
    }
    // 1.7 and the Special Victory Conditions: the areas they name must be areas of the map.
    const JsonReader v = r.at("victory");
    v.allow_only(
        {"kind", "rule", "source", "sudden_death_vp", "german_wins_at_once", "german_win", "at_end"});
    VictoryRules vr;
    vr.kind = v.str("kind");
    vr.rule = v.str("rule");
    vr.sudden_death_vp = v.boolean_or("sudden_death_vp", false);
    const std::string at_end = v.str("at_end");
    if (at_end != "most_vp" && at_end != "soviet")
      v.at("at_end").fail_value("most_vp (1.7) or soviet (any other result is a Soviet victory)");
    vr.most_vp_at_end = at_end == "most_vp";
    if (v.has("german_wins_at_once")) {
      for (const JsonReader& c : v.at("german_wins_at_once").elements()) {
        c.allow_only({"german_dls", "german_controls"});
        VictoryRules::GermanWin win;
        for (const char* key : {"german_dls", "german_controls"})
          for (const std::string& id : c.str_list_or_empty(key)) {
            const int node = m.find(id);
            if (node < 0 || m.is_box(node)) {
              c.at(key).fail("unknown area \"" + id + "\"");
              continue;
            }
            (std::string_view(key) == "german_dls" ? win.german_dls : win.german_controls).push_back(node);
          }
        if (win.german_dls.empty() && win.german_controls.empty())
          c.fail("a victory condition names German DLs or German-controlled areas");
        vr.german_wins_at_once.push_back(std::move(win));
      }
      vr.german_win = v.str("german_win");
    }
    if (!r.ok()) return r.error();
    if (const VictoryRules* same = g->victory_rules(vr.kind)) {
      if (!(*same == vr))
        return Error{"victory kind \"" + vr.kind + "\" is declared with other conditions by another scenario",
                     vr.rule, file.string()};
    } else {
      g->victory_rules_.push_back(std::move(vr));
    }
    s.doc = *sdoc;
    g->scenarios_.push_back(std::move(s));
  }

  auto h = steppe::rules_hash_of_dir(dir);
  if (!h) return h.error();
  g->rules_hash_ = *h;
  return std::unique_ptr<steppe::Game>(std::move(g));
}

}  // namespace moscow41
