// Barbarossa Deluxe rules: scenario rules: 2nd SS Panzer Corps (4.10), Caucasus expedition (4.11-4.13),
// Manstein's Gambit (4.16, 4.17). Section numbers are the rulebook's (seeds/000); where the text is silent or
// ambiguous the choice is written in docs/rulings.md (BD-n).
#include "games/bd/bd_internal.h"

namespace bd {

// ----------------------------------------------------------------- 4.10 / 8.17 2nd SS Panzer Corps

int BdState::ss_unit() const {
  const std::string& l = data_->victory.ss_unit;
  if (l.empty()) return -1;
  const int u = data_->find_unit(l);
  return u >= 0 && u < num_units() ? u : -1;
}

// The withdrawals belong to the VP schedule's scenarios (ruling BD-V1): the short 1943
// scenarios that include GT19 start on it or replace the schedule (14.x, 4.17).
bool BdState::ss_schedule() const { return vp_schedule() && ss_unit() >= 0 && !mg_; }  // 8.17 MG note

// 8.17: picked up if in regular overland supply, or taken from the dead pile.
bool BdState::ss_can_withdraw() const {
  const int u = ss_unit();
  if (u < 0) return false;
  const UnitSt& s = unit(u);
  return s.where == kDead || (s.where == kOnMap && unit_supply(u) == kSupOverland);
}

void BdState::ss_withdraw(const char* how) {
  const int u = ss_unit();
  const VictoryRules& vr = data_->victory;
  const size_t i = static_cast<size_t>(std::max<int>(0, ss_cycle_));
  UnitSt& s = units_[static_cast<size_t>(u)];
  s.where = kTrrt;
  s.turn = static_cast<int8_t>(i < vr.ss_returns.size() ? vr.ss_returns[i] : 33);
  s.hex = -1;
  s.mp = -1;
  s.flags = 0;
  ss_done_ = static_cast<uint8_t>(ss_done_ | (1u << i));
  ss_due_ = 0;
  mark_dirty();
  log("withdraw", label(u) + " " + how + ": back on GT" + std::to_string(s.turn), "8.17");
}

// Start of a game turn: a withdrawal falls due on GT19 / GT25; a delayed one lapses when
// the corps is due back anyway (ruling BD-V6).
void BdState::ss_turn_start() {
  if (!ss_schedule()) return;
  const VictoryRules& vr = data_->victory;
  for (size_t i = 0; i < vr.ss_returns.size(); ++i)
    if (turn_ == vr.ss_returns[i] && ss_due_ != 0 && ss_cycle_ == static_cast<int>(i)) {
      ss_due_ = 0;
      log("withdraw", label(ss_unit()) + ": the delayed withdrawal lapses, the corps is due back now",
          "8.17");
    }
  // A corps out of play (a forfeited reinforcement, 8.1) or permanently eliminated has
  // nothing to withdraw (ruling BD-V6).
  const int where = unit(ss_unit()).where;
  if (where == kOutOfPlay || where == kDeadPerm) return;
  for (size_t i = 0; i < vr.ss_turns.size() && i < 8; ++i) {
    if (turn_ != vr.ss_turns[i] || ((ss_done_ | ss_failed_) >> i) & 1u) continue;
    ss_due_ = 1;
    ss_cycle_ = static_cast<int8_t>(i);
    log("withdraw",
        label(ss_unit()) + " is called on to be withdrawn (withdraw " + label(ss_unit()) +
            " | decline-withdrawal)",
        "8.17");
  }
}

// 8.17: "delayed until such time as it is either in the dead pile or back in regular
// overland supply", looked at from the start of every phase (ruling BD-V6).
void BdState::ss_delayed_check() {
  if (ss_due_ == 2 && phase_ != kGameOver && ss_can_withdraw()) ss_withdraw("withdrawn (delayed withdrawal)");
}

// 4.10: a withdrawal not made during its own game turn costs its VP, once.
void BdState::ss_turn_end() {
  if (!ss_schedule() || ss_due_ == 0 || ss_cycle_ < 0) return;
  ss_delayed_check();
  const VictoryRules& vr = data_->victory;
  const size_t i = static_cast<size_t>(ss_cycle_);
  if (ss_due_ == 0 || i >= vr.ss_turns.size() || turn_ != vr.ss_turns[i] || ((ss_failed_ >> i) & 1u)) return;
  ss_due_ = 2;
  ss_failed_ = static_cast<uint8_t>(ss_failed_ | (1u << i));
  vp_ += vr.ss_vp;
  vp_events_ += vr.ss_vp;
  log("vp",
      label(ss_unit()) + " could not be withdrawn on GT" + std::to_string(turn_) + ": German VP " +
          std::to_string(vr.ss_vp) + ", now " + std::to_string(vp_),
      "4.10");
}

// ----------------------------------------------------------------- 12.7 Fortress Stalingrad

// 12.7: "At the very start of Game Turn 14 ... if his units in that city don't have regular
// overland supply, they may not move or attack in any way that game turn ... Determine the
// status afresh at the start of every game turn after Game Turn 14. The first time (if ever)
// the force in the city begins a game turn with regular overland supply, Hitler's stand fast
// order is thereby ended."
void BdState::stalingrad_turn_start() {
  for (auto& s : units_) s.flags = static_cast<uint16_t>(s.flags & ~kFlagStandFast);
  const int from = sparam("stalingrad_stand_fast_turn");
  const int h = data_->places.stalingrad;
  if (from <= 0 || turn_ < from || stand_fast_ended_ || h < 0) return;
  std::vector<int> force;
  bool supplied = false;
  for (int u = 0; u < num_units(); ++u)
    if (def(u).side == kGerman && unit(u).where == kOnMap && unit(u).hex == h) {
      force.push_back(u);
      supplied = supplied || unit_supply(u) == kSupOverland;
    }
  if (force.empty()) return;  // no force in the city: nothing to hold, nothing ended
  if (supplied) {
    stand_fast_ended_ = true;
    log("order",
        "the force in Stalingrad begins the turn in regular overland supply: Hitler's stand-fast order ends",
        "12.7");
    return;
  }
  for (int u : force) units_[static_cast<size_t>(u)].flags |= kFlagStandFast;
  mark_dirty();
  log("order",
      "the German units in Stalingrad lack regular overland supply: they may not move or attack this turn",
      "12.7");
}

// 12.7: "At the end of Game Turn 15 ... If, at that time, the German player still has control
// of that city, he's awarded two VP. Make similar checks at the end of each following game turn."
void BdState::stalingrad_turn_end() {
  const int from = sparam("stalingrad_vp_turn");
  const int h = data_->places.stalingrad;
  if (from <= 0 || turn_ < from || h < 0 || hex_.control[static_cast<size_t>(h)] != kGerman) return;
  const int vp = sparam("stalingrad_vp");
  vp_ += vp;
  vp_events_ += vp;
  log("vp",
      "Fortress Stalingrad Victory Point Check: Stalingrad is German: German VP +" + std::to_string(vp) +
          ", now " + std::to_string(vp_),
      "12.7");
}

// ----------------------------------------------------------------- 4.11-4.13 Caucasus expedition

// The Grand Campaign and the scenarios that continue or contain it (4.11; 13.4 names the
// expedition in Operations Blue & Kremlin; the Road Back starts with one under way, 12.9).
bool BdState::caucasus_scenario() const { return sparam("caucasus_expedition") > 0; }

bool BdState::caucasus_exit(int hex) const {
  const auto& ex = data_->victory.caucasus_exits;
  return std::find(ex.begin(), ex.end(), hex) != ex.end();
}

// 4.11: Maikop, Dnepropetrovsk and Rostov German-controlled, in overland supply, with no
// Soviet unit in any hex adjacent to them.
bool BdState::caucasus_launch_condition() const {
  const auto& hexes = data_->victory.caucasus_launch_hexes;
  if (hexes.empty()) return false;
  for (int h : hexes) {
    if (h < 0 || hex_.control[static_cast<size_t>(h)] != kGerman || !overland(h, kGerman)) return false;
    for (int d = 0; d < 6; ++d) {
      const int n = neighbour(h, d);
      if (n >= 0 && occupant_side(n) == kSoviet) return false;
    }
  }
  return true;
}

bool BdState::german_in_caucasus() const {
  for (int u = 0; u < num_units(); ++u)
    if (unit(u).where == kCaucasus && def(u).side == kGerman) return true;
  return false;
}

// 4.12: a rifle army (ordinary, shock or guards: ruling BD-V7) from the RVGK, or from the
// map in overland supply.
bool BdState::caucasus_responder(int u) const {
  const UnitDef& d = def(u);
  const auto& types = data_->victory.caucasus_response_types;
  if (d.side != kSoviet || std::find(types.begin(), types.end(), d.type) == types.end()) return false;
  const UnitSt& s = unit(u);
  return s.where == kRvgk || (s.where == kOnMap && unit_supply(u) == kSupOverland);
}

int BdState::caucasus_responders() const {
  int n = 0;
  for (int u = 0; u < num_units(); ++u) n += caucasus_responder(u) ? 1 : 0;
  return n;
}

// 4.13: the instant the Soviet controls Rostov or Dnepropetrovsk, or occupies all five exit
// hexes at once, the German units in the box go to the dead pile.
void BdState::caucasus_defeat_check() {
  if ((cauc_ != kCaucInBox && cauc_ != kCaucBrokeThrough) || phase_ == kGameOver) return;
  const Places& pl = data_->places;
  std::string why;
  for (int h : {pl.rostov, pl.dnepropetrovsk})
    if (h >= 0 && hex_.control[static_cast<size_t>(h)] == kSoviet) why = "the Soviet controls " + hex_id(h);
  if (why.empty()) {
    const auto& ex = data_->victory.caucasus_exits;
    bool all = !ex.empty();
    for (int h : ex) all = all && h >= 0 && occupant_side(h) == kSoviet;
    if (all) why = "Soviet units occupy all five exit hexes";
  }
  if (why.empty()) return;
  cauc_ = kCaucDefeated;
  log("victory", "the Caucasus expedition is defeated: " + why, "4.13");
  for (int u = 0; u < num_units(); ++u)
    if (unit(u).where == kCaucasus && def(u).side == kGerman) eliminate(u, "4.13");
}

// 4.13: in each Victory Check Phase from the departure's turn, the breakthrough roll (+1 with
// Stalingrad German in overland supply); after it, d6 VP and then +1 VP each later phase.
void BdState::caucasus_victory_phase() {
  if ((cauc_ != kCaucInBox && cauc_ != kCaucBrokeThrough) || cauc_rolled_ >= turn_) return;
  const VictoryRules& vr = data_->victory;
  const bool broke_before = cauc_ == kCaucBrokeThrough;
  cauc_rolled_ = static_cast<int8_t>(turn_);
  int award = 0;
  if (broke_before) {
    award = vr.caucasus_per_turn_vp;
    log("vp", "the Caucasus expedition holds the oil region", "4.13");
  } else {
    const int st = vr.caucasus_stalingrad;
    const int mod = st >= 0 && hex_.control[static_cast<size_t>(st)] == kGerman && overland(st, kGerman)
                        ? vr.caucasus_stalingrad_mod
                        : 0;
    const int die = roll(6, "Caucasus breakthrough roll", "4.13");
    const bool through = die + mod >= vr.caucasus_breakthrough_at;
    log("victory",
        "Caucasus breakthrough roll " + std::to_string(die) + (mod != 0 ? " + " + std::to_string(mod) : "") +
            (through ? ": the expedition breaks through to the Trans-Caucasus oil" : ": nothing happens"),
        "4.13");
    if (!through) return;
    cauc_ = kCaucBrokeThrough;
    award = roll_vp(vr.caucasus_award, "Caucasus oil VP roll", "4.13");
  }
  if (!vp_schedule() || award == 0) return;  // ruling BD-V1: VP only where the chart decides
  vp_ += award;
  vp_events_ += award;
  log("vp", "Caucasus oil: German VP +" + std::to_string(award) + ", now " + std::to_string(vp_), "4.13");
}

Status BdState::check_caucasus(const Action& a) const {
  const VictoryRules& vr = data_->victory;
  auto unit_ok = [&](int i) { return i < a.nargs && a.args[i] >= 0 && a.args[i] < num_units(); };
  const bool german_move = phase_side() == kGerman && is_move_phase() && pending_ == kPendNone;
  switch (a.verb) {
    case kCaucasusLaunch: {
      if (!caucasus_scenario()) return rerr("4.11", "no Caucasus expedition in this scenario");
      if (cauc_ != kCaucNone) return rerr("4.13", "only one Caucasus expedition per game");
      if (!german_move) return rerr("4.11", "an expedition leaves the map in a German movement phase");
      if (!cauc_open_)
        return rerr("4.11",
                    "at the start of this game turn the German did not control Maikop, Dnepropetrovsk and "
                    "Rostov in overland supply with no Soviet unit adjacent");
      if (a.nargs != vr.caucasus_infantry + vr.caucasus_panzer)
        return rerr("4.11", "the expedition is " + std::to_string(vr.caucasus_infantry) +
                                " infantry or mountain corps and " + std::to_string(vr.caucasus_panzer) +
                                " panzer corps, all at once");
      int inf = 0, pz = 0;
      for (int i = 0; i < a.nargs; ++i) {
        if (!unit_ok(i)) return rerr("4.11", "unknown unit");
        for (int j = 0; j < i; ++j)
          if (a.args[j] == a.args[i]) return rerr("4.11", "a unit is listed twice");
        const int u = a.args[i];
        const UnitDef& d = def(u);
        if (d.side != kGerman || d.nation != "german")
          return rerr("4.11", d.label + " is not a German (non-satellite) unit");
        if (unit(u).where != kOnMap || !caucasus_exit(unit(u).hex))
          return rerr("4.11", d.label + " is not in one of the exit hexes 3200-3204");
        const auto& it = vr.caucasus_infantry_types;
        const auto& pt = vr.caucasus_panzer_types;
        if (std::find(it.begin(), it.end(), d.type) != it.end())
          ++inf;
        else if (std::find(pt.begin(), pt.end(), d.type) != pt.end())
          ++pz;
        else
          return rerr("4.11", d.label + " is neither an infantry/mountain corps nor a panzer corps");
      }
      if (inf != vr.caucasus_infantry || pz != vr.caucasus_panzer)
        return rerr("4.11", "the expedition is " + std::to_string(vr.caucasus_infantry) +
                                " infantry or mountain corps and " + std::to_string(vr.caucasus_panzer) +
                                " panzer corps");
      return Status::ok();
    }
    case kCaucasusSend:
    case kCaucasusRefuse:
      return rerr("4.12", "no Caucasus expedition is waiting for the Soviet response");
    case kCaucasusRecall: {
      if (cauc_ == kCaucBrokeThrough)
        return rerr("4.13", "after its breakthrough the expedition garrisons the oil region for good");
      if (cauc_ != kCaucInBox) return rerr("4.13", "no expedition in the Caucasus box");
      if (!german_move) return rerr("4.13", "an expedition is recalled in a German movement phase");
      if (turn_ <= cauc_turn_)
        return rerr("4.13", "an expedition is recalled only in a later movement phase than its departure");
      if (a.nargs % 2 != 0 || a.nargs == 0) return rerr("4.13", "caucasus-recall <unit> <hex>...");
      std::vector<int> in_box;
      for (int u = 0; u < num_units(); ++u)
        if (unit(u).where == kCaucasus && def(u).side == kGerman) in_box.push_back(u);
      if (static_cast<size_t>(a.nargs / 2) != in_box.size())
        return rerr("4.13", "the whole expedition comes out at once (all in, all out)");
      std::vector<int> listed;
      for (int i = 0; i < a.nargs; i += 2) {
        if (!unit_ok(i)) return rerr("4.13", "unknown unit");
        const int u = a.args[i], h = a.args[i + 1];
        if (unit(u).where != kCaucasus || def(u).side != kGerman)
          return rerr("4.13", def(u).label + " is not in the expedition");
        if (std::find(listed.begin(), listed.end(), u) != listed.end())
          return rerr("4.13", def(u).label + " is listed twice");
        listed.push_back(u);
        if (!caucasus_exit(h))
          return rerr("4.13", "the expedition re-enters through the exit hexes 3200-3204");
        if (enemy_in(h, kGerman)) return rerr("4.13", hex_id(h) + " is occupied by Soviet units");
      }
      for (int i = 1; i < a.nargs; i += 2) {
        std::vector<int> add;
        for (int j = 0; j < a.nargs; j += 2)
          if (a.args[j + 1] == a.args[i]) add.push_back(a.args[j]);
        if (auto st = stacking_ok(a.args[i], kGerman, add); !st) return st;
      }
      return Status::ok();
    }
    case kCaucasusLeave: {
      if (!unit_ok(0) || a.nargs != 2) return rerr("4.13", "caucasus-leave <unit> <hex>");
      const int u = a.args[0], h = a.args[1];
      if (unit(u).where != kCaucasus || def(u).side != kSoviet)
        return rerr("4.13", def(u).label + " is not a Soviet unit in the Caucasus box");
      if (german_in_caucasus())
        return rerr("4.13", "the Soviet units stay while the expedition is in the box");
      if (!(phase_side() == kSoviet && is_move_phase() && pending_ == kPendNone))
        return rerr("4.13", "units leave the Caucasus box in a Soviet movement phase");
      if (!caucasus_exit(h))
        return rerr("4.13", "units leave the Caucasus box through the exit hexes 3200-3204");
      if (enemy_in(h, kSoviet)) return rerr("4.13", hex_id(h) + " is occupied by German units");
      std::vector<int> add{u};
      return stacking_ok(h, kSoviet, add);
    }
    default:
      return rerr("", "not a Caucasus action");
  }
}

// ----------------------------------------------------------------- 4.16 / 4.17 Manstein's Gambit

// 4.17: the three "MG" counters arrive on the first turn of the offensive; 2nd SS and 3rd
// SS Panzer Corps are pulled ahead from their later TRRT boxes (the 8.17 schedule is
// overturned); German replacements are 2/2 for its turns.
void BdState::mg_start() {
  const VictoryRules& vr = data_->victory;
  for (const auto& l : vr.mg_units) {
    const int u = data_->find_unit(l);
    if (u < 0 || u >= num_units()) continue;
    UnitSt& s = units_[static_cast<size_t>(u)];
    if (s.where != kOutOfPlay && s.where != kTrrt) continue;
    s.where = kTrrt;
    s.turn = static_cast<int8_t>(turn_);
    log("reinforcement", l + " arrives for Manstein's Gambit", "4.17", 1u << kGerman);  // 11.7 the TRRT
  }
  for (const auto& [l, box] : vr.mg_early) {
    const int u = data_->find_unit(l);
    if (u < 0 || u >= num_units()) continue;
    UnitSt& s = units_[static_cast<size_t>(u)];
    if (s.where != kTrrt || s.turn != box) continue;
    s.turn = static_cast<int8_t>(turn_);
    log("reinforcement", l + " is pulled ahead from the GT" + std::to_string(box) + " box", "4.17",
        1u << kGerman);  // 11.7 the Soviet may not examine the German TRRT
  }
  if (ss_due_ != 0) {
    ss_due_ = 0;
    log("withdraw", label(ss_unit()) + ": Manstein's Gambit overturns its withdrawal", "8.17");
  }
  mg_replacements();
}

void BdState::mg_replacements() {
  const VictoryRules& vr = data_->victory;
  if (!mg_ || turn_ > vr.mg_end_turn) return;
  // Steps already taken this turn count against the new allowance.
  const int used_m = ti().repl[kGerman][kMech] - repl_left_mech_[kGerman];
  const int used_n = ti().repl[kGerman][kNonMech] - repl_left_non_[kGerman];
  repl_left_mech_[kGerman] = static_cast<int8_t>(std::max(0, vr.mg_repl_mech - std::max(0, used_m)));
  repl_left_non_[kGerman] = static_cast<int8_t>(std::max(0, vr.mg_repl_non - std::max(0, used_n)));
}

// 4.16: at the end of GT20 the German wins if he controls every VP hex that was his at the
// start of GT1 (3.6: the 14 VP of 4.2) and two of Leningrad, Moscow, Kiev, Stalingrad.
bool BdState::mg_victory_check() {
  const VictoryRules& vr = data_->victory;
  std::string lost;
  int start = 0;
  for (int h = 0; h < kNumHexes; ++h) {
    if (!hx(h).vp || !hx(h).on_map || start_control_3_6(hx(h)) != kGerman) continue;
    ++start;
    if (hex_.control[static_cast<size_t>(h)] != kGerman) lost += (lost.empty() ? "" : " ") + hex_id(h);
  }
  int big = 0;
  for (int h : vr.mg_cities)
    if (h >= 0 && hex_.control[static_cast<size_t>(h)] == kGerman) ++big;
  const std::string why = std::to_string(start) + " GT1 VP hexes" +
                          (lost.empty() ? " all held" : ", lost " + lost) + ", " + std::to_string(big) +
                          " of Leningrad, Moscow, Kiev, Stalingrad";
  if (lost.empty() && big >= vr.mg_cities_needed)
    end_game(kGerman, "Manstein's Gambit succeeds: " + why, "4.16");
  else
    end_game(kSoviet, "Manstein's Gambit fails: " + why, "4.16");
  return true;
}

void BdState::end_game(int winner, const std::string& why, const std::string& rule) {
  winner_ = winner;
  end_reason_ = why;
  phase_ = kGameOver;
  pending_ = kPendNone;
  battle_.active = 0;
  log("victory", std::string(side_name(winner)) + " wins: " + why, rule);
}

void BdState::place(int u, int hex, bool setting_up) {
  UnitSt& s = units_[static_cast<size_t>(u)];
  s.where = kOnMap;
  s.hex = static_cast<int16_t>(hex);
  s.order = next_order_++;
  s.flags = static_cast<uint16_t>(s.flags & ~kFlagRevealed);
  mark_dirty();
  carry_attached(u);
  if (hex_.control[static_cast<size_t>(hex)] == def(u).side) {
    if (def(u).side == kSoviet && !setting_up) caucasus_defeat_check();  // 4.13
    return;
  }
  if (setting_up) {
    // 3.6 a unit controls its own hex, but a set-up placement is the start position, not
    // a capture: the scenario states its opening VP (3.2, 12.3), so no VP and no 4.3/4.15.
    hex_.control[static_cast<size_t>(hex)] = def(u).side;
    log("control", std::string(side_name(def(u).side)) + " sets up in " + hex_id(hex) + " and controls it",
        "3.6", def(u).side == kSoviet ? (1u << kSoviet) : 0xFFFFFFFFu);  // as the set-up itself (11.7)
    return;
  }
  set_control(hex, def(u).side);
  if (def(u).side == kSoviet) caucasus_defeat_check();  // 4.13 all five exit hexes occupied
}

void BdState::move_to(int u, int hex) {
  UnitSt& s = units_[static_cast<size_t>(u)];
  s.hex = static_cast<int16_t>(hex);
  s.order = next_order_++;
  s.flags = static_cast<uint16_t>(s.flags & ~kFlagRevealed);
  mark_dirty();
  carry_attached(u);
  if (hex_.control[static_cast<size_t>(hex)] != def(u).side) set_control(hex, def(u).side);
  if (def(u).side == kSoviet) caucasus_defeat_check();  // 4.13 all five exit hexes occupied
}

}  // namespace bd
