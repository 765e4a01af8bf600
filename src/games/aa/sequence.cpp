// The turn sequence (1.2), Combat Initiative (1.2.1), End Turn (1.2.10), victory (1.3) and the
// politics of chapter II: income, Lend/Lease, Siberian reinforcements, the minor Axis.
#include <algorithm>
#include <array>

#include "games/aa/state.h"

namespace steppe::aa {

namespace {

// 1.2: "Sequences 3-6 are completed by both sides before the side with CI advances to
// sequences 7-10": the CI side's combat sequence, the other's, then the CI side's non-combat
// sequence and the other's (digest A24). Sequence 8 (Rail/Naval) is not played yet. The steps:
// 1.2.3 Purchase, 1.2.4 Combat Move ("All units to be used in combat are moved into battle"),
// 1.2.5 Combat, 1.2.6 Blitz Move ("All eligible units with remaining movement may now conduct
// Blitzes"), 1.2.7 Non-Combat Move ("All units can be moved into friendly territories keeping
// within the supply rules and movement limits; including units that were used in the combat
// move sequence"), 1.2.8 Rail/Naval Transport ("Any unit that is in the same zone as a railroad
// token at the beginning of this sequence may be transported by rail"; rail.cpp, and by sea
// between naval bases, transport.cpp), 1.2.9 Place Purchases.
struct Step {
  bool ci_side;
  Phase phase;
};
constexpr std::array<Step, 14> kSteps = {{{true, Phase::kPurchase},
                                          {true, Phase::kCombatMove},
                                          {true, Phase::kCombat},
                                          {true, Phase::kBlitz},
                                          {false, Phase::kPurchase},
                                          {false, Phase::kCombatMove},
                                          {false, Phase::kCombat},
                                          {false, Phase::kBlitz},
                                          {true, Phase::kNonCombatMove},
                                          {true, Phase::kRail},
                                          {true, Phase::kPlace},
                                          {false, Phase::kNonCombatMove},
                                          {false, Phase::kRail},
                                          {false, Phase::kPlace}}};

const char* kSideNames[] = {"Axis", "Russia"};

// Each step's name (in positions, the notation and refusals) and the section of 1.2 that
// describes it, in the order of enum Phase.
struct PhaseText {
  Phase phase;
  const char* name;
  const char* rule;
};
constexpr std::array<PhaseText, 8> kPhaseTexts{{{Phase::kPurchase, "purchase", "1.2.3"},
                                                {Phase::kCombatMove, "combat-move", "1.2.4"},
                                                {Phase::kCombat, "combat", "1.2.5"},
                                                {Phase::kBlitz, "blitz", "1.2.6"},
                                                {Phase::kNonCombatMove, "non-combat-move", "1.2.7"},
                                                {Phase::kRail, "rail", "1.2.8"},
                                                {Phase::kPlace, "place", "1.2.9"},
                                                {Phase::kOver, "over", "1.3"}}};
static_assert([] {
  for (size_t i = 0; i < kPhaseTexts.size(); ++i)
    if (static_cast<size_t>(kPhaseTexts[i].phase) != i) return false;
  return true;
}());

}  // namespace

const char* phase_name(Phase p) { return kPhaseTexts[static_cast<size_t>(p)].name; }
const char* phase_rule(Phase p) { return kPhaseTexts[static_cast<size_t>(p)].rule; }

int AaState::step_index(bool ci_side, std::string_view phase) {
  for (size_t i = 0; i < kSteps.size(); ++i)
    if (kSteps[i].ci_side == ci_side && phase == phase_name(kSteps[i].phase)) return static_cast<int>(i);
  return -1;
}

void AaState::log(const std::string& kind, const std::string& text, const std::string& rule) const {
  Event e;
  e.kind = kind;
  e.text = text;
  e.rule = rule;
  emit(std::move(e));
}

Status AaState::setup(const std::string& scenario) {
  const auto& zones = g_->zone_count();
  control_.assign(static_cast<size_t>(zones), kNoSide);
  captured_.assign(static_cast<size_t>(zones), 0);
  battle_fought_.assign(static_cast<size_t>(zones), 0);
  attacked_.assign(static_cast<size_t>(zones), 0);
  supplied_.assign(static_cast<size_t>(zones), 0);
  placed_other_.assign(static_cast<size_t>(zones), 0);
  placed_infantry_.assign(static_cast<size_t>(zones), 0);
  placed_supply_.assign(static_cast<size_t>(zones), 0);
  shipped_.assign(static_cast<size_t>(zones), 0);
  battle_general_.assign(static_cast<size_t>(zones), 0);
  battle_rounds_.assign(static_cast<size_t>(zones), 0);
  for (auto& d : damage_) d.assign(static_cast<size_t>(zones), 0);
  scenario_ = scenario;
  // 1.1: "territories color-coded based on original national ownership".
  for (int z = 0; z < zones; ++z)
    if (g_->zone(z).original_owner >= 0)
      control_[static_cast<size_t>(z)] = side_of(g_->zone(z).original_owner);
  if (scenario == "empty") {
    last_turn_ = g_->rules().last_turn;
    turn_ = 1;
    enter_step(0);
    return Status::ok();
  }
  if (scenario == "barbarossa") {
    last_turn_ = g_->rules().last_turn;
  } else if (scenario == "barbarossa-18") {
    last_turn_ = g_->rules().extended_last_turn;
    extended_ = true;
  } else {
    return Error{"unknown scenario '" + scenario + "' (the scenarios are barbarossa, barbarossa-18)", "1.3",
                 ""};
  }
  for (const SetupForce& f : g_->setup())
    for (const auto& [type, n] : f.units)
      for (int i = 0; i < n; ++i) {
        Unit u;
        u.nation = f.nation;
        u.type = type;
        u.zone = f.zone;
        u.locked = f.locked;  // 2.4, 2.5, 2.6
        units_.push_back(u);
      }
  bp_[kAxis] = g_->rules().german_start;    // 2.1: "begins the game with 60 Build Points"
  bp_[kRussia] = g_->rules().russia_start;  // 2.8: "begins the game with 25 Build Points"
  turn_ = 1;
  ci_ = kAxis;  // 1.2.1: "Germany starts the game with CI"
  if (generals_) {
    // 4.5: "At the beginning of the game, Germany places (2) generals ... Minor Axis countries
    // have only (1) general each ... Russia can place (4) generals".
    for (int nation : {kGermany, kFinland, kItaly, kHungary, kRomania, kRussiaNation})
      for (int i = 0; i < g_->generals_at_start(nation); ++i) draw_general(nation, "the start of the game");
  }
  enter_step(0);
  return Status::ok();
}

int AaState::bp(int side, int pool) const {
  if (side == kRussia && pool == kLendLease) return lend_lease_bp_;
  if (side == kRussia && pool == kSiberian) return siberian_bp_;
  return pool == kMainPool && (side == kAxis || side == kRussia) ? bp_[static_cast<size_t>(side)] : 0;
}

int AaState::axis_vp() const {
  // 1.1, 1.3: VP are printed in the Russian city zones; the Axis score those they control.
  int vp = 0;
  for (int z = 0; z < g_->zone_count(); ++z)
    if (controller(z) == kAxis && g_->zone(z).original_owner == kRussiaNation) vp += g_->zone(z).vp;
  return vp;
}

void AaState::grant(const Grant& gr, const std::string& rule) {
  std::string what;
  for (const auto& unit : gr.units) {
    // Named copies, not a structured binding: the lambda captures them (clang 14 refuses).
    const int type = unit.first, n = unit.second;
    if (n <= 0) continue;
    auto it = std::find_if(pending_.begin(), pending_.end(), [&](const Pending& p) {
      return p.nation == gr.nation && p.type == type && p.pool == kMainPool;
    });
    if (it == pending_.end()) {
      pending_.push_back(Pending{gr.nation, type, kMainPool, n});
    } else {
      it->count += n;
    }
    what += (what.empty() ? "" : ", ") + std::to_string(n) + " " + g_->base(type).id;
  }
  log("reinforce", std::string(nation_id(gr.nation)) + " receives " + what + " to place (" + rule + ")",
      rule);
}

// 2.4-2.7: a minor Axis nation mobilizes once: its locked units are freed and its units placed.
void AaState::mobilize(int nation, const std::string& why) {
  if (mobilized_[static_cast<size_t>(nation)]) return;
  mobilized_[static_cast<size_t>(nation)] = true;
  const std::string rule = nation == kRomania    ? "2.4"
                           : nation == kBulgaria ? "2.5"
                           : nation == kFinland  ? "2.6"
                                                 : "2.7";
  for (Unit& u : units_)
    if (u.nation == nation) u.locked = false;
  log("politics", std::string(nation_id(nation)) + " mobilizes: " + why + " (" + rule + ")", rule);
  grant(g_->mobilization(nation), rule);
}

void AaState::enter_step(int step) {
  if (step >= static_cast<int>(kSteps.size())) {
    end_turn();
    return;
  }
  step_ = step;
  const Step& st = kSteps[static_cast<size_t>(step)];
  active_ = st.ci_side ? ci_ : 1 - ci_;
  phase_ = st.phase;
  std::fill(supplied_.begin(), supplied_.end(), 0);
  // 3.13: the drop bonus is for the battles of the Combat step after the drop.
  if (phase_ != Phase::kCombat)
    for (Unit& u : units_) u.dropped = false;
  switch (phase_) {
    case Phase::kCombatMove:
    case Phase::kNonCombatMove:
      // 1.2.4, 3.25 "A unit can move a number of territories equal to its movement points";
      // 1.2.7 "including units that were used in the combat move sequence", 3.32 "All units can
      // move during the Non-Combat Movement sequence. Even units that were moved in the Combat
      // Movement sequence". The Blitz Move (1.2.6) keeps the movement left from the Combat Move.
      for (Unit& u : units_)
        if (side_of(u.nation) == active_) {
          u.mp = g_->base(u.type).movement;
          if (u.morale == 1) u.morale = 2;  // 3.33: this is the sequence it sits out
        }
      std::fill(attacked_.begin(), attacked_.end(), 0);
      if (phase_ == Phase::kCombatMove) surrounded_use_supply(1 - active_);  // 3.34
      // 4.4.1 Axis card 5: "place 5 inf, 2 art, 1 armor, and 3 supplies in Bulgaria. These
      // units are placed and moved at the beginning of the NCM sequence."
      if (phase_ == Phase::kNonCombatMove && active_ == kAxis)
        if (const MurphyCard* c = murphy_card(kAxis, "grant_at_non_combat_move")) {
          for (const auto& [type, n] : c->grant.units)
            for (int i = 0; i < n; ++i) {
              Unit u;
              u.nation = c->grant.nation;
              u.type = type;
              u.zone = c->zone;
              u.mp = g_->base(type).movement;
              units_.push_back(u);
            }
          log("murphy",
              std::string(nation_id(c->grant.nation)) + " places its units in " + g_->zone(c->zone).name +
                  " (4.4.1)",
              "4.4.1");
        }
      break;
    case Phase::kCombat: {
      // 3.36.1: "All Strategic Bombing Raids are resolved first before any other combat."
      resolve_raids();
      // 1.2.5: "Territories containing units from both sides must resolve combat".
      battles_.clear();
      for (int z = 0; z < g_->zone_count(); ++z) {
        battle_rounds_[static_cast<size_t>(z)] = 0;
        battle_general_[static_cast<size_t>(z)] = 0;  // 4.5
        if (attacked_[static_cast<size_t>(z)] != 0 && enemy_units_in(z, active_) && count(z, active_) > 0)
          battles_.push_back(z);
      }
      if (battles_.empty()) {
        log("phase", std::string(kSideNames[active_]) + " has no battle to fight (1.2.5)", "1.2.5");
        enter_step(step + 1);
        return;
      }
      break;
    }
    case Phase::kRail:
      // 3.35: "units that start this sequence in a zone with a Train unit can be transported".
      for (Unit& u : units_)
        if (side_of(u.nation) == active_) u.rail = 0;
      std::fill(shipped_.begin(), shipped_.end(), 0);  // 3.28
      break;
    case Phase::kPlace:
      if (active_ == kAxis) {
        // 2.2: "Place 2 supply tokens and 1 infantry unit in Budapest during the Place
        // Purchases phase" (every turn, digest A17); 2.3 Italy "for the first 4 turns".
        grant(g_->hungary_each_turn(), "2.2");
        // 4.4.1 Axis card 9: "Hungary production increases this turn. Place 3 inf, 3 art, and 5 supplies".
        if (const MurphyCard* c = murphy_card(kAxis, "grant_at_place")) grant(c->grant, "4.4.1");
        const auto& it = g_->rules().italy_turns;
        if (std::find(it.begin(), it.end(), turn_) != it.end()) grant(g_->italy_each_turn(), "2.3");
      }
      break;
    default:
      break;
  }
  log("phase",
      "Turn " + std::to_string(turn_) + ": " + kSideNames[active_] + " " + phase_name(phase_) + " (" +
          phase_rule(phase_) + ")",
      phase_rule(phase_));
}

void AaState::begin_turn() {
  std::fill(elite_bought_.begin(), elite_bought_.end(), 0);
  std::fill(kerch_used_.begin(), kerch_used_.end(), 0);
  std::fill(battle_fought_.begin(), battle_fought_.end(), 0);
  std::fill(placed_other_.begin(), placed_other_.end(), 0);
  std::fill(placed_infantry_.begin(), placed_infantry_.end(), 0);
  std::fill(placed_supply_.begin(), placed_supply_.end(), 0);
  const Rules& r = g_->rules();
  // 2.10: "At the beginning of Turn 4, and every turn thereafter, Russia receives 8 Build Points".
  card_ = {-1, -1};  // 4.4: this turn's Murphy's Law cards are drawn after the CI roll
  protected_zone_ = -1;
  if (turn_ >= r.lend_lease_from) {
    // 4.4.2 Russia's card K: "The rest of the game, lend lease Build Points double to 16".
    const int ll =
        murphy_card(kRussia, "lend_lease") != nullptr ? murphy_value(kRussia, "lend_lease") : r.lend_lease_bp;
    lend_lease_bp_ += ll;
    log("income", "Lend/Lease: Russia receives " + std::to_string(ll) + " BP (2.10)", "2.10");
  }
  // 2.11: "At the beginning of Turn 6, Russia receives 40 additional Build Points per turn".
  if (turn_ >= r.siberian_from) {
    siberian_bp_ += r.siberian_bp;
    log("income", "Siberian reinforcements: Russia receives " + std::to_string(r.siberian_bp) + " BP (2.11)",
        "2.11");
  }
  // 1.2.1: no roll on Turns 1 and 2; then each side rolls 1d12, Russia 3d6 from Turn 8; the
  // higher total has CI (a tie is rolled again: ruling "Combat Initiative ties").
  if (turn_ <= r.ci_automatic_through) {
    ci_ = kAxis;
  } else {
    for (;;) {
      int axis = roll(12, "Combat Initiative, Axis 1d12", "1.2.1");
      // 4.4.1 Axis card K: "roll 2 d12 for combat initiative on the next turn. Only use the highest roll".
      if (ci_two_dice_turn_ == turn_)
        axis = std::max(axis, roll(12, "Combat Initiative, Axis 2nd d12", "4.4.1"));
      int russia = 0;
      if (turn_ >= r.russia_3d6_from) {
        for (int i = 0; i < 3; ++i) russia += roll(6, "Combat Initiative, Russia 3d6", "1.2.1");
      } else {
        russia = roll(12, "Combat Initiative, Russia 1d12", "1.2.1");
      }
      if (axis == russia) continue;
      ci_ = axis > russia ? kAxis : kRussia;
      log("initiative",
          std::string(kSideNames[ci_]) + " has Combat Initiative (" + std::to_string(axis) + " to " +
              std::to_string(russia) + ") (1.2.1)",
          "1.2.1");
      break;
    }
    // 4.4: "When a side wins the Combat Initiative roll, randomly draw one card".
    if (murphy_) draw_murphy(ci_);
  }
  // 4.5: "Germany and Russia may place (1) general on each turn they Receive the CI".
  if (generals_) draw_general(ci_ == kAxis ? kGermany : kRussiaNation, "Combat Initiative");
  enter_step(0);
}

void AaState::end_turn() {
  const Rules& r = g_->rules();
  const int vp = axis_vp();
  log("vp", "End of Turn " + std::to_string(turn_) + ": the Axis hold " + std::to_string(vp) + " VP (1.2.10)",
      "1.2.10");
  // 1.3: "Germany takes Moscow and holds it for 1 turn before the end of Turn 12" (and Baku):
  // every zone of the city Axis-held since before this turn (ruling "Holding a city").
  auto held = [&](const std::string& city, int side) {
    const auto& zs = g_->city_zones(city);
    return !zs.empty() &&
           std::all_of(zs.begin(), zs.end(), [&](int z) { return held_since_before_this_turn(z, side); });
  };
  for (const std::string& city : r.hold_to_win) {
    if (held(city, kAxis)) {
      winner_ = kAxis;
      end_reason_ = "Germany took " + city + " and held it for a turn (1.3)";
    }
  }
  if (winner_ == kNoSide && turn_ >= last_turn_) {
    // 1.3: "Germany has 28 victory points at the end of Turn 18"; otherwise "Russia has
    // successfully held off the German onslaught and wins the game".
    if (extended_ && turn_ == r.vp_checked_at_turn && vp >= r.vp_to_win) {
      winner_ = kAxis;
      end_reason_ = "the Axis hold " + std::to_string(vp) + " VP at the end of Turn " +
                    std::to_string(turn_) + " (1.3)";
    } else {
      winner_ = kRussia;
      end_reason_ =
          "Russia held off the German onslaught to the end of Turn " + std::to_string(turn_) + " (1.3)";
    }
  }
  if (winner_ != kNoSide) {
    phase_ = Phase::kOver;
    log("end", std::string(kSideNames[winner_]) + " wins: " + end_reason_, "1.3");
    return;
  }
  // 2.4, 2.5: "when the Axis have 20 [23] Victory Points at the end of a turn".
  if (vp >= r.romania_vp) mobilize(kRomania, "the Axis have " + std::to_string(vp) + " VP");
  if (vp >= r.bulgaria_vp) mobilize(kBulgaria, "the Axis have " + std::to_string(vp) + " VP");
  // 2.6: "when the Axis can take and hold Leningrad for one full turn".
  if (held("Leningrad", kAxis)) mobilize(kFinland, "the Axis hold Leningrad");
  // 2.7: "When Germany controls Western Kiev for 1 full turn, Spain places 4 infantry and 5
  // supplies in the Italian Reinforcement Zone", once.
  const int wkiev = g_->zone_index("western-kiev");
  if (!spain_joined_ && wkiev >= 0 && held_since_before_this_turn(wkiev, kAxis)) {
    spain_joined_ = true;
    log("politics", "Spain joins: Germany has held Western Kiev for a full turn (2.7)", "2.7");
    grant(g_->mobilization(kSpain), "2.7");
  }
  // 2.12: "If Russia ... takes and holds Helsinki for 1 complete turn ... Germany will
  // permanently lose 10 Build Points per turn".
  const int helsinki = g_->zone_index("helsinki");
  if (!winter_war_ && helsinki >= 0 && held_since_before_this_turn(helsinki, kRussia)) {
    winter_war_ = true;
    log("politics", "Winter War: Russia holds Helsinki; Germany loses 10 BP per turn (2.12)", "2.12");
  }
  // Income (digest A1): Germany's 48 Build Points each turn.
  const int german = std::max(0, r.german_income - (winter_war_ ? 10 : 0));
  bp_[kAxis] += german;
  log("income", "Germany collects " + std::to_string(german) + " BP (2.1)", "2.1");
  // 2.8: "roll 3d12 at the end of each turn and add the result to the current Build Points
  // until the total reaches 80" (ruling "Russia's economy").
  if (bp_[kRussia] < r.russia_max) {
    int add = 0;
    for (int i = 0; i < 3; ++i) add += roll(12, "Russian economy 3d12", "2.8");
    const int before = bp_[kRussia];
    bp_[kRussia] = std::min(r.russia_max, bp_[kRussia] + add);
    log("income", "Russia adds " + std::to_string(bp_[kRussia] - before) + " BP (2.8)", "2.8");
  }
  // 4.4.2 Russia's card 8: "When or if Finland has attacked a Russian zone, including Viipuri,
  // Russia gets a permanent +10 Build Points to its income" (above the 80 of 2.8).
  if (finland_attacked_ && murphy_card(kRussia, "finnish_uprising") != nullptr) {
    bp_[kRussia] += murphy_value(kRussia, "finnish_uprising");
    log("income",
        "Uprising against the Finns: Russia adds " +
            std::to_string(murphy_value(kRussia, "finnish_uprising")) + " BP (4.4.2)",
        "4.4.2");
  }
  // 2.9: "Russia must subtract 10 Build Points every turn for each IC that is destroyed"; an IC
  // in Axis hands counts as destroyed (digest A21).
  int lost_ics = 0;
  for (int z = 0; z < g_->zone_count(); ++z)
    if (g_->zone(z).ic && (controller(z) == kAxis || inoperable(z, kIndustrialComplex))) ++lost_ics;
  if (lost_ics > 0) {
    const int pay = std::min(bp_[kRussia], lost_ics * r.destroyed_ic_penalty);
    bp_[kRussia] -= pay;
    log("income",
        "Russia loses " + std::to_string(pay) + " BP for " + std::to_string(lost_ics) + " lost ICs (2.9)",
        "2.9");
  }
  ++turn_;
  begin_turn();
}

std::vector<double> AaState::returns() const {
  if (winner_ == kNoSide) return {0.0, 0.0};
  return winner_ == kAxis ? std::vector<double>{1.0, -1.0} : std::vector<double>{-1.0, 1.0};
}

Json AaState::result() const {
  return Json{{"winner", winner_ == kAxis     ? "axis"
                         : winner_ == kRussia ? "russia"
                                              : "none"},
              {"turn", turn_},
              {"vp", axis_vp()},
              {"reason", end_reason_}};
}

}  // namespace steppe::aa
