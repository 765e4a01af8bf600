// 17.0 Airpower, 9.0 Air Unit Readiness and 13.1 Axis Air Interdiction (procedure).
//
// Air units are never on the map: each sits in a box of its side's Air Operations Card
// (17.1.2: Ready, Flown, Damaged, Destroyed) or face down on a mission hex (17.1.8). Missions
// are allocated in the Axis Air Interdiction Phase (13.1.1, 17.1.6: Axis Interdiction, then
// Soviet fighters) and at the start of each Combat Phase (17.1.7: the attacker's CAS, then the
// defender's; ruling A-46). `end` closes each allocation step; the last one resolves every
// mission hex: air combat (17.2), AA fire (17.3), then the mission (15.1.2 CAS, 13.1.2 an
// Interdiction marker). The resolution stops for the players' choices: a revealed dual purpose
// fighter's role (17.2.2a.2, `role`, the side declaring first before the other; ruling A-48) and
// the pairing of the firing units by the side with the initiative (17.2.4a, e, `engage`; ruling
// The tables are air.json.
#include <algorithm>

#include "games/agc/agc.h"

namespace agc {

using steppe::Error;
using steppe::Status;

namespace {

constexpr uint32_t kAll = 0xFFFFFFFFu;
const char* const kBoxNames[] = {"out of play", "Ready Box",     "Flown Box",
                                 "Damaged Box", "Destroyed Box", "mission"};
const char* const kSideNames[] = {"Axis", "Soviet"};

int severity(char c) { return c == 'E' ? 3 : c == 'D' ? 2 : c == 'A' ? 1 : 0; }

}  // namespace

bool AgcState::storm() const {
  if (storm_override_ >= 0) return storm_override_ != 0;
  if (sc_ == nullptr) return false;
  const int i = turn_ - sc_->first_turn;
  return i >= 0 && i < static_cast<int>(sc_->storm.size()) && sc_->storm[i] != 0;
}

void AgcState::to_box(int u, AirBox b, const char* rule) {
  us_[u].box = b;
  us_[u].mission = -1;
  us_[u].firing = false;
  us_[u].role_open = false;
  us_[u].target = -1;
  us_[u].seq = 0;
  us_[u].retarget = false;
  emit({"air",
        g_->units_[u].label + " (" + g_->units_[u].id + ") goes to the " + kBoxNames[b],
        rule,
        kAll,
        false,
        {}});
}

// ---- 9.0 Air Unit Readiness (the Air Readiness Phase of the Strategic Segment) ----
void AgcState::air_readiness() {
  // 9.2: "On any Storm turn, all air units of both sides that start the Air Readiness Phase in the
  // Ready Box ... are immediately placed in the Flown Box."
  if (storm())
    for (size_t u = 0; u < us_.size(); ++u)
      if (g_->units_[u].air && us_[u].box == kAirReady) to_box(static_cast<int>(u), kAirFlown, "9.2");
  // 9.1: "roll one die for each air unit in the Flown Box. If the die roll lies within the range
  // (adjust for weather DRMs, which are cumulative) ... it is moved to the Ready Box."
  const int drm = g_->air_.weather_drm[weather()];
  std::vector<int> damaged;
  for (size_t u = 0; u < us_.size(); ++u) {
    const auto& d = g_->units_[u];
    if (!d.air || d.air_type == kDummy) continue;
    if (us_[u].box == kAirDamaged) damaged.push_back(static_cast<int>(u));
    if (us_[u].box != kAirFlown) continue;
    const int r = roll(10, d.label + " (" + d.id + ") readiness in the Flown Box", "9.1");
    if (r + drm <= g_->air_.ready_max) to_box(static_cast<int>(u), kAirReady, "9.1");
  }
  // 9.1: "Don't make readiness die rolls for Dummy air units: they are automatically placed in the
  // Ready box at the end of the Air Readiness Phase."
  for (size_t u = 0; u < us_.size(); ++u)
    if (g_->units_[u].air && g_->units_[u].air_type == kDummy && us_[u].box == kAirFlown)
      to_box(static_cast<int>(u), kAirReady, "9.1");
  // 9.1: "Roll next for all air units in the Damaged Box. Air units passing the die roll are moved
  // up to the Flown Box." (Those moved up do not roll again this phase.) 9.3: the Destroyed Box
  // never rolls.
  for (int u : damaged) {
    const int r =
        roll(10, g_->units_[u].label + " (" + g_->units_[u].id + ") readiness in the Damaged Box", "9.1");
    if (r + drm <= g_->air_.damaged_max) to_box(u, kAirFlown, "9.1");
  }
}

// ---- 17.1 Air Units and Missions ----
int AgcState::mission_units(int hex, int side) const {
  int n = 0;
  for (size_t u = 0; u < us_.size(); ++u)
    if (us_[u].box == kAirMission && us_[u].mission == hex && g_->units_[u].side == side) ++n;
  return n;
}

// 17.1.6: "The Axis player first allocates all Interdiction missions (and then the Soviet sends
// opposing fighters)"; 17.1.7: "The attacking player first allocates his CAS missions, and then
// the defending player allocates his CAS missions."
bool AgcState::air_step_open(int side) const {
  if (phase_ == kAxisInterdiction)
    return (air_step_ == 0 && side == kAxis) || (air_step_ == 1 && side == kSoviet);
  if (combat_phase())
    return (air_step_ == 0 && side == attacker_side()) || (air_step_ == 1 && side == 1 - attacker_side());
  return false;
}

// 17.2.2a.2: "Some fighter ('F' unit type) units on both sides possess CAS ratings in addition to
// their ACRs ... most Axis fighter units carry an interdiction rating that makes them dual purpose
// interdiction units."
bool AgcState::dual_purpose(int u) const {
  const auto& d = g_->units_[u];
  if (d.air_type != kFighter) return false;
  return phase_ == kAxisInterdiction ? d.side == kAxis && d.interdiction > 0 : d.cas > 0;
}

Status AgcState::check_fly(int u, int hex) const {
  const auto& d = g_->units_[u];
  if (!d.air) return Error{d.label + " is not an air unit: only air units fly air missions", "17.1.1", ""};
  if (phase_ != kAxisInterdiction && !(combat_phase() && air_step_ < 2))
    return Error{
        "air missions are allocated in the Axis Air Interdiction Phase (Interdiction) and before the "
        "declared attacks of a Combat Phase (CAS)",
        "17.1.6, 17.1.7", ""};
  if (!air_step_open(d.side)) {
    if (phase_ == kAxisInterdiction)
      return Error{air_step_ == 0 ? "only the Axis conducts Interdiction: the Soviet sends opposing fighters "
                                    "after the Axis has allocated all Interdiction missions"
                                  : "the Axis has allocated its Interdiction missions",
                   "13.0, 17.1.6", ""};
    return Error{air_step_ == 0 ? "the attacking player first allocates his CAS missions"
                                : "the attacker has allocated his CAS missions: now the defender allocates",
                 "17.1.7", ""};
  }
  if (us_[u].box != kAirReady)
    return Error{d.label + " (" + d.id + ") is in the " + kBoxNames[us_[u].box] +
                     ": an air unit is not available to fly a mission unless it is in the Ready Box",
                 "17.1.3", ""};
  const bool interdiction = phase_ == kAxisInterdiction;
  if (interdiction && d.side == kSoviet) {
    if (d.air_type == kBomber)
      return Error{"only Soviet fighter units may intercept Interdiction missions", "17.1.4", ""};
    if (mission_units(hex, kAxis) == 0)
      return Error{
          "Soviet fighters opposing an Interdiction mission are placed in an Interdiction Mission hex: " +
              g_->grid_.id(hex) + " is none",
          "17.1.6", ""};
  }
  if (!interdiction) {
    const int i = declaration_of(hex);
    if (i < 0 || decl_[i].resolved)
      return Error{"the mission hex for a CAS mission must be a hex containing a Declared Attack marker: " +
                       g_->grid_.id(hex) + " has none",
                   "17.1.7", ""};
  }
  if (mission_units(hex, d.side) >= g_->air_.max_units)
    return Error{"a side allocates one mission a hex, of at most " + std::to_string(g_->air_.max_units) +
                     " air units (including dummy air units)",
                 "17.1.4, 17.1.5", ""};
  return Status::ok();
}

void AgcState::do_fly(int u, int hex) {
  const auto& d = g_->units_[u];
  us_[u].box = kAirMission;
  us_[u].mission = static_cast<int16_t>(hex);
  // 17.2.2a.1: "All air units with unit type symbol 'B' are automatically mission units." 17.2.2b:
  // "All fighter ('F' unit type) units not designated as mission units are automatically firing
  // units." A dual purpose fighter's role waits for the air combat (17.2.2a.2).
  us_[u].firing = d.air_type == kFighter && !dual_purpose(u);
  us_[u].role_open = dual_purpose(u);
  const bool firing = us_[u].firing;
  // 17.1.8: "Air units are placed upside down on their mission hex. Their identity and strength is
  // unknown to the enemy player until air combat ... is resolved."
  emit({"air",
        d.label + " (" + d.id + ") flies to " + g_->grid_.id(hex) + " face down, as a " +
            (d.air_type == kDummy ? "dummy"
             : us_[u].role_open   ? "dual purpose fighter"
             : firing             ? "firing unit"
                                  : "mission unit"),
        "17.1.5, 17.1.8",
        1u << d.side,
        false,
        {}});
  emit({"air",
        std::string("a ") + kSideNames[d.side] + " air unit is placed face down on " + g_->grid_.id(hex),
        "17.1.8",
        1u << (1 - d.side),
        false,
        {}});
}

// The mission hexes legal_actions() lists: for Interdiction the hexes of Soviet HQs (13.2.5 is
// the zone effect in play) and those already holding an Axis mission; any other hex is an
// unlisted form (17.1.6: "anywhere on any map").
bool AgcState::listed_fly_hex(int hex) const {
  if (phase_ == kAxisInterdiction) {
    if (mission_units(hex, kAxis) > 0) return true;
    if (air_step_ != 0) return false;
    for (size_t u = 0; u < us_.size(); ++u)
      if (us_[u].hex == hex && g_->units_[u].hq && g_->units_[u].side == kSoviet) return true;
    return false;
  }
  const int i = declaration_of(hex);
  return i >= 0 && !decl_[i].resolved;
}

namespace {
bool may_fly_cas(const AgcState& s, int side) {
  bool target = false;
  for (const auto& x : s.decl_) target = target || !x.resolved;
  if (!target) return false;
  for (size_t u = 0; u < s.us_.size(); ++u)
    if (s.g().units_[u].air && s.g().units_[u].side == side && s.us_[u].box == kAirReady) return true;
  return false;
}
}  // namespace

void AgcState::begin_air_steps() {
  air_step_ = 0;
  if (!may_fly_cas(*this, attacker_side())) air_step_ = 1;
  if (air_step_ == 1 && !may_fly_cas(*this, 1 - attacker_side())) air_step_ = 2;  // nothing flies
}

void AgcState::air_end_step() {
  if (phase_ == kAxisInterdiction) {
    if (air_step_ == 0) {
      bool missions = false, fighters = false;
      for (size_t u = 0; u < us_.size(); ++u) {
        const auto& d = g_->units_[u];
        missions = missions || (us_[u].box == kAirMission && d.side == kAxis);
        fighters =
            fighters || (d.air && d.side == kSoviet && d.air_type != kBomber && us_[u].box == kAirReady);
      }
      if (missions && fighters) {
        air_step_ = 1;
        emit({"phase",
              "the Soviet player sends opposing fighters to the Interdiction Mission hexes",
              "17.1.6",
              kAll,
              false,
              {}});
        return;
      }
    }
    if (resolve_missions()) air_step_ = 2;  // else paused: resolve_air_hex set 3, 4 or 5
    return;
  }
  if (air_step_ == 0) {
    air_step_ = 1;
    if (may_fly_cas(*this, 1 - attacker_side())) {
      emit({"phase", "the defending player allocates his CAS missions", "17.1.7", kAll, false, {}});
      return;
    }
  }
  if (resolve_missions()) air_step_ = 2;  // else paused: resolve_air_hex set 3, 4 or 5
}

// 17.2.2: "In all Interdiction missions, the Axis player declares first. In CAS missions, the first
// player to declare is the player who has declared the ground attack".
int AgcState::role_side() const {
  if (air_step_ != 3 || air_hex_ < 0) return kNoSide;
  const int first = phase_ == kAxisInterdiction ? kAxis : attacker_side();
  for (int s : {first, 1 - first})
    for (size_t u = 0; u < us_.size(); ++u)
      if (us_[u].role_open && us_[u].mission == air_hex_ && g_->units_[u].side == s) return s;
  return kNoSide;
}

Status AgcState::check_role(int u, bool firing) const {
  (void)firing;
  const auto& d = g_->units_[u];
  if (air_step_ != 3 || air_hex_ < 0)
    return Error{"a role is declared when dual purpose fighters are revealed in an air combat", "17.2.2", ""};
  if (!d.air || us_[u].mission != air_hex_ || !us_[u].role_open)
    return Error{
        d.label + " (" + d.id + ") is not a dual purpose fighter revealed over " + g_->grid_.id(air_hex_) +
            " with its role still to declare (bombers are mission units, other fighters firing units)",
        "17.2.2", ""};
  if (d.side != role_side())
    return Error{
        "the first player to declare is the Axis in Interdiction missions, the ground attacker in CAS "
        "missions",
        "17.2.2", ""};
  return Status::ok();
}

void AgcState::do_role(int u, bool firing) {
  us_[u].firing = firing;
  us_[u].role_open = false;
  // 17.2.2a.2: "The declaration is irreversible."
  emit({"air",
        g_->units_[u].label + " (" + g_->units_[u].id + ") over " + g_->grid_.id(air_hex_) +
            " is declared a " + (firing ? "firing unit" : "mission unit"),
        "17.2.2",
        kAll,
        false,
        {}});
  if (role_side() == kNoSide) continue_air();
}

// The resolution goes on after a player's choice (17.2.2, 17.2.4a, e); when every mission hex is
// done the CAS missions are over (17.1.7) or the Interdiction Phase ends (13.1.1).
void AgcState::continue_air() {
  if (!resolve_missions()) return;
  air_step_ = 2;
  if (phase_ == kAxisInterdiction) end_phase();
}

// 17.2.4a: "The player who has Air Initiative or Local Tactical Advantage now selects which
// friendly air units fight which enemy air units. All enemy firing units must be engaged by
// friendly firing units before attacking any mission units. If one player has more firing units
// than the other, excess firing units may 'gang up' on any enemy air unit." 17.2.4e: after the
// first round, a new target "with no restrictions" for each unengaged firing unit.
Status AgcState::check_engage(int f, int t) const {
  if ((air_step_ != 4 && air_step_ != 5) || air_hex_ < 0)
    return Error{
        "firing units are paired with enemy air units when one side has Air Initiative or Local "
        "Tactical Advantage",
        "17.2.4", ""};
  const auto& d = g_->units_[f];
  const bool lta = air_step_ == 5;
  if (d.side != air_side_ || us_[f].box != kAirMission || us_[f].mission != air_hex_ || !us_[f].firing)
    return Error{d.label + " (" + d.id + ") is not a firing unit of the side with the initiative over " +
                     g_->grid_.id(air_hex_) + " (mission units cannot fire)",
                 "17.2.4a, 17.2.2", ""};
  if (us_[f].target >= 0 || (lta && !us_[f].retarget))
    return Error{d.label + " (" + d.id + ") already has its target" +
                     (lta ? ": only unengaged firing units select a new one" : ""),
                 lta ? "17.2.4e" : "17.2.4a", ""};
  const auto& e = g_->units_[t];
  if (!e.air || e.side == d.side || us_[t].box != kAirMission || us_[t].mission != air_hex_ ||
      e.air_type == kDummy)
    return Error{e.label + " (" + e.id + ") is not an enemy air unit over " + g_->grid_.id(air_hex_),
                 "17.2.4a", ""};
  if (!lta && !us_[t].firing)
    for (size_t u = 0; u < us_.size(); ++u) {
      if (us_[u].box != kAirMission || us_[u].mission != air_hex_ || !us_[u].firing ||
          g_->units_[u].side == d.side)
        continue;
      bool engaged = false;
      for (size_t k = 0; k < us_.size(); ++k)
        engaged = engaged || (us_[k].target == static_cast<int>(u) && us_[k].mission == air_hex_);
      if (!engaged)
        return Error{
            "all enemy firing units must be engaged by friendly firing units before attacking any "
            "mission units: " +
                g_->units_[u].label + " (" + g_->units_[u].id + ") is not",
            "17.2.4a", ""};
    }
  return Status::ok();
}

void AgcState::do_engage(int f, int t) {
  int seq = 0;
  for (const auto& s : us_) seq = std::max<int>(seq, s.seq);
  us_[f].target = static_cast<int16_t>(t);
  us_[f].seq = static_cast<uint8_t>(seq + 1);
  emit({"air",
        g_->units_[f].label + " (" + g_->units_[f].id + ") engages " + g_->units_[t].label + " (" +
            g_->units_[t].id + ")",
        air_step_ == 5 ? "17.2.4e" : "17.2.4a",
        kAll,
        false,
        {}});
  for (size_t u = 0; u < us_.size(); ++u)
    if (us_[u].box == kAirMission && us_[u].mission == air_hex_ && us_[u].firing &&
        g_->units_[u].side == air_side_ && us_[u].target < 0 && (air_step_ == 4 || us_[u].retarget))
      return;  // more to pair
  continue_air();
}

// Every mission hex in turn; false when one pauses for the roles of 17.2.2 (air_step_ 3).
bool AgcState::resolve_missions() {
  std::vector<int> hexes;
  for (size_t u = 0; u < us_.size(); ++u)
    if (us_[u].box == kAirMission && std::find(hexes.begin(), hexes.end(), us_[u].mission) == hexes.end())
      hexes.push_back(us_[u].mission);
  std::sort(hexes.begin(), hexes.end());
  for (int h : hexes)
    if (!resolve_air_hex(h)) return false;  // air_step_ 3, 4 or 5: a player's choice is awaited
  return true;
}

// ---- 17.2 Air Combat, 17.3 AA Fire, and the mission ----
bool AgcState::resolve_air_hex(int hex) {
  const bool interdiction = phase_ == kAxisInterdiction;
  const std::string where = g_->grid_.id(hex);
  // 17.2.2: "In all Interdiction missions, the Axis player declares first. In CAS missions, the
  // first player to declare is the player who has declared the ground attack".
  const int first = interdiction ? kAxis : attacker_side();
  auto on_mission = [&](int side, int role) {  // role: 0 mission, 1 firing, 2 dummy, -1 any
    std::vector<int> out;
    for (size_t u = 0; u < us_.size(); ++u) {
      const auto& d = g_->units_[u];
      if (us_[u].box != kAirMission || us_[u].mission != hex || d.side != side) continue;
      const int r = d.air_type == kDummy ? 2 : us_[u].firing ? 1 : 0;
      if (role < 0 || role == r) out.push_back(static_cast<int>(u));
    }
    return out;
  };
  auto name = [&](int u) { return g_->units_[u].label + " (" + g_->units_[u].id + ")"; };
  // 17.2.1: "Flip opposing air units over to their front sides." The mission is revealed (once: the
  // resolution may pause below for the roles of 17.2.2).
  if (air_hex_ != hex) {
    air_hex_ = static_cast<int16_t>(hex);
    std::string text = "air units over " + where + ":";
    for (int s = 0; s < 2; ++s) {
      const auto all = on_mission(s, -1);
      if (all.empty()) continue;
      text += std::string(" ") + kSideNames[s];
      for (int u : all)
        text += " " + name(u) +
                (g_->units_[u].air_type == kDummy ? " dummy"
                 : us_[u].role_open               ? " dual-purpose"
                 : us_[u].firing                  ? " firing"
                                                  : " mission");
      text += ";";
    }
    emit({"reveal", text, "17.2.1", kAll, true, {}});
  }
  const bool both = !on_mission(kAxis, -1).empty() && !on_mission(kSoviet, -1).empty();
  if (both) {
    // 17.2.1: "Return any 'dummy' air units to their respective Flown Boxes."
    for (int s = 0; s < 2; ++s)
      for (int u : on_mission(s, 2)) to_box(u, kAirFlown, "17.2.1");
  }
  // 17.2.2a.2: "In any CAS mission where dual purpose fighters are revealed, the owning player must
  // immediately declare whether those fighters are mission units or firing units." When no enemy
  // air unit but dummies flew to the hex there is no one to fight: the fighter flies the mission it
  // was sent on (ruling A-48).
  const bool enemy_air = !on_mission(kAxis, -1).empty() && !on_mission(kSoviet, -1).empty();
  for (size_t u = 0; u < us_.size(); ++u)
    if (us_[u].role_open && us_[u].box == kAirMission && us_[u].mission == hex) {
      if (enemy_air) {  // the owners declare (`role`)
        air_step_ = 3;
        return false;
      }
      us_[u].role_open = false;
      us_[u].firing = false;
    }
  auto flies = [&](int side) { return !on_mission(side, 0).empty() || !on_mission(side, 1).empty(); };
  // 17.2: "When both players fly air units to perform a mission in the same hex, air combat may
  // occur" (only firing units fire, 17.2.2a).
  const bool combat =
      flies(kAxis) && flies(kSoviet) && (!on_mission(kAxis, 1).empty() || !on_mission(kSoviet, 1).empty());
  auto apply_results = [&](const std::vector<std::pair<int, char>>& hits) {
    // 17.2.4b: "All fire is considered to be simultaneous"; d: A to Flown, D to Damaged, E to Destroyed.
    std::vector<std::pair<int, char>> worst;
    for (const auto& hit : hits) {
      // Plain locals, not a structured binding: C++20 clang cannot capture bindings in a lambda.
      const int t = hit.first;
      const char c = hit.second;
      auto it = std::find_if(worst.begin(), worst.end(), [&](const auto& w) { return w.first == t; });
      if (it == worst.end())
        worst.emplace_back(t, c);
      else if (severity(c) > severity(it->second))
        it->second = c;
    }
    for (const auto& [t, c] : worst)
      if (severity(c) > 0)
        to_box(t, c == 'A' ? kAirFlown : c == 'D' ? kAirDamaged : kAirDestroyed, "17.2.4d");
  };
  auto fire = [&](int f, int t, std::vector<std::pair<int, char>>& hits) {
    // 17.2.4c: "subtract the target unit's Air Combat Rating (ACR) from that of the firing unit. Then
    // roll one die and refer to the column on the Air Combat Table which is equal to this difference."
    const int col = std::clamp(g_->units_[f].acr - g_->units_[t].acr, -4, 4);
    const int r = roll(10,
                       name(f) + " fires at " + name(t) + " on the " + (col > 0 ? "+" : "") +
                           std::to_string(col) + " column",
                       "17.2.4c");
    const char c = g_->air_.combat[col + 4][r - 1];
    emit({"air", name(f) + " at " + name(t) + ": " + std::string(1, c), "17.2.4d", kAll, false, {}});
    hits.emplace_back(t, c);
  };
  if (combat && air_init_ < 0) {
    // 17.2.3: "Roll one die and refer to the Air Initiative Table."
    int r = roll(10, "Air Initiative over " + where, "17.2.3");
    // The Air Initiative Table's DRM (air.json, reconstructed): for the side declaring first in the
    // months listed (the summer of 1941).
    const int ti = turn_ - (sc_ != nullptr ? sc_->first_turn : 0);
    const int month =
        sc_ != nullptr && ti >= 0 && ti < static_cast<int>(sc_->month.size()) ? sc_->month[ti] : 0;
    const auto& months = g_->air_.initiative_drm_months;
    if (first == g_->air_.initiative_drm_side &&
        std::find(months.begin(), months.end(), month) != months.end())
      r = std::clamp(r + g_->air_.initiative_drm, 1, 10);
    int kind = kGetThrough;
    for (const auto& row : g_->air_.initiative)
      if (r >= row[0] && r <= row[1]) kind = row[2];
    const char* const kinds[] = {"Local Tactical Advantage to the side that declared first",
                                 "Air Initiative to the side that declared first",
                                 "the mission units get through", "Air Initiative to the intercepting side",
                                 "Local Tactical Advantage to the intercepting side"};
    emit(
        {"air", std::string("Air Initiative over ") + where + ": " + kinds[kind], "17.2.3", kAll, false, {}});
    air_init_ = static_cast<int8_t>(kind);
    air_side_ = static_cast<int8_t>(kind <= kMissionInitiative ? first : 1 - first);
    air_round_ = 0;
    if (kind == kGetThrough) {
      // 17.2.3: "players return all firing units to their Flown Boxes. Only mission units may
      // continue the mission."
      for (int s = 0; s < 2; ++s)
        for (int u : on_mission(s, 1)) to_box(u, kAirFlown, "17.2.3");
    }
  }
  if (combat && air_init_ >= 0 && air_init_ != kGetThrough) {
    const int init = air_side_;
    const bool lta = air_init_ == kMissionLta || air_init_ == kInterceptLta;
    std::vector<int> fi = on_mission(init, 1);
    std::stable_sort(fi.begin(), fi.end(), [&](int a, int b) { return us_[a].seq < us_[b].seq; });
    auto enemy_left = [&] { return !on_mission(1 - init, 0).empty() || !on_mission(1 - init, 1).empty(); };
    if (air_round_ == 0) {
      // 17.2.4a: "The player who has Air Initiative or Local Tactical Advantage now selects which
      // friendly air units fight which enemy air units" (`engage`).
      for (int f : fi)
        if (us_[f].target < 0) {
          air_step_ = 4;
          return false;
        }
      // 17.2.4b: "Each player rolls one die for each firing unit ... All fire is considered to be
      // simultaneous". 17.2.4a: "Firing units attacked by more than one enemy unit can only fire at
      // the first attacker."
      std::vector<std::pair<int, char>> hits;
      for (int f : fi) fire(f, us_[f].target, hits);
      for (int e : on_mission(1 - init, 1))
        for (int f : fi)
          if (us_[f].target == e) {
            fire(e, f, hits);
            break;
          }
      apply_results(hits);
      air_round_ = 1;
      // 17.2.4e: "To be unengaged, a firing unit has forced its initial round air opponent to return
      // to the Flown, Damaged, or Destroyed Boxes."
      if (lta)
        for (int f : on_mission(init, 1))
          if (us_[f].target >= 0 && us_[us_[f].target].box != kAirMission) {
            us_[f].target = -1;
            us_[f].retarget = true;
          }
    }
    if (air_round_ == 1 && lta && enemy_left()) {
      // 17.2.4e: "he selects a new target (with no restrictions) for each of them. ... the targets
      // of such fire cannot return fire."
      std::vector<int> again;
      for (int f : on_mission(init, 1))
        if (us_[f].retarget) {
          if (us_[f].target < 0) {
            air_step_ = 5;
            return false;
          }
          again.push_back(f);
        }
      std::vector<std::pair<int, char>> hits;
      for (int f : again) fire(f, us_[f].target, hits);
      apply_results(hits);
    }
    air_round_ = 2;
  }
  // 17.2.4f: "Return all surviving firing units to their respective Flown Boxes." (With no enemy
  // air to fight, firing units have nothing to do.)
  for (int s = 0; s < 2; ++s)
    for (int u : on_mission(s, 1)) to_box(u, kAirFlown, "17.2.4f");
  // 17.3.1: "surviving mission units may undergo AA Fire from eligible units ... AA Fire is
  // considered to be coming from the mission hex and all six surrounding hexes." 17.3.3: "each
  // player fires once against each enemy mission unit in the mission hex".
  for (int s = 0; s < 2; ++s) {
    const auto ms = on_mission(s, 0);
    if (ms.empty()) continue;
    bool eligible = false, aa = false;
    for (size_t u = 0; u < us_.size(); ++u) {
      const auto& d = g_->units_[u];
      if (d.side == s || us_[u].hex < 0 || !d.aa_eligible) continue;
      if (us_[u].hex != hex && g_->grid_.distance(us_[u].hex, hex) != 1) continue;
      eligible = true;
      aa = aa || d.aa;
    }
    if (!eligible) {
      emit({"air",
            std::string("no ") + kSideNames[1 - s] + " unit eligible for AA Fire near " + where,
            "17.3.1",
            kAll,
            false,
            {}});
      continue;
    }
    for (int m : ms) {
      // The DRMs below the AA Fire Table (air.json, reconstructed).
      const int drm = (aa ? g_->air_.aa_unit_drm : 0) +
                      (g_->settlement_[hex] >= 2 ? g_->air_.aa_city_drm : 0) +
                      (g_->units_[m].air_type == kBomber ? g_->air_.aa_bomber_drm : 0);
      const int r = roll(10, std::string(kSideNames[1 - s]) + " AA Fire at " + name(m), "17.3.3");
      const char c = g_->air_.aa[std::clamp(r + drm, 1, 10) - 1];
      emit({"air", "AA Fire at " + name(m) + ": " + std::string(1, c), "17.3.3", kAll, false, {}});
      if (severity(c) > 0) to_box(m, c == 'A' ? kAirFlown : c == 'D' ? kAirDamaged : kAirDestroyed, "17.3.3");
    }
  }
  // 17.3.4: "Mission units that survive AA Fire successfully perform their mission".
  if (interdiction) {
    // 13.1.2: "The Interdiction Level is determined by totalling the interdiction ratings of the Axis
    // air mission units remaining in the hex. If the total is one, the Interdiction Level is One. If
    // the total is two or more, the Interdiction Level is Two."
    int total = 0;
    for (int u : on_mission(kAxis, 0)) total += g_->units_[u].interdiction;
    const int level = total >= g_->air_.level_two_total ? 2 : total >= 1 ? 1 : 0;
    if (level > 0) {
      interdiction_[hex] = static_cast<uint8_t>(std::max<int>(interdiction_[hex], level));
      emit({"interdiction",
            "Interdiction Level " + std::to_string(level) + " marker on " + where,
            "13.1.2",
            kAll,
            false,
            {}});
    }
  } else {
    // 15.1.2: "If both attacker and defender mission units remain in the defender hex, net out the
    // opposing CAS rating points until the points of only one side remain."
    int net = 0;
    for (int u : on_mission(attacker_side(), 0)) net += g_->units_[u].cas;
    for (int u : on_mission(1 - attacker_side(), 0)) net -= g_->units_[u].cas;
    const int i = declaration_of(hex);
    if (i >= 0 && net != 0) {
      decl_[i].cas = static_cast<int8_t>(decl_[i].cas + net);
      emit({"air",
            "net CAS " + std::to_string(std::abs(net)) + " to the " + (net > 0 ? "attacker" : "defender") +
                " at " + where,
            "15.1.2",
            kAll,
            false,
            {}});
    }
  }
  // 17.1.9: "As units complete their mission for the game-turn, they are returned to the Flown Box."
  for (int s = 0; s < 2; ++s)
    for (int u : on_mission(s, -1)) to_box(u, kAirFlown, "17.1.9");
  air_hex_ = -1;
  air_init_ = -1;
  air_side_ = kNoSide;
  air_round_ = 0;
  return true;
}

// ---- 13.1.3, 13.2.5 ----
// 13.1.3: "Interdiction affects the interdicted hex and the six adjacent hexes; this is called the
// Zone of Interdiction. Zones of Interdiction may overlap. However, the maximum Interdiction level
// in any hex is two (2)."
int AgcState::interdiction_level(int hex) const {
  int sum = interdiction_[hex];
  for (int dir = 0; dir < 6; ++dir) {
    const int nb = g_->grid_.neighbour(hex, dir);
    if (nb >= 0) sum += interdiction_[nb];
  }
  return std::min(sum, g_->air_.max_level);
}

// 13.2.5: "All Soviet HQ units within the Zone of Interdiction have their command value reduced by
// an amount equal to the sum of all Interdiction Levels that affect their hex (maximum of two).
// Soviet HQ Command Values can be reduced to zero".
int AgcState::command_value(int hq) const {
  const int cv = g_->units_[hq].command_value;
  if (us_[hq].hex < 0) return cv;
  return std::max(0, cv - interdiction_level(us_[hq].hex));
}

}  // namespace agc
