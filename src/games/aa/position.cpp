// The Axis & Allies-style Barbarossa: the position format (kernel/position.h, docs/saves.md
// "Positions").
//
// Everything that happened, by name: nations, unit types and zones by their ids (data/aa/),
// phases and sides by their words. Units have no ids of their own, so they are listed in
// the order the state keeps them (which fixes the order of casualties and moves), equal
// neighbours merged with a "count". What the scenario fixes (the last turn, 1.3) is not
// written: it comes from the installed rules data. Everything is open information (no rule
// of this game hides anything); the dice stream is written too.
#include "kernel/position.h"

#include <algorithm>
#include <string>

#include "games/aa/state.h"

namespace steppe::aa {

namespace {

constexpr int kPositionVersion = 1;

constexpr const char* kSideWords[] = {"axis", "russia"};
constexpr const char* kWinnerWords[] = {"none", "axis", "russia"};  // kNoSide + 1
constexpr const char* kControlWords[] = {"none", "axis", "russia"};
constexpr const char* kPoolWords[] = {"main", "lend-lease", "siberian"};  // Pool
constexpr const char* kPhaseWords[] = {"purchase",        "combat-move", "combat", "blitz",
                                       "non-combat-move", "rail",        "place",  "over"};  // Phase
constexpr const char* kFacilityWords[] = {"industrial_complex", "air_base", "naval_base", "railroad"};
constexpr const char* kTargetWords[] = {
    "industrial_complex", "air_base", "naval_base", "railroad", "aa_gun", "supply", "train"};  // SbrTarget
constexpr const char* kNationWords[] = {"germany",  "hungary", "italy", "romania",
                                        "bulgaria", "finland", "spain", "russia"};  // Nation

bool same(const Unit& a, const Unit& b) {
  return a.nation == b.nation && a.type == b.type && a.zone == b.zone && a.damage == b.damage &&
         a.mp == b.mp && a.from == b.from && a.locked == b.locked && a.marsh_turn == b.marsh_turn &&
         a.rail == b.rail && a.morale == b.morale && a.carried == b.carried && a.dropped == b.dropped &&
         a.general == b.general;
}

}  // namespace

Result<Json> AaState::position() const {
  const auto zone_id = [&](int z) -> Json { return z >= 0 ? Json(g_->zone(z).id) : Json(nullptr); };
  const auto per_side = [](const auto& v) { return Json{{"axis", v[kAxis]}, {"russia", v[kRussia]}}; };
  Json j;
  j["version"] = kPositionVersion;
  j["scenario"] = scenario_;
  j["options"] = Json::array();
  if (casualty_chart_) j["options"].push_back("casualty-chart");
  if (murphy_) j["options"].push_back("murphy");
  if (generals_) {
    j["options"].push_back("generals");
    // 4.5: the generals picked so far, those waiting to be placed, the commander of each battle.
    Json drawn = Json::array(), waiting = Json::array(), command = Json::object();
    for (size_t i = 0; i < g_->generals().size(); ++i)
      if ((generals_drawn_ & (1u << i)) != 0) drawn.push_back(g_->generals()[i].name);
    for (int id : generals_waiting_) waiting.push_back(g_->generals()[static_cast<size_t>(id)].name);
    for (int z = 0; z < g_->zone_count(); ++z)
      if (battle_general_[static_cast<size_t>(z)] > 0)
        command[g_->zone(z).id] =
            g_->generals()[static_cast<size_t>(battle_general_[static_cast<size_t>(z)] - 1)].name;
    j["generals"] = {{"drawn", drawn}, {"waiting", waiting}, {"command", command}};
  }
  if (murphy_) {
    // 4.4: the cards out of each deck, this turn's cards, the game-long ones (chart rows, 0 = "2").
    const auto rows = [](uint16_t mask) {
      Json a = Json::array();
      for (int i = 0; i < 16; ++i)
        if ((mask & (1u << i)) != 0) a.push_back(i);
      return a;
    };
    j["murphy"] = {{"drawn", {{"axis", rows(drawn_[0])}, {"russia", rows(drawn_[1])}}},
                   {"card", {{"axis", card_[0]}, {"russia", card_[1]}}},
                   {"kept", {{"axis", rows(kept_[0])}, {"russia", rows(kept_[1])}}},
                   {"ci_two_dice_turn", ci_two_dice_turn_},
                   {"protected", protected_zone_ >= 0 ? Json(g_->zone(protected_zone_).id) : Json(nullptr)},
                   {"finland_attacked", finland_attacked_}};
  }
  j["turn"] = turn_;
  j["phase"] = phase_name(phase_);  // 1.2; with "active" and "ci" it names the step of the turn
  j["active"] = kSideWords[active_];
  j["ci"] = kSideWords[ci_];  // 1.2.1
  j["winner"] = kWinnerWords[winner_ + 1];
  j["end_reason"] = end_reason_;
  j["bp"] = {{"germany", bp_[kAxis]},
             {"russia", bp_[kRussia]},
             {"lend_lease", lend_lease_bp_},    // 2.10
             {"siberian", siberian_bp_}};       // 2.11
  j["elite_bought"] = per_side(elite_bought_);  // 3.2
  j["kerch_used"] = per_side(kerch_used_);
  j["winter_war"] = winter_war_;  // 2.12
  Json mob = Json::array();
  for (int n = 0; n < kNationCount; ++n)
    if (mobilized_[static_cast<size_t>(n)]) mob.push_back(nation_id(n));
  j["mobilized"] = std::move(mob);    // 2.4-2.7
  j["spain_joined"] = spain_joined_;  // 2.7
  Json first = Json::object();
  for (int s : {kAxis, kRussia}) {
    Json types = Json::array();
    for (int t : casualty_first_[static_cast<size_t>(s)]) types.push_back(g_->base(t).id);
    first[kSideWords[s]] = std::move(types);
  }
  j["casualty_first"] = std::move(first);  // 3.36.2.3
  steppe::write_dice(j["dice"], dice_);

  Json units = Json::array();
  for (size_t i = 0; i < units_.size();) {
    const Unit& u = units_[i];
    size_t n = 1;
    while (i + n < units_.size() && same(units_[i + n], u)) ++n;
    // Fields at their default are left out.
    Json x{{"nation", nation_id(u.nation)}, {"type", g_->base(u.type).id}, {"zone", g_->zone(u.zone).id}};
    if (n > 1) x["count"] = n;
    if (u.damage != 0) x["damage"] = u.damage;                                                  // 3.2
    if (u.mp != 0) x["mp"] = u.mp;                                                              // 3.25
    if (u.from >= 0) x["from"] = g_->zone(u.from).id;                                           // 3.29
    if (u.locked) x["locked"] = true;                                                           // 2.4-2.6
    if (u.marsh_turn != 0) x["marsh_turn"] = u.marsh_turn;                                      // 3.31
    if (u.rail != 0) x["rail"] = u.rail;                                                        // 3.35
    if (u.morale != 0) x["morale"] = u.morale;                                                  // 3.33
    if (u.carried != 0) x["carried_by"] = g_->base(u.carried - 1).id;                           // 3.7, 3.23
    if (u.dropped) x["dropped"] = true;                                                         // 3.13
    if (u.general > 0) x["general"] = g_->generals()[static_cast<size_t>(u.general - 1)].name;  // 4.5
    units.push_back(std::move(x));
    i += n;
  }
  j["units"] = std::move(units);
  Json pend = Json::array();
  for (const Pending& p : pending_)
    pend.push_back({{"nation", nation_id(p.nation)},
                    {"type", g_->base(p.type).id},
                    {"pool", kPoolWords[p.pool]},
                    {"count", p.count}});
  j["pending"] = std::move(pend);  // 1.2.3, 1.2.9

  Json zones = Json::object();
  for (int z = 0; z < g_->zone_count(); ++z) {
    const auto k = static_cast<size_t>(z);
    Json x{{"control", kControlWords[control_[k] + 1]}};
    if (captured_[k] != 0) x["captured"] = captured_[k];
    if (battle_fought_[k] != 0) x["battle_fought"] = true;  // 3.26, 3.30
    if (attacked_[k] != 0) x["attacked"] = true;
    if (supplied_[k] != 0) x["supplied"] = true;                      // 3.24
    if (placed_other_[k] != 0) x["placed_other"] = placed_other_[k];  // 2.9
    if (placed_infantry_[k] != 0) x["placed_infantry"] = placed_infantry_[k];
    if (placed_supply_[k] != 0) x["placed_supply"] = placed_supply_[k];  // 3.24
    if (battle_rounds_[k] != 0) x["battle_rounds"] = battle_rounds_[k];
    if (shipped_[k] != 0) x["shipped"] = shipped_[k];  // 3.28
    Json dmg = Json::object();
    for (size_t f = 0; f < damage_.size(); ++f)
      if (damage_[f][k] != 0) dmg[kFacilityWords[f]] = damage_[f][k];  // 3.37
    if (!dmg.empty()) x["damage"] = std::move(dmg);
    zones[g_->zone(z).id] = std::move(x);
  }
  j["zones"] = std::move(zones);
  Json battles = Json::array();
  for (int z : battles_) battles.push_back(g_->zone(z).id);
  j["battles"] = std::move(battles);  // 3.36: still to fight, in order
  Json raids = Json::array();
  for (const Raid& r : raids_)
    raids.push_back({{"zone", g_->zone(r.zone).id},
                     {"target", sbr_target_id(r.target)},
                     {"from", g_->zone(r.from).id},
                     {"nation", nation_id(r.nation)},
                     {"type", g_->base(r.type).id},
                     {"count", r.count}});
  j["raids"] = std::move(raids);                 // 3.36.1
  j["decision_zone"] = zone_id(decision_zone_);  // 3.33
  j["withdraw_left"] = withdraw_left_;           // 3.33: -1 not rolled
  return j;
}

Status AaState::read_position(const JsonReader& r) {
  const AaGame& g = *g_;
  const auto find_zone = [&](std::string_view id) { return g.zone_index(id); };
  const auto find_type = [&](std::string_view id) { return g.base_index(id); };
  const auto zone = [&](const JsonReader& x, bool nullable = false) {
    return steppe::read_id(x, find_zone, "zone", nullable);
  };
  const auto type = [&](const JsonReader& x) {
    return std::max(0, steppe::read_id(x, find_type, "unit type"));
  };
  const auto nation = [](const JsonReader& x) { return x.as_word(kNationWords); };
  const auto side = [](const JsonReader& x) { return x.as_word(kSideWords); };
  const int zones = g.zone_count();

  r.int_in("version", kPositionVersion, kPositionVersion);
  turn_ = r.int_in("turn", 1, 99);
  phase_ = static_cast<Phase>(r.at("phase").as_word(kPhaseWords));
  active_ = side(r.at("active"));
  ci_ = side(r.at("ci"));
  // 1.2: the step is the phase of the CI side or of the other; the game ends after the last.
  step_ = phase_ == Phase::kOver ? step_index(false, phase_name(Phase::kPlace))
                                 : step_index(active_ == ci_, phase_name(phase_));
  winner_ = r.at("winner").as_word(kWinnerWords) - 1;
  if ((winner_ != kNoSide) != (phase_ == Phase::kOver))
    r.at("winner").fail_value("a game has a winner exactly when its phase is \"over\" (1.3)");
  end_reason_ = r.str("end_reason");
  const JsonReader bp = r.at("bp");
  bp_[kAxis] = bp.int_in("germany", 0, 99999);
  bp_[kRussia] = bp.int_in("russia", 0, 99999);
  lend_lease_bp_ = bp.int_in("lend_lease", 0, 99999);
  siberian_bp_ = bp.int_in("siberian", 0, 99999);
  for (int s : {kAxis, kRussia}) {
    elite_bought_[static_cast<size_t>(s)] = r.at("elite_bought").int_in(kSideWords[s], 0, 99);
    kerch_used_[static_cast<size_t>(s)] = r.at("kerch_used").int_in(kSideWords[s], 0, 999);
  }
  winter_war_ = r.boolean("winter_war");
  if (generals_) {
    const JsonReader gj = r.at("generals");
    const auto find_general = [&](const JsonReader& x) {
      const std::string name = x.as_str();
      for (size_t i = 0; i < g.generals().size(); ++i)
        if (g.generals()[i].name == name) return static_cast<int>(i);
      x.fail_value("no such general (4.5)");
      return 0;
    };
    generals_drawn_ = 0;
    for (const JsonReader& x : gj.at("drawn").elements()) generals_drawn_ |= 1u << find_general(x);
    generals_waiting_.clear();
    for (const JsonReader& x : gj.at("waiting").elements()) generals_waiting_.push_back(find_general(x));
    for (const auto& [zid, x] : gj.at("command").members()) {
      const int z = g.zone_index(zid);
      if (z < 0) {
        x.fail("no zone \"" + zid + "\"");
        continue;
      }
      battle_general_[static_cast<size_t>(z)] = find_general(x) + 1;
    }
  }
  if (murphy_) {
    const JsonReader m = r.at("murphy");
    const auto rows = [](const JsonReader& x) {
      uint16_t mask = 0;
      for (const JsonReader& e : x.elements()) mask |= static_cast<uint16_t>(1u << e.as_int_in(0, 12));
      return mask;
    };
    for (int s : {kAxis, kRussia}) {
      drawn_[static_cast<size_t>(s)] = rows(m.at("drawn").at(kSideWords[s]));
      kept_[static_cast<size_t>(s)] = rows(m.at("kept").at(kSideWords[s]));
      card_[static_cast<size_t>(s)] = m.at("card").int_in(kSideWords[s], -1, 12);
    }
    ci_two_dice_turn_ = m.int_in("ci_two_dice_turn", 0, 99);
    protected_zone_ = zone(m.at("protected"), true);  // 4.4.2 Russia's card 5
    finland_attacked_ = m.boolean("finland_attacked");
  }
  mobilized_.fill(false);
  for (const JsonReader& x : r.at("mobilized").elements()) mobilized_[static_cast<size_t>(nation(x))] = true;
  spain_joined_ = r.boolean("spain_joined");
  for (int s : {kAxis, kRussia}) {
    auto& first = casualty_first_[static_cast<size_t>(s)];
    first.clear();
    for (const JsonReader& x : r.at("casualty_first").at(kSideWords[s]).elements()) {
      const int t = type(x);
      if (std::find(first.begin(), first.end(), t) != first.end())
        x.fail_value("a type is named once in a casualty order (3.36.2.3)");
      else if (x.ok() && !g.base(t).combatant)
        x.fail_value("this type is never chosen as a casualty (3.36.2.3)");
      first.push_back(t);
    }
  }
  steppe::read_dice(r.at("dice"), dice_);

  units_.clear();
  for (const JsonReader& x : r.at("units").elements()) {
    x.allow_only({"nation", "type", "zone", "count", "damage", "mp", "from", "locked", "marsh_turn", "rail",
                  "morale", "carried_by", "dropped", "general"});
    Unit u;
    u.nation = nation(x.at("nation"));
    u.type = type(x.at("type"));
    u.zone = std::max(0, zone(x.at("zone")));
    const int count = x.has("count") ? x.int_in("count", 1, 999) : 1;
    u.damage = x.has("damage") ? x.int_in("damage", 0, std::max(0, g.base(u.type).hits - 1)) : 0;  // 3.2
    u.mp = x.has("mp") ? x.int_in("mp", 0, 99) : 0;
    u.from = x.has("from") ? zone(x.at("from"), true) : -1;
    u.locked = x.boolean_or("locked", false);
    u.marsh_turn = x.has("marsh_turn") ? x.int_in("marsh_turn", 0, 99) : 0;
    u.rail = x.has("rail") ? x.int_in("rail", 0, 3) : 0;  // 3: ran again (4.4.1 Axis card 2)
    u.morale = x.has("morale") ? x.int_in("morale", 0, 2) : 0;
    u.carried = x.has("carried_by") ? type(x.at("carried_by")) + 1 : 0;  // 3.7, 3.23
    u.dropped = x.boolean_or("dropped", false);                          // 3.13
    u.general = 0;
    if (x.has("general")) {  // 4.5
      const std::string name = x.str("general");
      for (size_t i = 0; i < g.generals().size(); ++i)
        if (g.generals()[i].name == name) u.general = static_cast<int>(i) + 1;
      if (u.general == 0 || u.type != g.base_index("general"))
        x.at("general").fail_value("no such general (4.5)");
    }
    if (!r.ok()) continue;
    units_.insert(units_.end(), static_cast<size_t>(count), u);
  }
  pending_.clear();
  for (const JsonReader& x : r.at("pending").elements()) {
    Pending p;
    p.nation = nation(x.at("nation"));
    p.type = type(x.at("type"));
    p.pool = x.at("pool").as_word(kPoolWords);
    p.count = x.int_in("count", 1, 999);
    pending_.push_back(p);
  }

  const JsonReader zs = r.at("zones");
  steppe::check_ids(zs, find_zone, "zone");
  for (int z = 0; z < zones; ++z) {
    const auto k = static_cast<size_t>(z);
    const JsonReader x = zs.at(g.zone(z).id);
    if (!x.is_object()) {
      (void)x.members();  // reports what it is instead (nothing more if it is absent: reported)
      continue;
    }
    x.allow_only({"control", "captured", "battle_fought", "attacked", "supplied", "placed_other",
                  "placed_infantry", "placed_supply", "battle_rounds", "damage", "shipped"});
    control_[k] = x.at("control").as_word(kControlWords) - 1;
    if (control_[k] != kNoSide && !g.zone(z).land())
      x.at("control").fail_value("a sea or lake is held by no side");
    const auto num = [&](const char* key, int hi) { return x.has(key) ? x.int_in(key, 0, hi) : 0; };
    captured_[k] = num("captured", 99);
    battle_fought_[k] = x.boolean_or("battle_fought", false) ? 1 : 0;
    attacked_[k] = x.boolean_or("attacked", false) ? 1 : 0;
    supplied_[k] = x.boolean_or("supplied", false) ? 1 : 0;
    placed_other_[k] = num("placed_other", 999);
    placed_infantry_[k] = num("placed_infantry", 999);
    placed_supply_[k] = num("placed_supply", 999);
    battle_rounds_[k] = num("battle_rounds", 999);
    shipped_[k] = num("shipped", 99);  // 3.28
    for (auto& d : damage_) d[k] = 0;
    if (const auto dmg = x.opt("damage")) {
      for (const auto& [facility, v] : dmg->members()) {
        size_t f = 0;
        while (f < damage_.size() && facility != kFacilityWords[f]) ++f;
        if (f == damage_.size()) {
          v.fail(
              "not a facility that takes damage (industrial_complex, air_base, naval_base, railroad; 3.37)");
          continue;
        }
        damage_[f][k] = v.as_int_in(0, g.rules().facility_capacity[f]);
      }
    }
  }
  battles_.clear();
  for (const JsonReader& x : r.at("battles").elements()) battles_.push_back(std::max(0, zone(x)));
  raids_.clear();
  for (const JsonReader& x : r.at("raids").elements()) {
    Raid raid{};
    raid.zone = std::max(0, zone(x.at("zone")));
    raid.target = x.at("target").as_word(kTargetWords);
    raid.from = std::max(0, zone(x.at("from")));
    raid.nation = nation(x.at("nation"));
    raid.type = type(x.at("type"));
    raid.count = x.int_in("count", 1, 999);
    raids_.push_back(raid);
  }
  decision_zone_ = zone(r.at("decision_zone"), true);
  withdraw_left_ = r.int_in("withdraw_left", -1, 99);
  // 3.33: the defender decides about a battle of this combat step, and rolls only then.
  if (decision_zone_ >= 0 && (phase_ != Phase::kCombat ||
                              std::find(battles_.begin(), battles_.end(), decision_zone_) == battles_.end()))
    r.at("decision_zone")
        .fail_value("a retreat decision is about a battle still to fight in the combat step (3.33)");
  if (decision_zone_ < 0 && withdraw_left_ >= 0)
    r.at("withdraw_left").fail_value("the retreat roll is made only in a retreat decision (3.33)");
  return r.status();
}

Result<std::unique_ptr<State>> AaGame::state_from_position(const Json& position) const {
  return new_state_from_position<AaState>(*this, position);
}

}  // namespace steppe::aa
