// 4.0 sequence of play and 10.0 the action phase: the turn's weather and initiative from the
// turn record track (trt.json), reinforcements and withdrawals (7.1-7.3, 7.9), the initiative
// chit (10.2), the chit cup (a kernel DrawCup: every draw is seeded, logged and replayable),
// the rounds each chit makes (10.5), the Attrition Phase (13.8) and the End Phase (3.2).
// The Strategic Movement Phase (9.x) is strategic.cpp's; the held Stavka chit (10.5.9) and Stalin
// mandates (10.5.6.1, 10.5.6.2) are here. Not yet: the 7.5 corps rebuild.
#include <algorithm>

#include "games/dv/dv.h"

namespace dv {

namespace {

// A chit in the cup: its kind and its owner (the Logistics chit is neutral, DV-T4).
int cup_id(int kind, int side) { return kind * 2 + side; }
int cup_kind(int id) { return id / 2; }
int cup_side(int id) { return id % 2; }
bool held(int kind) { return kind == kChitStavka || kind == kChitManstein; }

}  // namespace

void DvState::start_turn() {
  const TurnDef& td = g_.turn(turn_);
  log("phase",
      "Turn " + std::to_string(turn_) + " (" + td.date + "), " +
          std::array<const char*, 4>{"Fair", "Mixed", "Mud", "Snow"}[td.weather] + ", initiative " +
          (td.initiative == kAxis ? "Axis" : "Soviet"),
      "4.0, 10.2");
  used_move_ = {0, 0};
  used_combat_ = {0, 0};
  held_passed_ = false;
  stavka_passed_ = false;
  stavka_played_ = false;  // 10.5.9: once per turn
  pulled_.clear();
  preset_.clear();
  std::vector<uint8_t> axis_los, axis_loc;  // 7.9: traced once, when a withdrawal needs it
  for (size_t i = 0; i < units_.size(); ++i) {
    UnitState& s = units_[i];
    const UnitDef& d = g_.units()[i];
    s.forced = false;
    s.strategic = false;  // 9.1 one Strategic Movement per unit per Turn
    // 7.9: withdrawals on the turn printed on the counter (from the map or the Eliminated box).
    // "Units with no LOC may not be removed; remove them as soon as they have a LOC": a unit
    // due and not yet gone (nor back from the Other Fronts box) goes at the start of the first
    // turn it has one (ruling DV-E17).
    // 7.10 "At the beginning of Turn 4, all non-Replaceable Soviet Mech Corps are permanently
    // removed" the same way (their exit_turn); the Militia go later (replacements.cpp).
    bool due = d.exit_turn >= 0 && d.exit_turn <= turn_ && (d.returns < 0 || turn_ < d.returns) &&
               !soviet_part_withdrawal(d) &&
               (s.box == Box::kMap || s.box == Box::kEliminated || s.box == Box::kAirAssets);
    if (due && s.box == Box::kMap && d.side == kAxis && d.ground) {
      if (axis_loc.empty()) trace_supply(kAxis, axis_los, axis_loc);
      if (axis_loc[static_cast<size_t>(s.hex)] == 0) {
        due = false;
        log("withdraw", d.label + " has no LOC: its withdrawal waits until it has one", "7.9");
      }
    }
    if (due) {
      const bool back = d.returns > turn_;
      log("withdraw", d.label + " is withdrawn" + (back ? " until Turn " + std::to_string(d.returns) : ""),
          d.side == kAxis ? "7.9" : "7.10");
      s.box = back ? Box::kOtherFronts : Box::kRemoved;
      s.hex = -1;
      s.return_turn = static_cast<int16_t>(back ? d.returns : -1);
    }
    // 7.3: "The following Soviet Armies (arriving on Turns 5-7) are placed directly into the
    // Soviet Eliminated Units Box ... may be purchased on their Turn of arrival."
    if (s.box == Box::kPending && d.enters_eliminated && d.entry_turn <= turn_) {
      s.box = Box::kEliminated;
      log("reinforce", d.label + " arrives in the Eliminated box", "7.3");
    }
    // 7.1 reinforcements due; 7.9 returns and 14.1 HQs coming back wait to be placed.
    if (s.box == Box::kOtherFronts && s.return_turn >= 0 && s.return_turn <= turn_) s.box = Box::kPending;
    if (s.box == Box::kEliminated && d.hq && s.return_turn >= 0 && s.return_turn <= turn_)
      s.box = Box::kPending;
    if (s.box == Box::kPending && !d.ground && (d.entry_turn <= turn_ || s.return_turn >= 0)) {
      s.box = d.cls == "air" || d.cls == "marker" ? Box::kAirAssets : Box::kAvailable;  // not yet in play
      s.return_turn = -1;
    }
  }
  air_start_turn();  // 4.0 VI the Done air units flip back; 8.6.2, 8.3.2
  active_ = kAxis;   // 7.1: the Axis places first
  phase1_ = 0;
  advance_placement();
}

bool DvState::placement_pending(int side) const {
  std::vector<int> hexes;
  for (size_t i = 0; i < units_.size(); ++i) {
    const UnitDef& d = g_.units()[i];
    const UnitState& s = units_[i];
    if (s.box != Box::kPending || d.side != side || !d.ground) continue;
    if (d.entry_turn > turn_ && s.return_turn < 0) continue;
    placement_hexes(static_cast<int>(i), hexes);
    if (!hexes.empty()) return true;
  }
  return false;
}

// 7.2 Axis and 7.3 Soviet placement (stacking applies, 5.1b). The Leningrad lake route and
// the Black Sea limit of 7.3 are not yet here; a German unit may not yet enter at a depot.
void DvState::placement_hexes(int u, std::vector<int>& out) const {
  out.clear();
  const UnitDef& d = g_.unit(u);
  const UnitState& s = us(u);
  if (s.box != Box::kPending || !d.ground || (d.entry_turn > turn_ && s.return_turn < 0)) return;
  // 7.7: a conversion replaces the old counter where it is (on the map or in the Eliminated
  // box) in the Replacement Segment; it is no reinforcement.
  if (d.converts >= 0 && (us(d.converts).box == Box::kMap || us(d.converts).box == Box::kEliminated)) return;
  entry_hexes(u, out);
}

void DvState::entry_hexes(int u, std::vector<int>& out, const std::vector<uint8_t>* traced) const {
  out.clear();
  const UnitDef& d = g_.unit(u);
  std::vector<uint8_t> los, own;
  if (traced == nullptr && d.side == kSoviet) trace_supply(d.side, los, own);
  const std::vector<uint8_t>& loc = traced != nullptr ? *traced : own;
  const steppe::HexGrid& gr = g_.grid();
  const int berlin = g_.place("berlin");
  // 7.2: German reinforcements need "a LOC to Berlin", Hungarian ones "a LOC to Buda", Italian
  // ones "a LOC to Vienna"; Romanian ones and the captured cities (Odessa, Kiev, Dnepropetrovsk)
  // none. 7.3: Soviet ones a LOC to the east map edge (the supply sources).
  std::vector<uint8_t> to_capital, unused;
  if (d.side == kAxis && d.nation != "romanian")
    trace_supply(kAxis, unused, to_capital,
                 g_.place(d.nation == "hungarian" ? "buda"
                          : d.nation == "italian" ? "vienna"
                                                  : "berlin"));
  const auto reaches = [&](int h) {
    return d.side == kSoviet ? loc[static_cast<size_t>(h)] != 0
                             : !to_capital.empty() && to_capital[static_cast<size_t>(h)] != 0;
  };
  for (int h = 0; h < gr.size(); ++h) {
    const HexInfo& hi = g_.hex(h);
    if (control(h) != d.side || occupant_side(h) == 1 - d.side) continue;
    bool ok = false;
    if (d.side == kSoviet) {
      ok = ((hi.city && hi.ussr) || hi.military_road) && reaches(h);
    } else if (d.nation == "romanian") {
      ok = (hi.city && hi.romania) || h == g_.place("odessa");
    } else if (d.nation == "hungarian") {
      ok = (hi.hungary && reaches(h)) || h == g_.place("kiev");
    } else if (d.nation == "italian") {
      ok = ((hi.hungary || hi.romania) && reaches(h)) || h == g_.place("dnepropetrovsk");
    } else {
      ok = hi.city && hi.germany && reaches(h);
      if (ok && h == berlin)
        for (int n : gr.neighbours(h))
          if (n >= 0 && occupant_side(n) == kSoviet) ok = false;
    }
    if (ok && stack_ok(h, d.side, {u})) out.push_back(h);
  }
}

void DvState::do_place(int u, int h) {
  UnitState& s = us(u);
  s.box = Box::kMap;
  s.hex = h;
  s.steps = static_cast<uint8_t>(g_.unit(u).steps);  // 7.9 returns come back at full strength
  s.supply = 0;
  s.return_turn = -1;
  set_control(h, g_.unit(u).side);
  log("reinforce", g_.unit(u).label + " enters at " + g_.grid().id(h),
      g_.unit(u).side == kAxis ? "7.2" : "7.3");
}

// 7.3: "Starting on Turn 3, the Soviet player may place any number of Reinforcing or Replacement
// units into Stavka Reserve": a Soviet reinforcement waiting to be placed this turn goes there
// instead of onto the map. (Replacements, 7.6, are not yet offered the Reserve.)
bool DvState::may_reserve(int u) const {
  const UnitDef& d = g_.unit(u);
  if (stage_ != Stage::kPlace || active_ != kSoviet || d.side != kSoviet || !d.ground || d.hq) return false;
  if (turn_ < g_.stavka_reserve_from()) return false;
  std::vector<int> hexes;
  placement_hexes(u, hexes);
  return !hexes.empty();
}

void DvState::do_reserve(int u) {
  UnitState& s = us(u);
  s = UnitState{};
  s.box = Box::kStavkaReserve;
  s.steps = static_cast<uint8_t>(g_.unit(u).steps);
  log("reinforce", g_.unit(u).label + " goes into the Stavka Reserve", "7.3");
}

// I. the Reinforcement/Replacement Phase in 7.1's order: Axis reinforcements, Axis
// replacements, Soviet reinforcements, Soviet replacements; then III. the Strategic Movement
// Phase (strategic.cpp; II. the Air Base Phase is not played yet).
void DvState::advance_placement() {
  for (;;) {
    if (phase1_ >= 4) {
      // II. the Air Base Phase (8.2), before the Strategic Movement Phase.
      if (phase1_ == 4 && stage_ != Stage::kRail && advance_air_base()) return;
      advance_strategic();
      return;
    }
    const int side = phase1_ < 2 ? kAxis : kSoviet;
    if (phase1_ == 0 || phase1_ == 2) {
      if (placement_pending(side)) {
        stage_ = Stage::kPlace;
        active_ = side;
        return;
      }
      ++phase1_;
      begin_replacements(side);
      continue;
    }
    if (phase1_ == 1 || phase1_ == 3) {
      stage_ = Stage::kReplace;
      active_ = side;
      std::vector<steppe::Action> acts;
      legal_actions(acts);
      if (acts.size() > 1) return;  // more than "done": there is something to replace
      ++phase1_;
      continue;
    }
  }
}

std::vector<int> DvState::initiative_choices() const {
  std::vector<int> out;
  const int side = g_.turn(turn_).initiative;
  for (int c : cup_.contents())
    if (cup_side(c) == side && cup_kind(c) != kChitLogistics && (out.empty() || out.back() != cup_kind(c)))
      out.push_back(cup_kind(c));
  // 10.2: "he may play it as his own Initiative chit" (the Stavka chit, never in the cup).
  if (side == kSoviet && stavka_available() && std::find(out.begin(), out.end(), kChitStavka) == out.end())
    out.insert(std::lower_bound(out.begin(), out.end(), static_cast<int>(kChitStavka)), kChitStavka);
  return out;
}

// 10.1/10.2: every available chit goes into the cup except the held ones; the initiative
// player picks his first chit (Turn 1: Combat then Move; the Fall Blau turn: two chits).
void DvState::begin_action_phase() {
  const TurnDef& td = g_.turn(turn_);
  // 10.1: the chart alone says what goes in: last turn's chits, drawn or not, come out first
  // (drawn ones are put back, then everything is taken out).
  cup_.return_drawn();
  while (!cup_.empty()) (void)cup_.remove(cup_.contents()[0]);
  for (int side = 0; side < 2; ++side)
    for (const std::string& name : td.chits[static_cast<size_t>(side)]) {
      const int k = chit_from_name(name);
      if (held(k)) continue;  // 10.2 held out of the cup (not yet played: 10.5.9, 10.5.10)
      if (k >= kChitPanzer1 && k <= kChitPanzer4) {
        const int hq = g_.hq_of_panzer_chit(k);
        if (hq < 0 || us(hq).box != Box::kMap) continue;  // one chit per Panzer Army HQ on the map
      }
      cup_.add(cup_id(k, side));
    }
  for (const std::string& name : td.neutral) cup_.add(cup_id(chit_from_name(name), kAxis));
  if (turn_ == 1) {
    // 10.2: on Turn 1 the Axis plays Combat then Move.
    for (int k : {kChitCombat, kChitMove})
      if (cup_.remove(cup_id(k, kAxis))) preset_.push_back(cup_id(k, kAxis));
    log("phase", "Turn 1: the Axis plays Combat, then Move", "10.2");
    next_round();
    return;
  }
  // 10.2: "On either Turn 12 (June 1942) or Turn 13 (July 1942), but not both, the Axis player
  // chooses the first two Action chits": offered on Turn 12 (the Axis may stop after one, 'hold'),
  // and on Turn 13 if it was not taken on Turn 12.
  initiative_left_ = turn_ == 12 || (turn_ == 13 && fall_blau_turn_ == 0) ? 2 : 1;
  if (initiative_choices().empty()) {
    initiative_left_ = 0;
    next_round();
    return;
  }
  stage_ = Stage::kInitiative;
  active_ = td.initiative;
}

// 10.5.10: the turn's chart lists Manstein/Model, it is back on the track and not yet played
// this turn (its next turn is always a later one once played).
bool DvState::manstein_available() const {
  const auto& chits = g_.turn(turn_).chits[kAxis];
  return std::find(chits.begin(), chits.end(), kChitNames[kChitManstein]) != chits.end() &&
         turn_ >= manstein_back_;
}

// 10.5.10: "placed on any fully Supplied Axis Combat unit(s)".
void DvState::manstein_hexes(std::vector<int>& out) const {
  out.clear();
  for (size_t i = 0; i < units_.size(); ++i) {
    const UnitDef& d = g_.units()[i];
    const UnitState& s = units_[i];
    if (s.box == Box::kMap && d.side == kAxis && d.combat && s.supply == 0) out.push_back(s.hex);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

// 10.5.10 (DV-E7): the round of Manstein/Model, a Panzer Army round around it; its next turn on the
// track: two turns later after its first use of a year, Turn 19 (1942) or Turn 30 (1943) after
// the second, never again after its use in 1944.
void DvState::play_manstein(int h) {
  const int year = g_.turn(turn_).year;
  if (year != manstein_year_) manstein_year_ = year, manstein_uses_ = 0;
  ++manstein_uses_;
  manstein_back_ = year >= 1944 ? 999 : manstein_uses_ == 1 ? turn_ + 2 : year == 1942 ? 19 : 30;
  manstein_hex_ = h;
  stavka_passed_ = false;  // 10.2: the next draw is still ahead; the Soviet may play Stavka before it
  log("chit",
      std::string(year >= 1944 ? "Model" : "Manstein") + " is played at " + g_.grid().id(h) +
          (manstein_back_ < 999 ? ", back on Turn " + std::to_string(manstein_back_)
                                : ", then out of the game"),
      "10.2, 10.5.10");
  pulled_.push_back(cup_id(kChitManstein, kAxis));
  start_round(kChitManstein, kAxis);
}

void DvState::next_round() {
  picked_ = target_ = -1;
  attackers_.clear();
  advancers_.clear();
  manstein_hex_ = -1;   // 10.5.10: removed from the map at the end of its round
  stavka_new_.clear();  // 10.5.9: the round's units are ordinary units again
  stavka_hq_new_.clear();
  // 10.2: "the Soviet player may choose to play it prior to the drawing of the next chit from the
  // cup or as the last chit of the Action Phase ... The Soviet player's choice of the Stavka chit
  // supersedes the selection of the Manstein/Model chit": his choice comes first. Not before an
  // Axis initiative chit (the preset ones, ruling DV-T5).
  if (preset_.empty() && !stavka_passed_ && stavka_available()) {
    stage_ = Stage::kHeld;
    active_ = kSoviet;
    chit_ = -1;
    return;
  }
  // 10.2: "the Axis player may choose to play it prior to the drawing of the next chit from
  // the cup or as the last chit of the Action Phase".
  if (preset_.empty() && !held_passed_ && manstein_available()) {
    std::vector<int> hexes;
    manstein_hexes(hexes);
    if (!hexes.empty()) {
      stage_ = Stage::kHeld;
      active_ = kAxis;
      chit_ = -1;
      return;
    }
  }
  held_passed_ = false;
  stavka_passed_ = false;
  int c = -1;
  if (!preset_.empty()) {
    c = preset_.front();
    preset_.erase(preset_.begin());
  } else if (!cup_.empty()) {
    c = cup_.draw();
    log("draw",
        std::string("drawn from the cup: ") +
            (cup_kind(c) == kChitLogistics ? ""
             : cup_side(c) == kAxis        ? "Axis "
                                           : "Soviet ") +
            std::string(kChitNames[static_cast<size_t>(cup_kind(c))]),
        "10.2");
  } else {
    end_turn();
    return;
  }
  pulled_.push_back(c);
  start_round(cup_kind(c), cup_side(c));
}

void DvState::start_round(int kind, int side) {
  chit_ = kind;
  active_ = side;
  seg_ = 0;
  mech_only_combat_ = false;
  segments_.clear();
  for (size_t i = 0; i < units_.size(); ++i) {
    UnitState& s = units_[i];
    s.moved = s.attacked = s.defended = s.left = false;
    s.started_adjacent = false;
    if (kind == kChitCounterattack && s.box == Box::kMap)
      for (int n : g_.grid().neighbours(s.hex))
        if (n >= 0 && occupant_side(n) == 1 - g_.units()[i].side) s.started_adjacent = true;
  }
  place_act_markers();
  mandates_ = mandates_made_ = 0;  // 10.5.6.1: ordered for a Counterattack round only
  bombarded_.clear();              // 8.5 one Air unit per hex each Combat (DV-A6)
  air_att_.clear();
  air_def_.clear();
  const std::string who = side == kAxis ? "Axis" : "Soviet";
  switch (kind) {
    case kChitLogistics:
      logistics_round();
      if (begin_air_supply(true)) return;  // 8.6.1
      next_round();
      return;
    // 10.5.1 Move Action: "the Active player moves all, some, or none of his Ground units up to
    // the limit of their available MPs" (every unit of the side is active: active_unit; 11.5
    // Forced March only in a Move round, may_force_march). 10.5.2 Combat Action: "The Active
    // Player may initiate Combat versus adjacent Enemy units" (12.x, combat.cpp), Strategic Air
    // and Artillery bombard or support (8.4, 8.5, 12.8), and 12.2.1's Single Unit rule holds
    // (may_resolve).
    case kChitMove:
    case kChitCombat: {
      auto& used = kind == kChitMove ? used_move_ : used_combat_;
      if (used[static_cast<size_t>(side)] != 0) {
        log("round", who + " " + std::string(kChitNames[kind]) + " chit forfeited: one such round per turn",
            "10.5.5");
        next_round();
        return;
      }
      used[static_cast<size_t>(side)] = 1;
      segments_ = {static_cast<uint8_t>(kind == kChitMove ? kSegMove : kSegCombat)};
      break;
    }
    case kChitMoveCombat:
    case kChitPanzer1:
    case kChitPanzer2:
    case kChitPanzer3:
    case kChitPanzer4:
    case kChitManstein:
      if (mode_choices().empty()) {
        log("round", who + " " + std::string(kChitNames[kind]) + " chit has no round to make",
            "10.5.5, 10.5.7");
        next_round();
        return;
      }
      stage_ = Stage::kMode;
      log("round", who + " " + std::string(kChitNames[kind]) + " round",
          kind == kChitMoveCombat ? "10.5.5"
          : kind == kChitManstein ? "10.5.10"
                                  : "10.5.7");
      return;
    case kChitCounterattack: {
      segments_ = {kSegMove, kSegCombat};  // 10.5.6 move, then combat
      // 10.5.6.1: "When the Counterattack chit is pulled, the Soviet player rolls 2d6. The result
      // is the number of counterattacks Stalin has ordered this Round, minimum of 6." (DV-R7)
      const int a = roll(6, "Stalin mandates", "10.5.6.1");
      const int b = roll(6, "Stalin mandates", "10.5.6.1");
      mandates_ = std::max(a + b, g_.stalin_minimum());
      mandates_made_ = 0;
      log("mandate",
          "Stalin orders " + std::to_string(mandates_) + " counterattacks (roll " + std::to_string(a) + "+" +
              std::to_string(b) + ", at least " + std::to_string(g_.stalin_minimum()) + ")",
          "10.5.6.1");
      break;
    }
    case kChitStavka:
      play_stavka();
      return;
    case kChitDeepBattle:
      segments_ = {kSegCombat, kSegMove};  // 10.5.8 combat, then move
      break;
    default:
      segments_ = {kSegCombat};  // 10.5.3, 10.5.4 Combat-Zhukov, Combat-Stavka(/Zhukov)
      break;
  }
  log("round", who + " " + std::string(kChitNames[kind]) + " round", "10.5");
  stage_ = segments_[0] == kSegMove ? Stage::kMove : Stage::kCombat;
}

// 0 = Move (then mech Combat for a Panzer Army), 1 = Combat (then Move).
std::vector<int> DvState::mode_choices() const {
  if (chit_ == kChitMoveCombat) {
    std::vector<int> out;
    if (used_move_[static_cast<size_t>(active_)] == 0) out.push_back(0);
    if (used_combat_[static_cast<size_t>(active_)] == 0) out.push_back(1);
    return out;
  }
  if (chit_ == kChitManstein) return {0, 1};  // 10.5.10: as a Panzer HQ's round
  const int hq = g_.hq_of_panzer_chit(chit_);
  if (hq < 0 || us(hq).box != Box::kMap) return {};
  return {0, 1};
}

void DvState::set_mode(bool move_first) {
  if (chit_ == kChitMoveCombat) {
    // 10.5.5: at most one Move round and one Combat round per player per turn (DV-T3).
    (move_first ? used_move_ : used_combat_)[static_cast<size_t>(active_)] = 1;
    segments_ = {static_cast<uint8_t>(move_first ? kSegMove : kSegCombat)};
  } else {
    // 10.5.7: Combat then Move, or Move then Combat by mech units only.
    segments_ =
        move_first ? std::vector<uint8_t>{kSegMove, kSegCombat} : std::vector<uint8_t>{kSegCombat, kSegMove};
    mech_only_combat_ = move_first;
  }
  seg_ = 0;
  log("round", std::string(move_first ? "Move" : "Combat") + " first",
      chit_ == kChitMoveCombat ? "10.5.5" : "10.5.7");
  stage_ = segments_[0] == kSegMove ? Stage::kMove : Stage::kCombat;
}

void DvState::end_segment() {
  picked_ = -1;
  zoc_control();  // 2.4
  ++seg_;
  if (seg_ < segments_.size()) {
    stage_ = segments_[seg_] == kSegMove ? Stage::kMove : Stage::kCombat;
    return;
  }
  if (chit_ == kChitCounterattack && begin_purge()) return;  // 10.5.6.2
  next_round();
}

// ---- 10.5.9 the Stavka chit ----

// 10.2 third exception: held out of the cup, played once in a turn whose chart lists it. A Stavka
// Reserve with nothing in it offers no round (ruling DV-B1).
bool DvState::stavka_available() const {
  if (stavka_played_) return false;
  const auto& chits = g_.turn(turn_).chits[kSoviet];
  if (std::find(chits.begin(), chits.end(), kChitNames[kChitStavka]) == chits.end()) return false;
  for (size_t i = 0; i < units_.size(); ++i)
    if (units_[i].box == Box::kStavkaReserve && g_.units()[i].ground) return true;
  return false;
}

// 10.5.9: "the chit allows some units in Stavka Reserve to be placed on the map as
// Reinforcements, then Move and engage in Combat. No other units may Move or conduct Combat".
// 10.5.9.1: "The Soviet player rolls 2d6: In 1941: the result is the number of steps that may
// leave Stavka Reserve. In 1942: same as above but minimum 6. In 1943-45: ... minimum 8."
void DvState::play_stavka() {
  stavka_played_ = true;
  stavka_new_.clear();
  stavka_hq_new_.clear();
  const int a = roll(6, "Stavka reinforcements", "10.5.9.1");
  const int b = roll(6, "Stavka reinforcements", "10.5.9.1");
  const int least = g_.stavka_minimum(year());
  stavka_steps_ = std::max(a + b, least);
  log("chit",
      "Stavka: " + std::to_string(stavka_steps_) + " steps may leave the Stavka Reserve (roll " +
          std::to_string(a) + "+" + std::to_string(b) +
          (least > 0 ? ", at least " + std::to_string(least) : "") + ")",
      "10.5.9, 10.5.9.1");
  segments_ = {kSegMove, kSegCombat};
  seg_ = 0;
  stage_ = Stage::kStavkaPlace;
  active_ = kSoviet;
  next_stavka_placement();
}

bool DvState::stavka_new(int u) const {
  return std::find(stavka_new_.begin(), stavka_new_.end(), u) != stavka_new_.end();
}
bool DvState::stavka_via_hq(int u) const {
  return std::find(stavka_hq_new_.begin(), stavka_hq_new_.end(), u) != stavka_hq_new_.end();
}

// 10.5.9.2: "Units are placed on the map as Soviet Reinforcements (7.3) but may also be placed
// with the Stavka and/or Zhukov HQs if the HQ is currently In Supply via an overland route."
// A unit leaves whole: its steps must not exceed those left of the roll (ruling DV-B1).
void DvState::stavka_placement_hexes(int u, std::vector<int>& out) const {
  out.clear();
  const UnitDef& d = g_.unit(u);
  const UnitState& s = us(u);
  if (stage_ != Stage::kStavkaPlace || s.box != Box::kStavkaReserve || !d.ground || d.side != kSoviet) return;
  if (reserve_steps(u) > stavka_steps_) return;
  entry_hexes(u, out);  // 7.3
  std::vector<uint8_t> los, loc;
  for (int hq : {g_.stavka_hq(), g_.zhukov()}) {
    if (hq < 0 || us(hq).box != Box::kMap) continue;
    if (los.empty()) trace_supply(kSoviet, los, loc);
    const int h = us(hq).hex;
    // Overland: the LOS of 13.3/13.4 (port supply is not traced, so every LOS is overland).
    if (los[static_cast<size_t>(h)] != 0 && stack_ok(h, kSoviet, {u})) out.push_back(h);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

int DvState::reserve_steps(int u) const { return us(u).steps > 0 ? us(u).steps : g_.unit(u).steps; }

void DvState::do_stavka_place(int u, int h) {
  std::vector<int> cities;
  entry_hexes(u, cities);
  UnitState& s = us(u);
  const int steps = reserve_steps(u);
  s = UnitState{};
  s.box = Box::kMap;
  s.hex = h;
  s.steps = static_cast<uint8_t>(steps);
  stavka_steps_ -= steps;
  stavka_new_.push_back(u);
  // 10.5.9.3 "Soviet units entering from Reserve via Cities are not affected": a hex that is a
  // 7.3 entry hex counts as a city entry even with an HQ in it (ruling DV-B1).
  const bool via_hq = std::find(cities.begin(), cities.end(), h) == cities.end();
  if (via_hq) stavka_hq_new_.push_back(u);
  set_control(h, kSoviet);
  log("reinforce",
      g_.unit(u).label + " leaves the Stavka Reserve at " + g_.grid().id(h) +
          (via_hq ? " (with the HQ)" : "") + ", " + std::to_string(stavka_steps_) + " steps left",
      via_hq ? "10.5.9.2" : "10.5.9.2, 7.3");
  next_stavka_placement();
}

void DvState::next_stavka_placement() {
  std::vector<int> hexes;
  for (size_t i = 0; i < units_.size(); ++i) {
    stavka_placement_hexes(static_cast<int>(i), hexes);
    if (!hexes.empty()) return;
  }
  end_stavka_placement();
}

// 10.5.9: "After placement is complete, any of the newly-placed units that are in Command Range
// of Stavka or Zhukov HQ may Move" (their ACT markers, 10.4).
void DvState::end_stavka_placement() {
  stavka_steps_ = 0;
  place_act_markers();
  seg_ = 0;
  stage_ = Stage::kMove;
  active_ = kSoviet;
  log("round", "Stavka round: " + std::to_string(stavka_new_.size()) + " units placed", "10.5.9");
}

// 10.5.9.3: "Starting in 1942, during Soviet Initiative Turns (only), Soviet units entering from
// Stavka Reserve via Zhukov/ Stavka may Move during that Stavka Round only under the following
// restriction" (movement.cpp stavka_move_ok).
bool DvState::stavka_restricted() const {
  return chit_ == kChitStavka && year() >= 1942 && g_.turn(turn_).initiative == kSoviet;
}

// ---- 10.5.6.2 mandated counterattacks ----

// "The Soviet player is required to make at least the number of legal attacks at final odds of
// 1-3 or better, each involving at least one In-Supply Soviet unit."
void DvState::count_mandate(const Outcome& o) {
  if (chit_ != kChitCounterattack || active_ != kSoviet || o.column < 0) return;
  const auto& cols = g_.crt().columns;
  const auto least = std::find(cols.begin(), cols.end(), g_.stalin_odds());
  if (least != cols.end() && o.column < static_cast<int>(least - cols.begin())) return;
  const bool supplied =
      std::any_of(attackers_.begin(), attackers_.end(), [&](int u) { return us(u).supply == 0; });
  if (!supplied) return;
  ++mandates_made_;
  log("mandate",
      "mandated counterattack " + std::to_string(mandates_made_) + " of " + std::to_string(mandates_) +
          " made",
      "10.5.6.2");
}

// "For each mandated counterattack the Soviet player fails to make, the Axis player may eliminate
// one In-Supply Soviet 1-4 Rifle Division from the map. Soviet Rifle Divisions adjacent to Axis
// units must be chosen if possible. If none exist, then Soviet Rifle Divisions closest to any Axis
// Ground unit must be chosen instead. (Axis units in Romania on Turn 1 are ignored for this
// rule). The Axis player may treat any OOS or IS Soviet 1-4 Rifle Division as if they were In
// Supply": every Rifle Division on the map qualifies; the nearest to an Axis ground unit first.
void DvState::purge_choices(std::vector<int>& out) const {
  out.clear();
  if (stage_ != Stage::kMandate || purges_left_ <= 0) return;
  const steppe::HexGrid& gr = g_.grid();
  int best = 1 << 30;
  std::vector<std::pair<int, int>> by_distance;
  for (size_t i = 0; i < units_.size(); ++i) {
    const UnitDef& d = g_.units()[i];
    if (units_[i].box != Box::kMap || d.side != kSoviet || d.type != "rifle-division") continue;
    int near = 1 << 30;
    for (size_t j = 0; j < units_.size(); ++j) {
      const UnitDef& e = g_.units()[j];
      if (units_[j].box != Box::kMap || e.side != kAxis || !e.ground) continue;
      if (turn_ == 1 && g_.hex(units_[j].hex).romania) continue;
      near = std::min(near, gr.distance(units_[i].hex, units_[j].hex));
    }
    if (near == 1 << 30) continue;
    best = std::min(best, near);
    by_distance.emplace_back(near, static_cast<int>(i));
  }
  for (const auto& [dist, u] : by_distance)
    if (dist == best) out.push_back(u);
}

bool DvState::begin_purge() {
  const int short_by = mandates_ - mandates_made_;
  mandates_ = mandates_made_ = 0;
  if (short_by <= 0) return false;
  purges_left_ = short_by;
  stage_ = Stage::kMandate;
  active_ = kAxis;
  std::vector<int> choices;
  purge_choices(choices);
  if (choices.empty()) {
    log("mandate",
        std::to_string(short_by) + " mandated counterattacks not made; no Rifle Division to eliminate",
        "10.5.6.2");
    purges_left_ = 0;
    return false;
  }
  log("mandate",
      std::to_string(short_by) +
          " mandated counterattacks not made: the Axis may eliminate as many Rifle Divisions",
      "10.5.6.2");
  return true;
}

void DvState::do_purge(int u) {
  UnitState& s = us(u);
  const int h = s.hex;
  s = UnitState{};
  s.box = Box::kEliminated;
  --purges_left_;
  log("mandate", g_.unit(u).label + " is eliminated for an unmade mandated counterattack", "10.5.6.2");
  if (occupant_side(h) == kNeutral) zoc_control();
  std::vector<int> choices;
  purge_choices(choices);
  if (choices.empty()) {
    purges_left_ = 0;
    next_round();
  }
}

// V. Attrition Phase (13.8), VI. End Phase: victory check (3.2), turn advance.
void DvState::end_turn() {
  chit_ = -1;
  segments_.clear();
  if (begin_air_supply(false)) return;  // 4.0 V.b, 8.6.2
  finish_turn();
}

void DvState::finish_turn() {
  attrition();
  victory_check();
  if (stage_ == Stage::kOver) return;
  ++turn_;
  start_turn();
}

}  // namespace dv
