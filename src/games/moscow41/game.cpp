// Moscow '41 scenario set-up (Scenario Setup, Campaign Game) and Game::new_state.
//
// Placements the text fixes are made as written. Placements left to a player ("in any
// adjacent Area", "along the frontline", "at the German player choice") and random draws
// are made by a seeded, deterministic procedure (docs/rulings.md, "Moscow '41").
#include <algorithm>

#include "games/moscow41/state.h"

namespace moscow41 {

using steppe::Error;
using steppe::Result;
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
  victory_kind_ = d.value("victory", "campaign");
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
  auto zone = [&](int side, const std::string& z, const Json& exclude) {
    std::vector<int> v;
    for (int n = 0; n < g_.map().area_count(); ++n) {
      if (area(n).control != side || ad(n).terrain == kStaging) continue;
      if (json_match(exclude, g_.map().id(n))) continue;
      if (z == "front") {
        bool front = false;
        for (int y : g_.adjacency()[static_cast<size_t>(n)])
          front = front || (area(y).control != side && ad(y).terrain != kStaging);
        if (!front) continue;
      }
      v.push_back(n);
    }
    return v;
  };
  auto random_area = [&](const std::vector<int>& cands, int side) -> int {
    std::vector<int> ok;
    for (int n : cands)
      if (stack_ok(side, n, 1)) ok.push_back(n);
    if (ok.empty()) return -1;
    return ok[static_cast<size_t>(dice_.below(static_cast<int>(ok.size())))];
  };
  auto hq_of_colour = [&](int side, const std::string& colour) {
    for (int b = 0; b < static_cast<int>(blocks_.size()); ++b)
      if (def(b).side == side && def(b).kind == Kind::kHq && def(b).colour == colour && is_area(block(b).loc))
        return b;
    return -1;
  };

  for (const std::string side_key : {"soviet", "german"}) {
    const int side = side_key == "german" ? kGerman : kSoviet;
    for (const Json& step : d["setup"][side_key]) {
      const std::string where = "scenario " + scenario + " set-up " + side_key + ": " + step.dump();
      const Json& f = step.contains("filter") ? step["filter"] : Json::object();
      const Json spec = step.contains("strength") ? step["strength"] : Json("full");
      const bool face_up = step.value("face_up", false);
      if (step.contains("dl")) {
        for (const auto& id : step["dl"]) as(g_.node(id.get<std::string>())).dl = side;
        continue;
      }
      if (step.contains("dl_count")) {
        auto cands =
            zone(side, step.value("zone", "any"), step.contains("exclude") ? step["exclude"] : Json());
        cands.erase(std::remove_if(cands.begin(), cands.end(), [&](int n) { return area(n).dl != kNoSide; }),
                    cands.end());
        for (int k = 0; k < step["dl_count"].get<int>() && !cands.empty(); ++k) {
          const size_t i = static_cast<size_t>(dice_.below(static_cast<int>(cands.size())));
          as(cands[i]).dl = side;
          cands.erase(cands.begin() + static_cast<long>(i));
        }
        continue;
      }
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
        // One block with its HQ, the others one each in adjacent friendly areas; or (with
        // with_hq_or_adjacent) each in the HQ's area or any adjacent one, within stacking.
        std::vector<std::pair<int, std::vector<int>>> groups;  // hq -> blocks
        for (int b : chosen) {
          const int hq = step.contains("near") ? g_.block_index(step["near"].get<std::string>())
                                               : hq_of_colour(side, def(b).colour);
          if (hq < 0 || !is_area(block(hq).loc)) return Error{"no HQ on the map for " + def(b).id, "", where};
          auto it =
              std::find_if(groups.begin(), groups.end(), [&](const auto& gr) { return gr.first == hq; });
          if (it == groups.end())
            groups.push_back({hq, {b}});
          else
            it->second.push_back(b);
        }
        for (auto& [hq, members] : groups) {
          const int home = block(hq).loc;
          std::vector<int> adj;
          for (int y : g_.adjacency()[static_cast<size_t>(home)])
            if (area(y).control == side && ad(y).terrain != kStaging && !contested(y)) {
              bool hq_there = false;  // leave room for the other HQs' own blocks
              for (int o : pieces(side, y)) hq_there = hq_there || def(o).kind == Kind::kHq;
              if (!hq_there) adj.push_back(y);
            }
          for (size_t i = 0; i < members.size(); ++i) {
            const int b = members[i];
            int lvl = level_for(b, spec);
            if (step.contains("strength_by_block") && step["strength_by_block"].contains(def(b).id))
              lvl = level_for(b, step["strength_by_block"][def(b).id]);
            int at = -1;
            if (step.value("with_hq_or_adjacent", false)) {
              std::vector<int> c = adj;
              c.push_back(home);
              at = random_area(c, side);
            } else if (i == 0) {
              at = home;
              if (step.contains("strength_with_hq")) lvl = level_for(b, step["strength_with_hq"]);
            } else {
              // One each in adjacent areas: unused ones first, then any adjacent area with
              // room, then any friendly area two steps away.
              std::vector<int> free, any;
              for (int y : adj) {
                bool used = false;
                for (size_t k = 0; k < i; ++k) used = used || block(members[k]).loc == y;
                (used ? any : free).push_back(y);
              }
              at = random_area(free, side);
              if (at < 0) at = random_area(any, side);
              if (at < 0) {
                std::vector<int> ring;
                for (int y : adj)
                  for (int z : g_.adjacency()[static_cast<size_t>(y)])
                    if (area(z).control == side && ad(z).terrain != kStaging && !contested(z))
                      ring.push_back(z);
                at = random_area(ring, side);
              }
            }
            if (at < 0) return Error{"no room to set up " + def(b).id + " near its HQ", "2.7", where};
            put(b, at, lvl, face_up);
          }
        }
        continue;
      }
      if (step.contains("zone")) {
        auto cands = zone(side, step["zone"].get<std::string>(), Json());
        for (int b : chosen) {
          const int at = random_area(cands, side);
          if (at < 0) return Error{"no room to set up " + def(b).id, "2.7", where};
          put(b, at, level_for(b, spec), face_up);
        }
        continue;
      }
      return Error{"set-up step not understood", "", where};
    }
  }
  for (auto& s : blocks_)
    if (s.loc == kLocUnplaced) s.loc = kLocSurrendered;  // nothing may be left over
  for (size_t b = 0; b < blocks_.size(); ++b)
    if (blocks_[b].loc == kLocSurrendered && g_.blocks()[b].side == kGerman) blocks_[b].loc = kLocDestroyed;

  if (d.value("start_phase", "impulses") == "logistics") {
    phase_ = Phase::kLogistics;
    logistics_done_ = 0;
    active_ = 1 - initiative_;
  } else {
    phase_ = Phase::kImpulse;
    active_ = initiative_;
  }
  return Status::ok();
}

}  // namespace moscow41
