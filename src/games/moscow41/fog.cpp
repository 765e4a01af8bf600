// Moscow '41: Fog of war (1.5): what each side sees of the hidden blocks, and determinization.
// Every rule cites its rulebook section (seeds/002).
#include <algorithm>

#include "games/moscow41/state.h"
#include "games/moscow41/state_names.h"

namespace moscow41 {

// ----------------------------------------------------------------------------------------
// Fog of war (1.5): observation and determinization
Json Moscow41State::observation(int side) const {
  Json o;
  o["game"] = "moscow41";
  o["viewer"] = side_name(side);
  o["turn"] = turn_;
  o["month"] = kMonths[turn_ - 1];
  o["phase"] = phase_name(phase_);
  if (loss_pending()) {
    // 10.14.1: both players see the battle's blocks (10.12.1) and how many hits wait.
    Json l{{"area", g_.map().id(battle_.node)},
           {"side", side_name(battle_.loss_side)},
           {"hits", battle_.loss_hits}};
    if (side == battle_.loss_side) {
      Json c = Json::array();
      for (int b : loss_choices()) c.push_back(def(b).id);
      l["choices"] = c;
    }
    o["loss"] = l;
  }
  if (aa_pending())  // 10.12.3: both see the AA hits; the German converts them
    o["aa"] = {{"area", g_.map().id(battle_.node)}, {"hits", battle_.aa_hits}};
  if (side == active_ && phase_ == Phase::kReplace)
    o["points"] = {
        {"regeneration", regen_left_}, {"replacement", repl_left_}, {"reinforcements", draws_left_}};
  o["active"] = side_name(active_);
  o["initiative"] = side_name(initiative_);
  o["weather"] = blizzard_ ? "blizzard" : kWeather[weather_];  // OR 14.5
  Json opts = Json::array();                                   // 14.0: the optional rules agreed
  for (int k = 0; k < kOptCount; ++k)
    if (options_[k]) opts.push_back(kOptions[k].name);
  o["options"] = opts;
  o["forecast"] = forecast_;
  o["vp"] = {{"german", victory_points(kGerman)}, {"soviet", victory_points(kSoviet)}};
  o["kiev_german"] = kiev_german_;
  o["shlisselburg_german"] = shl_german_;
  o["leningrad_german"] = len_german_;
  if (options_[kOptZhukovHoepner]) {  // OR 14.2: both announced when they happen
    o["leningrad_called_off"] = called_off_;
    o["zhukov_recalled"] = zhukov_recalled_;
  }
  o["surrendered_soviet"] = surrendered_soviet_;
  o["destroyed_german"] = destroyed_german_;
  if (side == kGerman || side == kSoviet) o["lv"] = logistics_value(side);
  Json areas = Json::object();
  for (int n = 0; n < node_count(); ++n) {
    const AreaState& a = area(n);
    Json j{{"control", side_name(a.control)}};
    if (a.dl != kNoSide) j["dl"] = side_name(a.dl);
    if (a.artillery >= 0) j["artillery"] = def(a.artillery).id;
    areas[g_.map().id(n)] = j;
  }
  o["areas"] = areas;
  Json own = Json::array(), seen = Json::array(), hidden = Json::object();
  Json elim = Json::array();
  int enemy_pool = 0, enemy_waiting = 0, enemy_drawn = 0, enemy_setup_blocks = 0;
  for (size_t i = 0; i < blocks_.size(); ++i) {
    const int b = static_cast<int>(i);
    const BlockDef& d = def(b);
    const BlockState& s = block(b);
    auto where = [&]() -> std::string {
      if (s.loc >= 0) return g_.map().id(s.loc);
      switch (s.loc) {
        case kLocPool:
          return "pool";
        case kLocOobN:
          return "oob-n";
        case kLocOobK:
          return "oob-k";
        case kLocDestroyed:
          return "destroyed";
        case kLocSurrendered:
          return "surrendered";
        case kLocDrawn:
          return "drawn";
        case kLocRemoved:
          return "removed";
        case kLocSetup:
          return "setup";
        default:
          return "unplaced";
      }
    };
    if (d.side == side) {
      own.push_back({{"id", d.id},
                     {"at", where()},
                     {"strength", strength(b)},
                     {"revealed", s.revealed},
                     {"isolated", s.isolated},
                     {"activated", s.activated},
                     {"acted", s.acted}});
      continue;
    }
    // The enemy: the OoB cards (destroyed, surrendered, letter boxes) are public.
    if (s.loc == kLocDestroyed || s.loc == kLocSurrendered || s.loc == kLocRemoved) {
      elim.push_back(d.id);  // OR 14.8: the withdrawal is public too
    } else if (s.loc == kLocPool) {
      ++enemy_pool;
    } else if (s.loc == kLocDrawn) {
      ++enemy_drawn;  // 5.0: drawn, not yet placed: how many, not which
    } else if (s.loc == kLocSetup) {
      ++enemy_setup_blocks;  // Scenario Setup: in the enemy's hand, how many, not which
    } else if (s.loc == kLocOobN || s.loc == kLocOobK) {
      ++enemy_waiting;
    } else if (s.loc >= 0) {
      if (s.revealed || s.face_up) {
        seen.push_back({{"id", d.id}, {"at", where()}, {"strength", strength(b)}});
      } else {
        Json& h = hidden[where()];
        if (h.is_null()) h = {{"blocks", 0}, {"isolated", 0}};
        h["blocks"] = h["blocks"].get<int>() + 1;
        if (s.isolated) h["isolated"] = h["isolated"].get<int>() + 1;
      }
    }
  }
  std::sort(elim.begin(), elim.end());
  o["own"] = own;
  o["enemy_revealed"] = seen;
  o["enemy_hidden"] = hidden;
  o["enemy_pool"] = enemy_pool;
  o["enemy_waiting"] = enemy_waiting;
  if (enemy_drawn > 0) o["enemy_drawn"] = enemy_drawn;
  if (phase_ == Phase::kSetup) {
    // Scenario Setup: the owner sees each waiting piece and where it may go; the enemy
    // only how many blocks and Defensive Lines are still in his hand.
    int enemy_setup_dls = 0;
    for (const SetupPiece& p : setup_) enemy_setup_dls += p.side == 1 - side && p.block < 0;
    if (side == kGerman || side == kSoviet)
      o["enemy_setup"] = {{"blocks", enemy_setup_blocks}, {"dls", enemy_setup_dls}};
    Json mine = Json::array();
    for (const SetupPiece& p : setup_) {
      if (p.side != side) continue;
      Json sites = Json::array();
      for (int n : setup_sites(p)) sites.push_back(g_.map().id(n));
      Json e{{"piece", p.block < 0 ? std::string("dl") : def(p.block).id}, {"rule", setup_rule_text(p)}};
      if (p.block >= 0) e["strength"] = def(p.block).levels[static_cast<size_t>(p.level)];
      e["areas"] = sites;
      mine.push_back(e);
    }
    if (!mine.empty()) o["setup"] = mine;
  }
  o["enemy_eliminated"] = elim;
  // 4.2.4, 7.1, 7.2: the enemy Leader never moves and its strength follows the public
  // Logistics choices (full after a Pause, one step less after an Activation).
  if (side == kGerman || side == kSoviet) {
    const int leader = g_.block_index(side == kGerman ? "Stalin" : "Hitler");
    if (leader >= 0 && block(leader).loc >= 0) o["enemy_leader_strength"] = strength(leader);
  }
  Json bombers = Json::array();
  for (int i = 0; i < g_.bomber_count(); ++i)
    bombers.push_back({{"fliegerkorps", g_.bomber_fk(i) == "2FK" ? 2 : 8},
                       {"stuka", g_.bomber_is_stuka(i)},
                       {"status", kBomberStatus[bomber_status_[static_cast<size_t>(i)]]}});
  o["bombers"] = bombers;
  return o;
}

void Moscow41State::resample_hidden(int viewer, uint64_t seed) {
  // 1.5 fog of war, for the AI's determinization (docs/rulings.md, "Moscow '41: what the
  // enemy knows"). Everything the viewer cannot see is drawn again from what it can see
  // (its observation), never copied from the true state:
  //  - public and kept: the viewer's own blocks; enemy blocks revealed or face up (with
  //    their strength); the enemy Leader (fixed in Rastenburg/Moscow by 4.2.4, strength
  //    from the public Logistics choices 7.1/7.2); eliminated blocks (OoB boxes, 10.14.3,
  //    9.3); blocks waiting for November or Kiev (letters N/K printed on the OoB, 5.1);
  //  - resampled: which enemy identity stands in each hidden slot (the per-area counts and
  //    isolated counts of the observation), which identities are in the pool (its count
  //    is public), and each hidden block's strength (any of its own steps).
  // The draw depends only on public data and `seed`: slots are listed in node order and
  // identities in roster order, so two true states with the same observation give the
  // same sample for the same seed (tested in tests/ai/installed_games_test_agents.cpp).
  dice_.reseed(seed);
  if (viewer != kGerman && viewer != kSoviet) return;
  const int enemy = 1 - viewer;
  auto on_road = [&](int node) {
    return std::find(g_.road().begin(), g_.road().end(), node) != g_.road().end();
  };
  std::vector<int> unknown;  // identities whose place and strength the viewer cannot see
  struct Slot {
    int loc;
    bool isolated;
  };
  std::vector<Slot> slots;  // hidden places on nodes, then pool places
  int pool_slots = 0;
  int drawn_slots = 0;  // drawn from the pool, not yet placed (5.0: the viewer sees a count)
  int setup_slots = 0;  // Scenario Setup: in the enemy's hand (the viewer sees a count)
  for (size_t i = 0; i < blocks_.size(); ++i) {
    const int b = static_cast<int>(i);
    const BlockDef& d = def(b);
    const BlockState& s = block(b);
    if (d.side != enemy || d.kind == Kind::kLeader) continue;
    if (s.loc == kLocDestroyed || s.loc == kLocSurrendered || s.loc == kLocOobN || s.loc == kLocOobK ||
        s.loc == kLocUnplaced || s.loc == kLocRemoved)
      continue;
    if (s.loc >= 0 && (s.revealed || s.face_up)) continue;
    unknown.push_back(b);
    if (s.loc >= 0)
      slots.push_back({s.loc, s.isolated});
    else if (s.loc == kLocDrawn)
      ++drawn_slots;
    else if (s.loc == kLocSetup)
      ++setup_slots;
    else
      ++pool_slots;  // kLocPool
  }
  if (unknown.empty()) return;
  // Canonical slot order: by node, isolated ones after the others (what the counts say).
  std::sort(slots.begin(), slots.end(), [](const Slot& x, const Slot& y) {
    return x.loc != y.loc ? x.loc < y.loc : x.isolated < y.isolated;
  });
  // The rules' limits on where an identity may stand (public, from the roster): while the
  // Road to Leningrad is in play only the "L" blocks are on it and never on the map
  // (5.0, 5.1, 10.9). Road slots are filled first: they are the most constrained.
  // OR 14.2: once Hitler calls off Leningrad (public: a block leaves the Road for the map),
  // "L" blocks may stand on the map.
  auto allowed = [&](int b, int loc) {
    const bool l_block = def(b).letter == 'L';
    if (on_road(loc)) return l_block;
    return !(road_in_play_ && l_block && !called_off_);
  };
  std::stable_partition(slots.begin(), slots.end(), [&](const Slot& x) { return on_road(x.loc); });
  std::vector<int> left = unknown;  // roster order
  // Hoepner's box on the Road is public (his advances are announced, 10.9): he is in it.
  const int hoepner = g_.block_index("HQ4Pg");
  const int hoepner_box = hoepner_road_ >= 0 ? g_.road()[static_cast<size_t>(hoepner_road_)] : -1;
  auto take = [&](int loc) {
    if (loc == hoepner_box) {
      auto it = std::find(left.begin(), left.end(), hoepner);
      if (it != left.end()) {
        left.erase(it);
        return hoepner;
      }
    }
    std::vector<size_t> ok;
    for (size_t k = 0; k < left.size(); ++k)
      if (loc == kLocPool || allowed(left[k], loc)) ok.push_back(k);
    // No identity fits only if the data broke the rule above; any identity is still an
    // honest guess (it is drawn from the public list, not copied).
    if (ok.empty())
      for (size_t k = 0; k < left.size(); ++k) ok.push_back(k);
    const size_t pick = ok[static_cast<size_t>(dice_.below(static_cast<int>(ok.size())))];
    const int b = left[pick];
    left.erase(left.begin() + static_cast<long>(pick));
    return b;
  };
  auto level_prior = [&](int b) {
    // Strength prior: full strength half the time (set-ups and reinforcements start full,
    // 2.7, 5.0), otherwise any of the block's steps (Remnants likewise, 4.2.3).
    const int steps = def(b).min_level() + 1;
    if (dice_.below(2) == 0) return 0;
    return dice_.below(steps);
  };
  for (const Slot& sl : slots) {
    const int b = take(sl.loc);
    BlockState& s = bs(b);
    s = BlockState{};
    s.loc = sl.loc;
    s.isolated = sl.isolated;
    s.level = level_prior(b);
  }
  // Drawn blocks came out of the pool, so any identity a pool slot could hold may be one.
  for (int k = 0; k < drawn_slots + pool_slots; ++k) {
    const int b = take(kLocPool);
    BlockState& s = bs(b);
    s = BlockState{};
    s.loc = k < drawn_slots ? kLocDrawn : kLocPool;
    s.level = def(b).remnant ? def(b).min_level() : 0;  // 5.0: placed full (Remnants at minimum)
  }
  // Scenario Setup: the enemy's waiting blocks are any identities, and which step each came
  // from is hidden too, so each waits with the plainest rule (any controlled Area) at full
  // strength. The Defensive Lines (their rule is the scenario's, public) and the Leaders
  // (named by the scenario, 4.2.4) are kept. Canonical order: blocks, then the rest.
  if (setup_slots > 0) {
    std::vector<SetupPiece> kept, mine;
    for (const SetupPiece& p : setup_) {
      if (p.side != enemy)
        mine.push_back(p);
      else if (p.block < 0 || def(p.block).kind == Kind::kLeader)
        kept.push_back(p);
    }
    setup_ = mine;
    for (int k = 0; k < setup_slots; ++k) {
      const int b = take(kLocPool);
      BlockState& s = bs(b);
      s = BlockState{};
      s.loc = kLocSetup;
      SetupPiece p;
      p.side = enemy;
      p.block = b;
      p.rule = SetupRule::kZone;
      p.level = def(b).remnant ? def(b).min_level() : 0;
      s.level = p.level;
      setup_.push_back(p);
    }
    setup_.insert(setup_.end(), kept.begin(), kept.end());
  }
}

}  // namespace moscow41
