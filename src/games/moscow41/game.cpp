// Moscow '41 scenario set-up (Scenario Setup, Campaign Game) and Game::new_state.
//
// Placements the text fixes are made as written, and the random draws ("randomly drawn")
// are made with the game's seeded dice. A placement the text leaves to a player ("in any
// adjacent Area", "along the frontline", "at the German player choice") is a step marked
// "choice": true in the scenario file: its pieces wait in the set-up phase (Phase::kSetup)
// for their owner, the Soviets first, then the Germans (the player without the Initiative
// sets up first), each placed with `setup BLOCK AREA` / `setup dl AREA` anywhere its step's
// rule allows (setup_sites), or all the rest at once with `setup auto`, the seeded
// automatic procedure (random among the legal areas) that placed them before the set-up
// phase existed. The German steps run when the last Soviet piece is placed, so the German
// draws are made then. The Campaign and Beyond the Dnieper have no choice step and start
// as they always did (docs/rulings.md, "Moscow '41 / Set-ups").
#include <algorithm>

#include "games/moscow41/state.h"

namespace moscow41 {

using steppe::Error;
using steppe::Result;
using steppe::rule_error;
using steppe::Status;

namespace {

bool json_match(const Json& v, const std::string& s) {
  if (v.is_string()) return v.get<std::string>() == s;
  if (v.is_array())
    for (const auto& e : v)
      if (e.is_string() && e.get<std::string>() == s) return true;
  return false;
}

const char* type_name(BlockType t) {
  switch (t) {
    case BlockType::kInfantry:
      return "infantry";
    case BlockType::kMotorized:
      return "motorized";
    case BlockType::kCavalry:
      return "cavalry";
    case BlockType::kTank:
      return "tank";
    default:
      return "";
  }
}

}  // namespace

// "campaign+moscow-supply+blizzard": a scenario with optional rules (14.0) agreed before
// play, as BD does it; the whole string is what saves and replays record.
Result<std::unique_ptr<steppe::State>> Moscow41Game::new_state(const std::string& scenario_and_options,
                                                               uint64_t seed) const {
  const auto [scenario, options] = steppe::split_scenario_options(scenario_and_options);
  auto st = std::make_unique<Moscow41State>(*this);
  st->dice().reseed(seed);
  for (const auto& o : options)
    if (Status s = st->set_option(o, true); !s.is_ok()) return s.error();
  Status s = st->setup(scenario);
  if (!s.is_ok()) return s.error();
  return std::unique_ptr<steppe::State>(std::move(st));
}

Status Moscow41State::setup(const std::string& scenario) {
  scenario_ = scenario;
  if (scenario == "empty") {
    victory_kind_ = "none";
    phase_ = Phase::kImpulse;
    return Status::ok();
  }
  const Scenario* sc = g_.scenario(scenario);
  if (sc == nullptr) return Error{"unknown scenario '" + scenario + "'", "", ""};
  const Json& d = sc->doc;
  first_turn_ = d.value("first_turn", 1);
  last_turn_ = d.value("last_turn", 6);
  turn_ = first_turn_;
  const std::string w = d.value("weather", "sunny");
  weather_ = w == "rain" ? kRain : w == "snow" ? kSnow : kSunny;
  initiative_ = d.value("initiative", "german") == "german" ? kGerman : kSoviet;
  initiative_limit_ = d.value("initiative_limit", "none");
  victory_kind_ = d.at("victory").at("kind").get<std::string>();  // validated on load
  kiev_german_ = d.value("kiev", "soviet") == "german";
  shl_german_ = d.value("shlisselburg", "soviet") == "german";
  len_german_ = d.value("leningrad", "soviet") == "german";
  road_in_play_ = d.value("road_in_play", true);
  hoepner_on_map_rule_ = d.value("hoepner_on_map", false);
  surrendered_soviet_ = d.value("surrendered_soviet", 0);
  destroyed_german_ = d.value("destroyed_german", 0);
  // 2.5: control at start.
  const Json& control = d["control"];
  for (int n = 0; n < g_.map().area_count(); ++n) {
    int c = kSoviet;
    if (ad(n).terrain == kStaging ||
        (control.contains("german") && json_match(control["german"], g_.map().id(n))))
      c = kGerman;
    else if (control.contains("front")) {
      const std::string f = control["front"];
      c = (f == "typhoon" ? ad(n).typhoon_german : ad(n).last_gasp_german) ? kGerman : kSoviet;
    }
    as(n).control = c;
  }
  for (int n = g_.map().area_count(); n < node_count(); ++n) as(n).control = kSoviet;
  as(g_.box_rastenburg()).control = kGerman;
  as(g_.road()[0]).control = kGerman;
  if (shl_german_) as(g_.road()[static_cast<size_t>(g_.road_shlisselburg())]).control = kGerman;

  setup_.clear();
  if (Status s = setup_side(kSoviet); !s.is_ok()) return s;
  phase_ = Phase::kSetup;
  active_ = kSoviet;
  return settle_setup_status();
}

Status Moscow41State::setup_side(int side) {
  const Scenario* sc = g_.scenario(scenario_);
  if (sc == nullptr) return Status::ok();
  const Json& d = sc->doc;
  const std::string side_key = side_name(side);
  auto matches = [&](int b, const Json& f) {
    const BlockDef& bd = def(b);
    if (block(b).loc != kLocUnplaced) return false;
    if (f.contains("side") && f["side"] != (bd.side == kGerman ? "german" : "soviet")) return false;
    if (f.contains("colour") && !json_match(f["colour"], bd.colour)) return false;
    if (f.contains("kind")) {
      const std::string k = f["kind"];
      const bool ok = (k == "combat" && bd.kind == Kind::kCombat) || (k == "hq" && bd.kind == Kind::kHq) ||
                      (k == "leader" && bd.kind == Kind::kLeader);
      if (!ok) return false;
    }
    if (f.contains("type") && f["type"] != type_name(bd.type)) return false;
    if (f.contains("tag") && f["tag"] != bd.tag) return false;
    if (f.contains("letter") && (bd.letter == 0 || f["letter"] != std::string(1, bd.letter))) return false;
    if (f.contains("not_letter") && bd.letter != 0 && f["not_letter"] == std::string(1, bd.letter))
      return false;
    return true;
  };
  auto draw = [&](const Json& f, int count) {
    std::vector<int> c;
    for (int b = 0; b < static_cast<int>(blocks_.size()); ++b)
      if (matches(b, f)) c.push_back(b);
    std::vector<int> out;
    while (!c.empty() && static_cast<int>(out.size()) < count) {
      const size_t k = static_cast<size_t>(dice_.below(static_cast<int>(c.size())));
      out.push_back(c[k]);
      c.erase(c.begin() + static_cast<long>(k));
    }
    return out;
  };
  auto level_for = [&](int b, const Json& spec) {
    const BlockDef& bd = def(b);
    if (spec.is_number_integer()) {
      const int want = spec.get<int>();
      for (size_t k = 0; k < bd.levels.size(); ++k)
        if (bd.levels[k] <= want) return static_cast<int>(k);
      return bd.min_level();
    }
    const std::string s = spec.is_string() ? spec.get<std::string>() : "full";
    if (s == "min") return bd.min_level();
    if (s == "full_or_remnant_min") return bd.remnant ? bd.min_level() : 0;
    return 0;
  };
  auto put = [&](int b, int node, int level, bool face_up) {
    bs(b).loc = node;
    bs(b).level = level;
    bs(b).face_up = face_up;
    bs(b).revealed = face_up;
  };
  auto hq_of_colour = [&](const std::string& colour) {
    for (int b = 0; b < static_cast<int>(blocks_.size()); ++b)
      if (def(b).side == side && def(b).kind == Kind::kHq && def(b).colour == colour && is_area(block(b).loc))
        return b;
    return -1;
  };
  auto node_list = [&](const Json& step, const char* key) {
    std::vector<int> v;
    if (step.contains(key))
      for (const auto& id : step[key]) v.push_back(g_.node(id.get<std::string>()));
    return v;
  };

  for (const Json& step : d["setup"][side_key]) {
    const std::string where = "scenario " + scenario_ + " set-up " + side_key + ": " + step.dump();
    const Json& f = step.contains("filter") ? step["filter"] : Json::object();
    const Json spec = step.contains("strength") ? step["strength"] : Json("full");
    const bool face_up = step.value("face_up", false);
    // A choice step's pieces wait for their owner; any other step's are placed at once by
    // the automatic procedure (the one `setup auto` runs).
    const bool choice = step.value("choice", false);
    const size_t first_piece = setup_.size();
    if (step.contains("dl")) {
      for (const auto& id : step["dl"]) as(g_.node(id.get<std::string>())).dl = side;
      continue;
    }
    if (step.contains("dl_count")) {
      SetupPiece p;
      p.side = side;
      p.rule = SetupRule::kDl;
      p.front = step.value("zone", "any") == "front";
      p.exclude = node_list(step, "exclude");
      for (int k = 0; k < step["dl_count"].get<int>(); ++k) setup_.push_back(p);
    } else {
      std::vector<int> chosen;
      if (step.contains("blocks")) {
        for (const auto& id : step["blocks"]) chosen.push_back(g_.block_index(id.get<std::string>()));
      } else if (step.contains("icons")) {
        for (const auto& icon : g_.icons()) {
          Json fi = f;
          fi["colour"] = icon[1];
          fi["type"] = icon[2];
          auto got = draw(fi, 1);
          if (got.empty())
            return Error{"no block for the " + icon[1] + " " + icon[2] + " icon in " + icon[0], "", where};
          put(got[0], g_.node(icon[0]), level_for(got[0], spec), face_up);
        }
        continue;
      } else {
        int count = step.value("count", 1000);
        if (step.contains("areas")) count = std::min(count, static_cast<int>(step["areas"].size()));
        chosen = draw(f, count);
      }
      if (step.contains("to")) {
        const std::string to = step["to"];
        const int loc = to == "pool"          ? kLocPool
                        : to == "oob_n"       ? kLocOobN
                        : to == "oob_k"       ? kLocOobK
                        : to == "surrendered" ? kLocSurrendered
                                              : kLocUnplaced;
        for (int b : chosen) bs(b).loc = loc;
        continue;
      }
      if (step.contains("box")) {
        const int box = g_.node(step["box"].get<std::string>());
        for (int b : chosen) put(b, box, level_for(b, spec), face_up);
        if (box == g_.road()[0]) hoepner_road_ = 0;
        continue;
      }
      if (step.contains("area")) {
        const int n = g_.node(step["area"].get<std::string>());
        for (int b : chosen) put(b, n, level_for(b, spec), face_up);
        continue;
      }
      if (step.contains("areas")) {
        const auto& areas = step["areas"];
        if (chosen.size() != areas.size())
          return Error{"not enough blocks for the listed areas", "Scenario Setup", where};
        for (size_t i = 0; i < chosen.size(); ++i)
          put(chosen[i], g_.node(areas[i].get<std::string>()), level_for(chosen[i], spec), face_up);
        continue;
      }
      if (step.contains("near") || step.value("near_own_hq", false)) {
        // One block (the first drawn) with its HQ, the others in adjacent friendly areas
        // (one each unless the step says "one_each": false); or (with_hq_or_adjacent) each
        // in the HQ's area or any adjacent one.
        std::vector<std::pair<int, std::vector<int>>> groups;  // hq -> blocks
        for (int b : chosen) {
          const int hq = step.contains("near") ? g_.block_index(step["near"].get<std::string>())
                                               : hq_of_colour(def(b).colour);
          if (hq < 0 || !is_area(block(hq).loc)) return Error{"no HQ on the map for " + def(b).id, "", where};
          auto it =
              std::find_if(groups.begin(), groups.end(), [&](const auto& gr) { return gr.first == hq; });
          if (it == groups.end())
            groups.push_back({hq, {b}});
          else
            it->second.push_back(b);
        }
        const bool hq_or_adjacent = step.value("with_hq_or_adjacent", false);
        const bool one_each = step.value("one_each", true);
        for (auto& [hq, members] : groups) {
          for (size_t i = 0; i < members.size(); ++i) {
            const int b = members[i];
            int lvl = level_for(b, spec);
            if (step.contains("strength_by_block") && step["strength_by_block"].contains(def(b).id))
              lvl = level_for(b, step["strength_by_block"][def(b).id]);
            if (!hq_or_adjacent && i == 0) {
              if (step.contains("strength_with_hq")) lvl = level_for(b, step["strength_with_hq"]);
              put(b, block(hq).loc, lvl, face_up);
              continue;
            }
            SetupPiece p;
            p.side = side;
            p.block = b;
            p.rule = hq_or_adjacent ? SetupRule::kHqOrAdjacent
                     : one_each     ? SetupRule::kAdjacentOneEach
                                    : SetupRule::kAdjacent;
            p.hq = hq;
            p.level = lvl;
            p.face_up = face_up;
            setup_.push_back(p);
          }
        }
      } else if (step.contains("zone")) {
        for (int b : chosen) {
          SetupPiece p;
          p.side = side;
          p.block = b;
          p.rule = SetupRule::kZone;
          p.front = step["zone"].get<std::string>() == "front";
          p.level = level_for(b, spec);
          p.face_up = face_up;
          setup_.push_back(p);
        }
      } else {
        return Error{"set-up step not understood", "", where};
      }
    }
    for (size_t i = first_piece; i < setup_.size(); ++i)
      if (setup_[i].block >= 0) {
        bs(setup_[i].block).loc = kLocSetup;
        bs(setup_[i].block).level = setup_[i].level;  // the strength it will stand at
      }
    if (choice) continue;
    // Not a choice: placed now, each at random among the areas its rule allows.
    while (setup_.size() > first_piece) {
      const auto sites = setup_sites(setup_[first_piece]);
      if (sites.empty()) {
        if (setup_[first_piece].block >= 0)
          return Error{"no room to set up " + def(setup_[first_piece].block).id, "2.7", where};
        setup_.erase(setup_.begin() + static_cast<long>(first_piece));  // no DL left to place
        continue;
      }
      place_setup_piece(first_piece, sites[static_cast<size_t>(dice_.below(static_cast<int>(sites.size())))]);
    }
  }
  return Status::ok();
}

std::vector<int> Moscow41State::setup_zone(int side, bool front, const std::vector<int>& exclude) const {
  std::vector<int> v;
  for (int n = 0; n < g_.map().area_count(); ++n) {
    if (area(n).control != side || ad(n).terrain == kStaging) continue;
    if (std::find(exclude.begin(), exclude.end(), n) != exclude.end()) continue;
    if (front && !on_frontline(side, n)) continue;
    v.push_back(n);
  }
  return v;
}

std::vector<int> Moscow41State::hq_neighbours(int side, int hq) const {
  std::vector<int> adj;
  const int home = block(hq).loc;
  if (!is_area(home)) return adj;
  for (int y : g_.neighbours(home))
    if (area(y).control == side && ad(y).terrain != kStaging && !contested(y)) {
      bool hq_there = false;  // leave room for the other HQs' own blocks
      for (int o : pieces(side, y)) hq_there = hq_there || def(o).kind == Kind::kHq;
      if (!hq_there) adj.push_back(y);
    }
  return adj;
}

std::vector<int> Moscow41State::setup_sites(const SetupPiece& p) const {
  const int side = p.side;
  std::vector<int> out;
  auto with_room = [&](const std::vector<int>& v) {
    std::vector<int> r;
    for (int n : v)
      if (stack_ok(side, n, 1)) r.push_back(n);
    std::sort(r.begin(), r.end());
    r.erase(std::unique(r.begin(), r.end()), r.end());
    return r;
  };
  if (p.rule == SetupRule::kDl) {
    // "Maximum one Defensive Line may be deployed in each controlled Area".
    for (int n : setup_zone(side, p.front, p.exclude))
      if (area(n).dl == kNoSide) out.push_back(n);
    return out;
  }
  if (p.rule == SetupRule::kZone) {
    out = with_room(setup_zone(side, p.front, {}));
  } else {
    const std::vector<int> adj = hq_neighbours(side, p.hq);
    if (p.rule == SetupRule::kHqOrAdjacent) {
      std::vector<int> c = adj;
      c.push_back(block(p.hq).loc);
      out = with_room(c);
    } else if (p.rule == SetupRule::kAdjacentOneEach) {
      // One each: the adjacent areas none of the group (the HQ's colour) stands in yet;
      // when they run out, any adjacent area with room.
      std::vector<int> free;
      for (int y : adj) {
        bool used = false;
        for (int o : pieces(side, y))
          used = used || (def(o).kind == Kind::kCombat && def(o).colour == def(p.block).colour);
        if (!used) free.push_back(y);
      }
      out = with_room(free);
      if (out.empty()) out = with_room(adj);
    } else {
      out = with_room(adj);
    }
    if (out.empty()) {  // no room next to the HQ: any friendly area two steps away
      std::vector<int> ring;
      for (int y : adj)
        for (int z : g_.neighbours(y))
          if (area(z).control == side && ad(z).terrain != kStaging && !contested(z)) ring.push_back(z);
      out = with_room(ring);
    }
  }
  if (out.empty()) out = with_room(setup_zone(side, false, {}));  // last resort: any friendly area
  return out;
}

std::string Moscow41State::setup_rule_text(const SetupPiece& p) const {
  const std::string own = p.side == kGerman ? "German" : "Soviet";
  const std::string hq = p.hq >= 0 ? def(p.hq).id + "'s Area " + g_.map().id(block(p.hq).loc) : "";
  std::string zone =
      p.front ? "in a " + own + " controlled Area along the frontline" : "in any " + own + " controlled Area";
  switch (p.rule) {
    case SetupRule::kAdjacentOneEach:
      return "one each in the " + own + " Areas adjacent to " + hq;
    case SetupRule::kAdjacent:
      return "in a " + own + " Area adjacent to " + hq;
    case SetupRule::kHqOrAdjacent:
      return "in " + hq + " or a " + own + " Area adjacent to it";
    case SetupRule::kZone:
      return zone;
    case SetupRule::kDl:
      return zone + (p.exclude.empty() ? "" : " (not the contested Areas)") + ", one per Area";
  }
  return "";
}

int Moscow41State::setup_left(int side) const {
  int n = 0;
  for (const auto& p : setup_) n += p.side == side;
  return n;
}

int Moscow41State::setup_piece_for(const steppe::Action& a) const {
  for (size_t i = 0; i < setup_.size(); ++i) {
    const SetupPiece& p = setup_[i];
    if (p.side != active_) continue;
    if (a.verb == kVSetup && a.nargs >= 1 && p.block == a.args[0]) return static_cast<int>(i);
    if (a.verb == kVSetupDl && a.nargs == 1 && p.block < 0) {
      const auto sites = setup_sites(p);
      if (std::binary_search(sites.begin(), sites.end(), a.args[0])) return static_cast<int>(i);
    }
  }
  return -1;
}

Status Moscow41State::check_setup(const steppe::Action& a) const {
  // Scenario Setup: the side to move places its own waiting pieces, each where its step
  // allows ("without overstacking", "Maximum one Defensive Line ... in each controlled Area").
  const std::string who = side_name(active_);
  if (a.verb == kVSetupAuto) return Status::ok();
  const int node = a.nargs >= 1 ? a.args[a.nargs - 1] : -1;
  if (a.verb == kVSetup && (a.nargs != 2 || a.args[0] < 0 || a.args[0] >= static_cast<int>(blocks_.size())))
    return rule_error("", "malformed setup (setup BLOCK AREA)");
  if (a.verb == kVSetupDl && a.nargs != 1) return rule_error("", "malformed setup (setup dl AREA)");
  if (node < 0 || node >= node_count()) return rule_error("", "malformed setup: unknown area");
  const std::string at = g_.map().id(node);
  // Why `node` is refused for a piece of `p`'s rule, most basic reason first.
  auto reason = [&](const SetupPiece& p) -> Status {
    const std::string what = p.block < 0 ? "a Defensive Line" : def(p.block).id;
    const std::string goes = "; it goes " + setup_rule_text(p);
    if (!is_area(node))
      return rule_error("Scenario Setup", what + " cannot be set up in the box " + at + goes);
    if (area(node).control != active_ || ad(node).terrain == kStaging)
      return rule_error("Scenario Setup",
                        what + " cannot be set up in " + at + ": not a " + who + " controlled Area" + goes);
    if (p.block < 0 && area(node).dl != kNoSide)
      return rule_error("Scenario Setup",
                        "Area " + at + " already holds a Defensive Line (at most one per Area)");
    // The step's own constraint first, then stacking (2.7), then "one each".
    bool in_rule = false;
    std::string why = "not allowed by its step";
    if (p.rule == SetupRule::kDl || p.rule == SetupRule::kZone) {
      const auto zone = setup_zone(active_, p.front, p.exclude);
      in_rule = std::find(zone.begin(), zone.end(), node) != zone.end();
      if (std::find(p.exclude.begin(), p.exclude.end(), node) != p.exclude.end())
        why = "a contested Area";
      else if (p.front)
        why = "not along the frontline";
    } else {
      const auto adj = hq_neighbours(active_, p.hq);
      const bool home = node == block(p.hq).loc;
      in_rule = std::find(adj.begin(), adj.end(), node) != adj.end() ||
                (home && p.rule == SetupRule::kHqOrAdjacent);
      why = home ? "not an adjacent Area (one block is already with the HQ)"
                 : "not adjacent to " + def(p.hq).id + " (or holding another HQ, or contested)";
    }
    if (in_rule && p.block >= 0 && !stack_ok(active_, node, 1))
      return rule_error("Scenario Setup, 2.7",
                        def(p.block).id + " cannot be set up in " + at +
                            ": overstacked (2.7: 4 blocks in a Green Area, 2 in Yellow or Victory)");
    if (in_rule && p.rule == SetupRule::kAdjacentOneEach)
      why = "another block of the group is already there (one each, while other adjacent Areas are free)";
    else if (in_rule)
      why = "not allowed now";
    return rule_error("Scenario Setup", what + " cannot be set up in " + at + ": " + why + goes);
  };
  if (a.verb == kVSetupDl) {
    const SetupPiece* first = nullptr;
    for (const SetupPiece& p : setup_)
      if (p.side == active_ && p.block < 0) first = first != nullptr ? first : &p;
    if (first == nullptr)
      return rule_error("Scenario Setup", "the " + who + " has no Defensive Line left to set up");
    if (setup_piece_for(a) >= 0) return Status::ok();
    return reason(*first);
  }
  const int b = a.args[0];
  if (def(b).side != active_)
    return rule_error("Scenario Setup", def(b).id + " is not yours: the " + who +
                                            " is setting up (the Soviets set up first, then the Germans)");
  const int i = setup_piece_for(a);
  if (i < 0) return rule_error("Scenario Setup", def(b).id + " is not waiting to be set up");
  const SetupPiece& p = setup_[static_cast<size_t>(i)];
  const auto sites = setup_sites(p);
  if (std::binary_search(sites.begin(), sites.end(), node)) return Status::ok();
  return reason(p);
}

void Moscow41State::place_setup_piece(size_t i, int node) {
  const SetupPiece p = setup_[i];
  setup_.erase(setup_.begin() + static_cast<long>(i));
  const std::string who = side_name(p.side);
  if (p.block < 0) {
    as(node).dl = p.side;
    log("setup", who + " Defensive Line is set up in " + g_.map().id(node), "Scenario Setup");
    return;
  }
  bs(p.block).loc = node;
  bs(p.block).level = p.level;
  bs(p.block).face_up = p.face_up;
  bs(p.block).revealed = p.face_up;
  const std::string text = def(p.block).id + " is set up in " + g_.map().id(node) + " at strength " +
                           std::to_string(strength(p.block));
  if (p.face_up)
    log("setup", text + ", face up", "Scenario Setup");
  else
    log_hidden(p.side, "setup", text, who + " sets up a block in " + g_.map().id(node), "Scenario Setup");
}

void Moscow41State::setup_auto(int side) {
  // The seeded automatic procedure: each piece in the scenario's order, at random among
  // the areas its rule allows now.
  for (size_t i = 0; i < setup_.size();) {
    if (setup_[i].side != side) {
      ++i;
      continue;
    }
    const auto sites = setup_sites(setup_[i]);
    if (sites.empty()) {
      ++i;  // settle_setup() drops it
      continue;
    }
    place_setup_piece(i, sites[static_cast<size_t>(dice_.below(static_cast<int>(sites.size())))]);
  }
}

void Moscow41State::settle_setup() {
  if (Status s = settle_setup_status(); !s.is_ok())
    log("setup", "the German set-up failed: " + s.error().to_string(), "Scenario Setup");
}

Status Moscow41State::settle_setup_status() {
  while (phase_ == Phase::kSetup) {
    // A piece with nowhere to go is not set up (a block counts as lost, a DL is not placed).
    for (size_t i = setup_.size(); i-- > 0;) {
      const SetupPiece& p = setup_[i];
      if (p.side != active_ || !setup_sites(p).empty()) continue;
      const std::string who = side_name(p.side);
      if (p.block >= 0) {
        bs(p.block).loc = kLocUnplaced;
        log_hidden(p.side, "setup", def(p.block).id + " has no legal Area and is not set up",
                   who + " block has no legal Area and is not set up", "Scenario Setup");
      } else {
        log("setup", who + " Defensive Line has no legal Area and is not set up", "Scenario Setup");
      }
      setup_.erase(setup_.begin() + static_cast<long>(i));
    }
    if (setup_left(active_) > 0) return Status::ok();
    if (active_ == kSoviet) {
      // The Soviets have set up: the Germans draw and place (the player without the
      // Initiative sets up first). The draws are random, so no undo goes back past them.
      active_ = kGerman;
      if (Status s = setup_side(kGerman); !s.is_ok()) {
        finish_setup();
        return s;
      }
      if (setup_left(kGerman) > 0)
        log("setup", "the Soviets have set up; the Germans set up", "Scenario Setup", true);
      continue;
    }
    finish_setup();
  }
  return Status::ok();
}

void Moscow41State::finish_setup() {
  setup_.clear();
  for (auto& s : blocks_)
    if (s.loc == kLocUnplaced || s.loc == kLocSetup) s.loc = kLocSurrendered;  // nothing may be left over
  for (size_t b = 0; b < blocks_.size(); ++b)
    if (blocks_[b].loc == kLocSurrendered && g_.blocks()[b].side == kGerman) blocks_[b].loc = kLocDestroyed;
  const Scenario* sc = g_.scenario(scenario_);
  if (sc != nullptr && sc->doc.value("start_phase", "impulses") == "logistics") {
    phase_ = Phase::kLogistics;
    logistics_done_ = 0;
    active_ = 1 - initiative_;
  } else {
    phase_ = Phase::kImpulse;
    active_ = initiative_;
  }
}

}  // namespace moscow41
