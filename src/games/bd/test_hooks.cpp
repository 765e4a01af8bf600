// Barbarossa Deluxe rules: scenario-test hooks (test_set / test_query); never called by the server.
// Section numbers are the rulebook's (seeds/000); where the text is silent or ambiguous
// the choice is written in docs/rulings.md (BD-n).
#include "games/bd/bd_internal.h"

namespace bd {

// ======================================================================= scenario-test hooks

Status BdState::test_set(const std::vector<std::string>& words) {
  g_move_memo_epoch.fetch_add(1, std::memory_order_relaxed);  // a test may edit the map in place
  mark_dirty();
  Status s = set_word(words);
  // `start-control` edits what the rebase would overwrite (the set-up's control, which the
  // short scenarios' conditions compare with); it changes no VP.
  if (s.is_ok() && words.front() != "start-control") {
    rebase_vp();
    mark_dirty();
  }
  return s;
}

Status BdState::set_word(const std::vector<std::string>& w) {
  auto bad = [&](const std::string& why) { return steppe::Error{why, "", "test_set"}; };
  if (w.empty()) return bad("empty set-up line");
  auto side_of = [](const std::string& s) { return s == "german" ? kGerman : s == "soviet" ? kSoviet : -1; };
  auto hex_at = [&](size_t i) { return i < w.size() ? parse_hex(w[i]) : -1; };
  const std::string& k = w[0];
  if (k == "turn" && w.size() == 2) {
    const auto t = steppe::parse_int_in(w[1], 1, 32);
    if (!t) return bad("turn must be 1..32, not '" + w[1] + "'");
    turn_ = *t;
    begin_turn();
    return Status::ok();
  }
  if (k == "blank-map" && w.size() == 1) {
    // Tests: every hex of the grid on the map, clear, no features, no control, except that a
    // hex holding units stays its occupant's (3.6: the invariant that occupied hexes are the
    // occupant's holds in a scenario's set-up placed on a blank map too).
    auto m = std::make_shared<std::array<HexInfo, kNumHexes>>();
    for (auto& x : *m) x.on_map = true;
    own_map_ = m;
    map_ = m.get();
    own_graph_.reset();
    hex_.control.fill(kNoSide);
    for (int u = 0; u < num_units(); ++u)
      if (unit(u).where == kOnMap) hex_.control[static_cast<size_t>(unit(u).hex)] = def(u).side;
    mark_dirty();
    return Status::ok();
  }
  if (k == "last-turn" && w.size() == 2) {
    const auto t = steppe::parse_int_in(w[1], 1, 32);
    if (!t) return bad("last-turn must be 1..32, not '" + w[1] + "'");
    last_turn_ = *t;
    return Status::ok();
  }
  if (k == "phase" && w.size() == 2) {
    int p = parse_phase(w[1]);
    const bool assault = w[1].find("assault") != std::string::npos;
    if (p == -2 || p == -3) {
      const int side = p == -2 ? kGerman : kSoviet;
      order_[static_cast<size_t>(side)] = kMoveFight;
      p = side == kGerman ? (assault ? kGermanC : kGermanB) : (assault ? kSovietC : kSovietB);
    }
    if (p < 0) return bad("unknown phase '" + w[1] + "'");
    pending_ = kPendNone;
    overstack_resume_ = false;
    battle_.active = 0;
    phase_ = static_cast<Phase>(p);
    clear_phase_flags();
    markers_.artillery_used = markers_.air_armies_used = 0;  // 8.36-8.39 a new phase
    markers_.support_used = 0;
    bulg_hex_ = -1;  // 8.26
    return Status::ok();
  }
  if (k == "order" && w.size() == 3) {
    const int side = side_of(w[1]);
    int o = -1;
    for (int i = 0; i <= 3; ++i)
      if (w[2] == kOrderNames[i]) o = i;
    if (side < 0 || o < 0) return bad("order <german|soviet> <move-fight|fight-move|fight-fight>");
    order_[static_cast<size_t>(side)] = static_cast<uint8_t>(o);
    return Status::ok();
  }
  if (k == "place" && w.size() >= 4) {
    const int side = side_of(w[1]);
    const int h = hex_at(3);
    if (side < 0)
      return bad("place <german|soviet> <unit> <hex> [attack N] [defense N] [class C] [type T] [dotted]");
    if (h < 0) return bad("'" + w[3] + "' is not a hex");
    int u = find_label(w[2]);
    if (u >= 0 && def(u).side != side) return bad(w[2] + " is a " + side_name(def(u).side) + " unit");
    if (u < 0 || w.size() > 4) {
      UnitDef d = u >= 0 ? def(u) : UnitDef{};
      if (u < 0) {
        d.label = w[2];
        d.id = std::string(side == kGerman ? "de-" : "su-") + "test-" + w[2];
        d.name = w[2];
        d.side = static_cast<uint8_t>(side);
        d.set_nation(side == kGerman ? "german" : "soviet");
        // Defaults by label: "4Pz" a 4-3 panzer corps, "3T" a tank army, else 3-3 / 2-2 foot.
        const bool pz = w[2].size() > 2 && w[2].substr(w[2].size() - 2) == "Pz";
        const bool tank = side == kSoviet && !w[2].empty() && (w[2].back() == 'T');
        d.cls = pz || tank ? kMech : kNonMech;
        d.type = side == kGerman ? (pz ? kPanzer : kInfantry) : (tank ? kTankArmy : kRifleArmy);
        d.attack = pz ? 4 : 3;
        d.defense = 3;
      }
      for (size_t i = 4; i < w.size(); ++i) {
        const std::string& key = w[i];
        const std::string val = i + 1 < w.size() ? w[i + 1] : "";
        if (key == "dotted") {
          d.dotted = true;
          continue;
        }
        if (key == "circled") {
          d.attack_circled = true;
          continue;
        }
        if (val.empty()) return bad("'" + key + "' needs a value");
        ++i;
        const auto n = steppe::parse_int_in(val, -99, 99);
        const bool numeric_key = key == "attack" || key == "defense" || key == "cf" || key == "shifts";
        if (numeric_key && !n && !(val == "d6" && (key == "attack" || key == "defense")))
          return bad("'" + key + "' needs a number, not '" + val + "'");
        if (key == "attack")
          d.attack = val == "d6" ? kRolled : *n;
        else if (key == "defense")
          d.defense = val == "d6" ? kRolled : *n;
        else if (key == "cf")
          d.attack = d.defense = *n;
        else if (key == "class")
          d.cls = val == "mech" ? kMech : val == "static" ? kStatic : kNonMech;
        else if (key == "nation")
          d.set_nation(val);
        else if (key == "shifts")
          d.support_shifts = *n;
        else if (key == "zone")
          d.zone = val == "north" ? kZoneNorth : kZoneSouth;
        else if (key == "type") {
          bool ok = false;
          d.type = type_from_name(val, ok);
          if (!ok) return bad("unknown unit type '" + val + "'");
        } else
          return bad("unknown unit property '" + key + "'");
      }
      auto nd = std::make_shared<std::vector<UnitDef>>(*defs_);
      if (u < 0) {
        if (num_units() >= kMaxUnits)
          return bad("at most " + std::to_string(kMaxUnits) + " units (kMaxUnits)");
        nd->push_back(d);
        u = static_cast<int>(nd->size()) - 1;
        units_.push_back(UnitSt{});
      } else {
        (*nd)[static_cast<size_t>(u)] = d;
      }
      own_defs_ = nd;
      defs_ = nd.get();
    }
    if (enemy_in(h, side)) return bad("hex " + hex_id(h) + " holds enemy units");
    units_[static_cast<size_t>(u)] = UnitSt{};
    place(u, h);
    units_[static_cast<size_t>(u)].start_hex = static_cast<int16_t>(h);
    return Status::ok();
  }
  if ((k == "remove" || k == "dead" || k == "rvgk" || k == "dead-permanent") && w.size() == 2) {
    const int u = find_label(w[1]);
    if (u < 0) return bad("unknown unit '" + w[1] + "'");
    UnitSt& s = units_[static_cast<size_t>(u)];
    s.where = k == "remove" ? kOutOfPlay : k == "dead" ? kDead : k == "rvgk" ? kRvgk : kDeadPerm;
    s.hex = -1;
    return Status::ok();
  }
  if (k == "attach" && w.size() == 3) {  // 8.31, 8.32: puts a TB / CM atop a unit, no checks but kind
    const int u = find_label(w[1]), p = find_label(w[2]);
    if (u < 0 || p < 0) return bad("unknown unit '" + w[u < 0 ? 1 : 2] + "'");
    if (!is_attachable(u)) return bad(w[1] + " is not a Tiger battalion or CM group");
    if (!eligible_parent(u, p)) return bad(w[2] + " may not carry " + w[1] + " (8.31, 8.32)");
    if (unit(p).where != kOnMap) return bad(w[2] + " is not on the map");
    attach(u, p);
    return Status::ok();
  }
  if (k == "trrt" && w.size() == 3) {
    const int u = find_label(w[1]);
    if (u < 0) return bad("unknown unit '" + w[1] + "'");
    const auto t = steppe::parse_int_in(w[2], 1, 32);
    if (!t) return bad("arrival turn must be 1..32, not '" + w[2] + "'");
    units_[static_cast<size_t>(u)].where = kTrrt;
    units_[static_cast<size_t>(u)].hex = -1;
    units_[static_cast<size_t>(u)].turn = static_cast<int8_t>(*t);
    return Status::ok();
  }
  if (k == "mp" && w.size() == 3) {
    const int u = find_label(w[1]);
    if (u < 0) return bad("unknown unit '" + w[1] + "'");
    const auto mp = steppe::parse_int_in(w[2], -1, 99);
    if (!mp) return bad("mp must be a number, not '" + w[2] + "'");
    units_[static_cast<size_t>(u)].mp = static_cast<int8_t>(*mp);
    movers_.assign(1, static_cast<int16_t>(u));
    return Status::ok();
  }
  if (k == "reveal" && w.size() == 2) {  // 11.7: as an odds calculation would show it to the German
    const int u = find_label(w[1]);
    if (u < 0) return bad("unknown unit '" + w[1] + "'");
    units_[static_cast<size_t>(u)].flags |= kFlagRevealed;
    mark_dirty();
    return Status::ok();
  }
  if (k == "supply" && w.size() == 3) {
    const int u = find_label(w[1]);
    if (u < 0) return bad("unknown unit '" + w[1] + "'");
    int st = -1;
    for (int i = 0; i < 8; ++i)
      if (w[2] == kSupplyNames[i]) st = i;
    if (st < 0)
      return bad("supply state is overland, garrison, coastal, aerial, oos, always, crimea or none");
    units_[static_cast<size_t>(u)].forced_supply = static_cast<uint8_t>(st);
    return Status::ok();
  }
  if ((k == "control" || k == "start-control") && w.size() == 3) {
    const int h = hex_at(1);
    if (h < 0) return bad("not a hex");
    const int side = side_of(w[2]);
    (k == "control" ? hex_.control : hex_.start_control)[static_cast<size_t>(h)] =
        static_cast<uint8_t>(side < 0 ? kNoSide : side);
    return Status::ok();
  }
  if (k == "vp" && w.size() == 2) {
    const auto v = steppe::parse_int_in(w[1], -999, 999);
    if (!v) return bad("vp must be a number, not '" + w[1] + "'");
    vp_ = *v;
    return Status::ok();
  }
  if (k == "option" && (w.size() == 2 || w.size() == 3)) {  // 4.20, 4.21
    if (w.size() == 3 && w[2] != "on" && w[2] != "off") return bad("option NAME [on|off]");
    if (w[1] == "lithuania")  // 3.7 changes the set-up: it rides on the scenario name
      return bad("the Lithuania option changes the set-up: use 'scenario grand-campaign+lithuania'");
    return set_option(w[1], w.size() == 2 || w[2] == "on");
  }
  if (k == "paulus" && w.size() == 2) {
    paulus_ = w[1] == "taken" || w[1] == "take" ? 1 : 2;
    return Status::ok();
  }
  if (k == "zone1942" && w.size() == 2) {
    zone1942_ = w[1] == "north" ? kZoneNorth : kZoneSouth;
    return Status::ok();
  }
  if (k == "aerial-available" && w.size() == 1) {
    markers_.aerial_available = true;
    markers_.aerial = -1;
    return Status::ok();
  }
  if (k == "luftwaffe" && w.size() == 2) {
    const auto n = steppe::parse_int_in(w[1], 0, 99);
    if (!n) return bad("luftwaffe must be 0..99, not '" + w[1] + "'");
    markers_.luftwaffe_left = static_cast<int8_t>(*n);
    return Status::ok();
  }
  if (k == "dice") {
    std::vector<int> rolls;  // all or none: a bad word forces nothing
    for (size_t i = 1; i < w.size(); ++i) {
      const auto v = steppe::parse_int_in(w[i], 1, 6);
      if (!v) return bad("a forced die is 1..6, not '" + w[i] + "'");
      rolls.push_back(*v);
    }
    for (int v : rolls) dice_.force(v);
    return Status::ok();
  }
  if (k == "marker" && w.size() >= 3) {
    const std::string& m = w[1];
    if (m == "osupply-available" && w.size() == 3) {  // held, not placed (7.12)
      if (w[2].size() != 1 || w[2][0] < 'A' || w[2][0] > 'C') return bad("marker osupply-available <A|B|C>");
      markers_.osupply[static_cast<size_t>(w[2][0] - 'A')] = -1;
      markers_.osupply_have[static_cast<size_t>(w[2][0] - 'A')] = 1;
      return Status::ok();
    }
    if (m == "osupply" && w.size() == 4) {
      const int h = hex_at(3);
      if (h < 0 || w[2].size() != 1 || w[2][0] < 'A' || w[2][0] > 'C')
        return bad("marker osupply <A|B|C> <hex>");
      markers_.osupply[static_cast<size_t>(w[2][0] - 'A')] = static_cast<int16_t>(h);
      markers_.osupply_have[static_cast<size_t>(w[2][0] - 'A')] = 1;
      return Status::ok();
    }
    const int h = hex_at(2);
    if (h < 0) return bad("not a hex");
    if (m == "hero-city")
      markers_.hero_city.push_back(static_cast<int16_t>(h));
    else if (m == "fortress-city")
      markers_.fortress_city.push_back(static_cast<int16_t>(h));
    else if (m == "aerial")
      markers_.aerial = static_cast<int16_t>(h);
    else if (m == "east-wall")
      markers_.east_wall.push_back(static_cast<int16_t>(h));
    else if (m == "fortified-area") {
      markers_.fa_hex = static_cast<int16_t>(h);
      const auto t = w.size() > 3 ? steppe::parse_int_in(w[3], 0, 32) : std::optional<int>(turn_ - 1);
      if (!t) return bad("fortified-area turn must be 0..32, not '" + w[3] + "'");
      markers_.fa_turn = static_cast<int8_t>(*t);
    } else
      return bad("unknown marker '" + m + "'");
    return Status::ok();
  }
  // Map edits (copy-on-write): terrain, city, river, fortified, country, zone, area, coastal.
  if ((k == "terrain" || k == "city" || k == "river" || k == "fortified" || k == "country" || k == "zone" ||
       k == "area" || k == "coastal" || k == "west-of-start" || k == "lake-side" || k == "sea-side" ||
       k == "offmap" || k == "dnepr") &&
      w.size() >= 2) {
    const int h = hex_at(1);
    if (h < 0) return bad("not a hex");
    HexInfo& x = hx_mut(h);
    const std::string v = w.size() > 2 ? w[2] : "";
    if (k == "terrain") {
      int t = -1;
      for (int i = 0; i < kNumTerrain; ++i)
        if (v == terrain_name(static_cast<Terrain>(i))) t = i;
      if (t < 0) return bad("unknown terrain '" + v + "'");
      x.terrain = static_cast<Terrain>(t);
    } else if (k == "city") {
      x.city = true;
      x.vp = true;
      if (!v.empty()) x.name = v;
    } else if (k == "river" || k == "lake-side" || k == "sea-side") {
      int d = -1;
      for (int i = 0; i < 6; ++i)
        if (v == dir_name(i)) d = i;
      const int n = neighbour(h, d);
      if (d < 0 || n < 0) return bad(k + " <hex> <E|NE|NW|W|SW|SE>");
      HexInfo& y = hx_mut(n);
      uint8_t& a = k == "river" ? x.river : k == "lake-side" ? x.lake_side : x.sea_side;
      uint8_t& b = k == "river" ? y.river : k == "lake-side" ? y.lake_side : y.sea_side;
      a = static_cast<uint8_t>(a | (1u << d));
      b = static_cast<uint8_t>(b | (1u << ((d + 3) % 6)));
    } else if (k == "fortified") {
      x.fortified = static_cast<int8_t>(side_of(v));
    } else if (k == "country") {
      x.country = v == "ussr"                 ? kUssr
                  : v == "baltic"             ? kBaltic
                  : v == "greater-germany"    ? kGreaterGermany
                  : v == "general-government" ? kGeneralGovernment
                  : v == "hungary"            ? kHungary
                  : v == "romania"            ? kRomania
                                              : kCountryOther;
    } else if (k == "zone") {
      x.zone = v == "north" ? kZoneNorth : v == "south" ? kZoneSouth : kZoneNone;
    } else if (k == "area") {
      x.area = v == "DP" ? kAreaDP : v == "R" ? kAreaR : v == "CS" ? kAreaCS : kAreaNone;
    } else if (k == "coastal") {
      x.coastal = true;
    } else if (k == "west-of-start") {
      x.west_of_start_line = true;
    } else if (k == "offmap") {
      x.on_map = false;
    } else if (k == "dnepr") {
      x.dnepr = true;  // 4.6
    }
    return Status::ok();
  }
  return bad("unknown set-up word '" + k + "'");
}

steppe::Result<std::string> BdState::test_query(const std::vector<std::string>& words) const {
  return query_word(words);
}

// 11.7: a query may name only units the asking side may identify and stacks it may see
// whole. The German may not look beneath the top unit of a Soviet stack before an attack is
// committed, so he gets no odds against (nor from) a stack he sees only the top of; neither
// side may examine the other's units on the Turn Record Track, nor the German the RVGK.
// Asking is refused the same way whichever hidden unit or box is named.
steppe::Status BdState::query_allowed(int side, const std::vector<std::string>& words) const {
  if (side != kGerman && side != kSoviet) return Status::ok();
  auto identifies = [&](int u) {
    if (def(u).side == side) return true;
    if (side == kGerman) return german_sees(u);
    return unit(u).where != kTrrt && unit(u).where != kToSetUp;  // 11.7 the German TRT
  };
  std::vector<int> here;
  for (size_t i = 1; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (const int u = find_label(w); u >= 0 && !identifies(u))
      return rerr("11.7", "'" + w + "' is not a unit " + side_name(side) + " may identify now");
    const int h = parse_hex(w);
    if (h < 0) continue;
    units_in(h, here);
    for (int u : here)
      if (!identifies(u))
        return rerr("11.7", std::string("the ") + side_name(side) +
                                " may not look beneath the top unit of the " + side_name(def(u).side) +
                                " stack in " + hex_id(h) +
                                " until the odds of a committed attack are computed");
  }
  return Status::ok();
}

steppe::Result<std::string> BdState::query_word(const std::vector<std::string>& w) const {
  auto bad = [&](const std::string& why) { return steppe::Error{why, "", "test_query"}; };
  if (w.empty()) return bad("empty query");
  const std::string& k = w[0];
  auto side_of = [](const std::string& s) { return s == "german" ? kGerman : s == "soviet" ? kSoviet : -1; };
  if (k == "unit" && w.size() == 3) {
    const int u = find_label(w[1]);
    if (u < 0) return bad("unknown unit '" + w[1] + "'");
    const UnitSt& s = unit(u);
    if (w[2] == "hex") return s.where == kOnMap ? hex_id(s.hex) : std::string(where_name(s.where));
    if (w[2] == "where" || w[2] == "status") return std::string(where_name(s.where));
    if (w[2] == "mp") return std::to_string(s.mp >= 0 ? s.mp : (s.where == kOnMap ? start_mf(u) : 0));
    if (w[2] == "mf") return std::to_string(mf_of(u));
    if (w[2] == "supply") return std::string(supply_name(unit_supply(u)));
    if (w[2] == "offensive") return std::string(offensive_ok(u) ? "yes" : "no");
    if (w[2] == "attacked") return std::string(s.flags & kFlagAttacked ? "yes" : "no");
    if (w[2] == "revealed") return std::string(s.flags & kFlagRevealed ? "yes" : "no");
    // 2.5 the printed counter (as this state has it: `place` properties replace them).
    auto factor = [](int f) { return f == kRolled ? std::string("d6") : std::to_string(f); };
    if (w[2] == "attack") return factor(def(u).attack);
    if (w[2] == "defense") return factor(def(u).defense);
    if (w[2] == "dotted") return std::string(def(u).dotted ? "yes" : "no");
    if (w[2] == "setup") return def(u).setup_code.empty() ? std::string("none") : def(u).setup_code;
    if (w[2] == "trrt") return s.where == kTrrt ? std::to_string(s.turn) : std::string("none");  // 3.3, 3.4
    if (w[2] == "attached") return s.parent >= 0 ? label(s.parent) : std::string("none");        // 8.31, 8.32
    if (w[2] == "contact") {  // enemy-occupied hexes next to the unit (AI scenarios)
      if (s.where != kOnMap) return std::string("0");
      compute_occupancy();
      int n = 0;
      for (int d = 0; d < 6; ++d) {
        const int h = neighbour(s.hex, d);
        if (h >= 0 && cache_.occ_side[static_cast<size_t>(h)] == other(def(u).side)) ++n;
      }
      return std::to_string(n);
    }
    return bad(
        "unit <label> hex|where|mp|mf|supply|offensive|attacked|revealed|attack|defense|dotted|setup|trrt|"
        "attached|contact");
  }
  if (k == "place" && w.size() == 2) {  // 2.2: a hex the rulebook names (places.json)
    std::string key = w[1];
    std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) { return std::tolower(c); });
    const auto it = data_->places.named.find(key);
    if (it == data_->places.named.end() || it->second < 0) return bad("no place named '" + w[1] + "'");
    return hex_id(it->second);
  }
  if (k == "hex" && w.size() == 3 && w[2] == "name") {  // the map's name of the hex
    const int h = parse_hex(w[1]);
    if (h < 0) return bad("not a hex");
    return hx(h).name.empty() ? std::string("none") : hx(h).name;
  }
  if (k == "hex" && w.size() == 3 && w[2] == "units") {
    const int h = parse_hex(w[1]);
    if (h < 0) return bad("not a hex");
    std::vector<int> here;
    units_in(h, here);
    std::string out;
    for (int u : here) out += (out.empty() ? "" : " ") + label(u);
    return out.empty() ? std::string("none") : out;
  }
  if (k == "reach" && w.size() == 2) {
    // The cheapest MP cost of every hex the unit can reach now (10.1, 10.3, 10.14), as
    // JSON for the UI: {"unit", "hex", "mp", "hexes": {"2403": {"cost", "left"}}}; the
    // typed view reach() answers from the same search.
    const int u = find_label(w[1]);
    if (u < 0) return bad("unknown unit '" + w[1] + "'");
    if (unit(u).where != kOnMap) return bad(w[1] + " is not on the map");
    const steppe::Reach r = reach_of(u);
    Json hexes = Json::object();
    for (const auto& d : r.destinations)
      hexes[d.location] = Json{{"cost", d.cost}, {"left", r.allowance - d.cost}};
    return Json{{"unit", r.unit}, {"hex", r.from}, {"mp", r.allowance}, {"hexes", hexes}}.dump();
  }
  if ((k == "odds" || k == "raw-odds" || k == "shifts" || k == "attack-strength" || k == "defense-strength" ||
       k == "column" || k == "combat") &&
      w.size() >= 4) {
    std::vector<std::string> t{"attack"};
    size_t start = 1;
    if (w[1] == "attack" || w[1] == "mobile-assault") {
      t[0] = w[1];
      start = 2;
    }
    // 8.36-8.41: "... support artillery UNIT air-army UNIT interceptor partisans airborne"
    // previews support markers (their eligibility is not checked, as for `lw`).
    size_t end_w = w.size();
    for (size_t i = start; i < w.size(); ++i)
      if (w[i] == "support") {
        end_w = i;
        break;
      }
    for (size_t i = start; i < end_w; ++i) t.push_back(w[i]);
    auto a = parse_attack(t, t[0] == "mobile-assault");
    if (!a) return a.error();
    // The typed view preview() answers from the same code (combat_preview).
    const std::vector<std::string> support(
        w.begin() + static_cast<std::ptrdiff_t>(std::min(end_w + 1, w.size())), w.end());
    auto p = combat_preview(*a, support);
    if (!p) return bad(p.error().message);
    if (k == "combat") {
      Json shifts = Json::array();
      for (const auto& s : p->shifts)
        shifts.push_back(Json{{"shift", s.shift}, {"reason", s.reason}, {"rule", s.rule}});
      return Json{{"attack", p->attack},
                  {"defense", p->defense},
                  {"defenders", p->detail["defenders"]},
                  {"raw", p->raw},
                  {"raw_rule", p->detail["raw_rule"]},
                  {"shifts", shifts},
                  {"total_shift", p->detail["total_shift"]},
                  {"final", p->final},
                  {"final_rule", p->detail["final_rule"]},
                  {"attackers", p->detail["attackers"]}}
          .dump();
    }
    if (k == "attack-strength") return std::to_string(p->attack);
    if (k == "defense-strength") return std::to_string(p->defense);
    if (k == "shifts") return std::to_string(p->detail["total_shift"].get<int>());
    if (k == "raw-odds") return p->raw;
    return p->final;
  }
  if (k == "result") return last_result_.empty() ? std::string("none") : last_result_;
  if (k == "last-odds") return odds_label(last_odds_);
  if (k == "crt" && w.size() == 3) {
    const int die = steppe::parse_int_in(w[2], 1, 6).value_or(0);
    int idx = -999;
    for (int i = data_->crt.min_index; i <= data_->crt.max_index; ++i)
      if (odds_label(i) == w[1]) idx = i;
    if (idx == -999 || die < 1 || die > 6) return bad("crt <odds> <die>");
    return std::string(result_name(
        data_->crt.results[static_cast<size_t>(idx - data_->crt.min_index)][static_cast<size_t>(die - 1)]));
  }
  if (k == "supply" && w.size() == 3 && w[1] == "unit") {
    const int u = find_label(w[2]);
    if (u < 0) return bad("unknown unit");
    return std::string(supply_name(unit_supply(u)));
  }
  if (k == "supply" && w.size() == 3) {
    const int h = parse_hex(w[1]);
    const int side = side_of(w[2]);
    if (h < 0 || side < 0) return bad("supply <hex> <german|soviet>");
    return std::string(overland(h, side) ? "overland" : "none");
  }
  if (k == "control" && w.size() == 2) {
    const int h = parse_hex(w[1]);
    if (h < 0) return bad("not a hex");
    return std::string(side_name(hex_.control[static_cast<size_t>(h)]));
  }
  if (k == "vp") return std::to_string(vp_);
  if (k == "siege") {  // 12.13
    static constexpr const char* kSiege[] = {"none", "besieged", "lifted", "held"};
    return std::string(kSiege[std::clamp<int>(siege_, 0, 3)]);
  }
  if (k == "border-open" && w.size() == 2) {  // 15.3 border hexes of SIDE without its unit
    std::vector<int> open;
    uncovered_border(w[1] == "soviet" ? kSoviet : kGerman, open);
    return std::to_string(open.size());
  }
  if (k == "oos-kills") return std::to_string(oos_kills_);  // 14.10
  if (k == "repl" && w.size() == 2) {                       // 8.12
    const int sd = w[1] == "soviet" ? kSoviet : kGerman;
    return std::to_string(repl_left_mech_[static_cast<size_t>(sd)]) + "/" +
           std::to_string(repl_left_non_[static_cast<size_t>(sd)]);
  }
  if (k == "fp") return std::to_string(fp_);                                                    // 4.20
  if (k == "watch") return std::string(watch_ == 2 ? "oder" : watch_ == 1 ? "rhine" : "none");  // 4.18
  if (k == "summer-offensive")                                                                  // 4.4
    return summer_done_ == 1   ? std::string("succeeded")
           : summer_done_ == 2 ? std::string("debited")
           : summer_turn_ != 0 ? "declared " + std::to_string(summer_turn_)
                               : std::string("none");
  if (k == "soviet-losses") return std::to_string(soviet_losses_);  // 4.19
  if (k == "caucasus") {                                            // 4.11-4.13
    static const char* names[] = {"none", "in-box", "broke-through", "recalled", "defeated"};
    if (cauc_ == kCaucNone) return std::string(cauc_open_ ? "open" : "none");
    return std::string(names[std::min<int>(cauc_, 4)]);
  }
  if (k == "mansteins-gambit") return std::string(mg_ ? "yes" : "no");  // 4.16
  if (k == "replacements" && w.size() == 2 && side_of(w[1]) >= 0)       // 8.12 steps left: mech/non-mech
    return std::to_string(repl_left_mech_[static_cast<size_t>(side_of(w[1]))]) + "/" +
           std::to_string(repl_left_non_[static_cast<size_t>(side_of(w[1]))]);
  if (k == "ss-withdrawal")  // 8.17 / 4.10
    return std::string(ss_due_ == 1   ? "due"
                       : ss_due_ == 2 ? "delayed"
                                      : "none") +
           " done " + std::to_string(ss_done_) + " failed " + std::to_string(ss_failed_);
  if (k == "winner") return std::string(winner_ == kNoSide ? "none" : side_name(winner_));
  if (k == "turn") return std::to_string(turn_);
  if (k == "phase") return std::string(phase_name(phase_));
  if (k == "current") return std::string(current_player() >= 0 ? side_name(current_player()) : "none");
  if (k == "pending") {
    static const char* names[] = {"none",    "luftwaffe-defend", "convert-bb",        "retreat",
                                  "advance", "emergency-rvgk",   "caucasus-response", "take-retreat",
                                  "support", "overstack",        "bb-loss",           "interrupt"};
    return std::string(names[pending_]);
  }
  if (k == "support-left" && w.size() == 2) {  // 8.36-8.40 markers still usable in this phase
    for (int x = kSupArtillery; x < kNumSupportKinds; ++x)
      if (w[1] == kSupportNames[x]) return std::to_string(support_left(x));
    return bad("support-left artillery|air-army|interceptor|partisans|airborne");
  }
  if (k == "bulgaria") {  // 8.26
    static const char* names[] = {"none", "waiting", "gt14", "returned"};
    std::string r = names[std::clamp<int>(bulg_state_, 0, 3)];
    if (bulg_unit_ >= 0) r += " " + label(bulg_unit_);
    return r;
  }
  if (k == "distance" && w.size() == 3) {
    const int a = parse_hex(w[1]), b = parse_hex(w[2]);
    if (a < 0 || b < 0) return bad("distance <hex> <hex>");
    return std::to_string(hex_distance(a, b));
  }
  if (k == "neighbour" && w.size() == 3) {
    const int a = parse_hex(w[1]);
    int d = -1;
    for (int i = 0; i < 6; ++i)
      if (w[2] == dir_name(i)) d = i;
    if (a < 0 || d < 0) return bad("neighbour <hex> <E|NE|NW|W|SW|SE>");
    return neighbour(a, d) >= 0 ? hex_id(neighbour(a, d)) : std::string("none");
  }
  if (k == "legal" && w.size() >= 2) {
    std::string text;
    for (size_t i = 1; i < w.size(); ++i) text += (i > 1 ? " " : "") + w[i];
    auto a = parse_action(text);
    if (!a) return a.error();
    Status s = check(*a);
    return s.is_ok() ? std::string("ok") : std::string("illegal ") + s.error().rule;
  }
  if (k == "year") return std::to_string(ti().year);
  if (k == "month-type") return std::string(ti().single ? "single" : "double");
  if (k == "markers" && w.size() == 2 && w[1] == "luftwaffe") return std::to_string(markers_.luftwaffe_left);
  if (k == "hero-city" && w.size() == 2) return std::string(hero_city(parse_hex(w[1])) ? "yes" : "no");
  if (k == "east-wall" && w.size() == 2) return std::string(east_wall(parse_hex(w[1])) ? "yes" : "no");
  if (k == "east-wall-left") return std::to_string(markers_.east_wall_left);
  if (k == "comb-out-steps") return std::to_string(combout_left_);
  return bad("unknown query '" + k + "'");
}

}  // namespace bd
