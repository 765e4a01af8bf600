// Scenario-test words (docs/scenario-tests.md): set-up and queries for tests/rulebook/aa/.
// Never on the server's path.
//
//   set clear                      no units, nothing pending
//   set units ZONE UNIT N          N units (UNIT as in notation; nation:type for a minor)
//   set control ZONE axis|russia   control since the start (held a full turn)
//   set bp axis|russia|lend-lease|siberian N
//   set card axis|russia CARD      4.4: that side drew CARD (2-10, J, Q, K, A) this turn (option murphy)
//   expect card axis = CARD        this turn's card, or none
//   set general ZONE NAME          4.5: that general (option generals) takes the field in ZONE
//   expect generals waiting = N    generals picked and not yet placed
//   set damage ZONE FACILITY N     3.37 damage points on a facility (industrial_complex, air_base, ...)
//   set step TURN CI SIDE PHASE    turn, side with Combat Initiative, and the step to go to
//                                  ("set step 1 axis russia place")
//   expect units ZONE UNIT = N     expect control ZONE = axis     expect bp axis = N
//   expect phase = axis combat-move                                expect vp = N
//   expect damage ZONE FACILITY = N (industrial_complex, air_base, naval_base, railroad)
//   expect pending UNIT = N        expect damaged ZONE UNIT = N    expect ci = axis
#include <algorithm>
#include <charconv>

#include "games/aa/state.h"

namespace steppe::aa {

namespace {

int to_int(const std::string& w) {
  int v = -1;
  const auto r = std::from_chars(w.data(), w.data() + w.size(), v);
  return r.ec == std::errc{} && r.ptr == w.data() + w.size() ? v : -1;
}

int side_word(const std::string& w) { return w == "axis" ? kAxis : w == "russia" ? kRussia : -1; }

}  // namespace

struct Hooks {
  static bool unit(const AaState& s, const std::string& w, int& nation, int& type) {
    const size_t colon = w.find(':');
    if (colon == std::string::npos) {
      type = s.aa().base_index(w);
      nation = s.active_ == kAxis ? kGermany : kRussiaNation;
      // A type only the other side fields (guard_armor while the Axis move) is that side's.
      if (type >= 0 && !s.aa().base(type).nations.empty() && s.aa().base(type).nations.front() == "russia")
        nation = kRussiaNation;
      if (type >= 0 && !s.aa().base(type).nations.empty() && s.aa().base(type).nations.front() == "germany")
        nation = kGermany;
    } else {
      nation = nation_from_id(w.substr(0, colon));
      type = s.aa().base_index(w.substr(colon + 1));
    }
    return nation >= 0 && type >= 0;
  }
};

Status AaState::test_set(const std::vector<std::string>& w) {
  const auto bad = [&]() { return Error{"unknown set-up words (see src/games/aa/test_hooks.cpp)", "", ""}; };
  if (w.empty()) return bad();
  if (w[0] == "clear" && w.size() == 1) {
    units_.clear();
    pending_.clear();
    return Status::ok();
  }
  if (w[0] == "units" && w.size() == 4) {
    const int z = g_->zone_index(w[1]);
    int nation = -1, type = -1;
    const int n = to_int(w[3]);
    if (z < 0 || n < 0) return bad();
    // "russia:infantry" names Russia's; a bare type is the side to move's (or its only owner's).
    if (w[2].rfind("russia:", 0) == 0) {
      nation = kRussiaNation;
      type = g_->base_index(w[2].substr(7));
    } else if (w[2].rfind("germany:", 0) == 0) {
      nation = kGermany;
      type = g_->base_index(w[2].substr(8));
    } else if (!Hooks::unit(*this, w[2], nation, type)) {
      return bad();
    }
    if (type < 0) return bad();
    std::vector<Unit> kept;
    for (const Unit& u : units_)
      if (!(u.zone == z && u.nation == nation && u.type == type)) kept.push_back(u);
    units_ = std::move(kept);
    for (int i = 0; i < n; ++i) {
      Unit u;
      u.nation = nation;
      u.type = type;
      u.zone = z;
      u.mp = phase_ == Phase::kCombatMove || phase_ == Phase::kNonCombatMove ? g_->base(type).movement : 0;
      units_.push_back(u);
    }
    return Status::ok();
  }
  if (w[0] == "control" && w.size() == 3) {
    const int z = g_->zone_index(w[1]);
    const int side = side_word(w[2]);
    if (z < 0 || side < 0) return bad();
    control_[static_cast<size_t>(z)] = side;
    captured_[static_cast<size_t>(z)] = 0;
    return Status::ok();
  }
  if (w[0] == "card" && w.size() == 3 && murphy_) {
    const int side = side_word(w[1]);
    if (side < 0) return bad();
    const auto& chart = g_->murphy(side);
    for (size_t i = 0; i < chart.size(); ++i)
      if (chart[i].card == w[2]) {
        card_[static_cast<size_t>(side)] = static_cast<int>(i);
        if (chart[i].duration == "game") kept_[static_cast<size_t>(side)] |= static_cast<uint16_t>(1u << i);
        return Status::ok();
      }
    return bad();
  }
  if (w[0] == "general" && w.size() == 3 && generals_) {
    const int z = g_->zone_index(w[1]);
    for (size_t i = 0; i < g_->generals().size(); ++i)
      if (z >= 0 && g_->generals()[i].name == w[2]) {
        Unit u;
        u.nation = g_->generals()[i].nation;
        u.type = g_->base_index("general");
        u.zone = z;
        u.general = static_cast<int>(i) + 1;
        u.mp =
            phase_ == Phase::kCombatMove || phase_ == Phase::kNonCombatMove ? g_->base(u.type).movement : 0;
        units_.push_back(u);
        generals_drawn_ |= 1u << i;
        generals_waiting_.erase(
            std::remove(generals_waiting_.begin(), generals_waiting_.end(), static_cast<int>(i)),
            generals_waiting_.end());
        return Status::ok();
      }
    return bad();
  }
  if (w[0] == "damage" && w.size() == 4) {
    const int z = g_->zone_index(w[1]);
    const int n = to_int(w[3]);
    for (int t = 0; t <= kRailroad; ++t)
      if (z >= 0 && n >= 0 && w[2] == sbr_target_id(t)) {
        damage_[static_cast<size_t>(t)][static_cast<size_t>(z)] = n;
        return Status::ok();
      }
    return bad();
  }
  if (w[0] == "bp" && w.size() == 3) {
    const int n = to_int(w[2]);
    if (n < 0) return bad();
    if (w[1] == "axis") {
      bp_[kAxis] = n;
    } else if (w[1] == "russia") {
      bp_[kRussia] = n;
    } else if (w[1] == "lend-lease") {
      lend_lease_bp_ = n;
    } else if (w[1] == "siberian") {
      siberian_bp_ = n;
    } else {
      return bad();
    }
    return Status::ok();
  }
  if (w[0] == "step" && w.size() == 5) {
    const int t = to_int(w[1]), ci = side_word(w[2]), side = side_word(w[3]);
    if (t < 1 || ci < 0 || side < 0) return bad();
    turn_ = t;
    ci_ = ci;
    const int st = step_index(side == ci, w[4]);
    if (st < 0) return bad();
    enter_step(st);
    return Status::ok();
  }
  return bad();
}

Result<std::string> AaState::test_query(const std::vector<std::string>& w) const {
  const auto bad = [&]() -> Result<std::string> {
    return Error{"unknown query (see src/games/aa/test_hooks.cpp)", "", ""};
  };
  if (w.size() == 1 && w[0] == "phase")
    return std::string(active_ == kAxis ? "axis " : "russia ") + phase_name(phase_);
  if (w.size() == 1 && w[0] == "vp") return std::to_string(axis_vp());
  if (w.size() == 1 && w[0] == "turn") return std::to_string(turn_);
  if (w.size() == 1 && w[0] == "ci") return std::string(ci_ == kAxis ? "axis" : "russia");
  if (w.size() == 1 && w[0] == "battles") return std::to_string(battles_.size());
  if (w.size() == 2 && w[0] == "generals" && w[1] == "waiting")
    return std::to_string(generals_waiting_.size());
  if (w.size() == 2 && w[0] == "card" && side_word(w[1]) >= 0) {
    const int c = card_[static_cast<size_t>(side_word(w[1]))];
    return c < 0 ? std::string("none") : g_->murphy(side_word(w[1]))[static_cast<size_t>(c)].card;
  }
  if ((w[0] == "units" || w[0] == "damaged") && w.size() == 3) {
    const int z = g_->zone_index(w[1]);
    int nation = -1, type = -1;
    if (z < 0) return bad();
    if (w[2].rfind("russia:", 0) == 0) {
      nation = kRussiaNation;
      type = g_->base_index(w[2].substr(7));
    } else if (w[2].rfind("germany:", 0) == 0) {
      nation = kGermany;
      type = g_->base_index(w[2].substr(8));
    } else if (!Hooks::unit(*this, w[2], nation, type)) {
      return bad();
    }
    int n = 0;
    for (const Unit& u : units_)
      if (u.zone == z && u.nation == nation && u.type == type && (w[0] == "units" || u.damage > 0)) ++n;
    return std::to_string(n);
  }
  if (w[0] == "damage" && w.size() == 3) {
    const int z = g_->zone_index(w[1]);
    for (int t = 0; t <= kRailroad; ++t)
      if (z >= 0 && w[2] == sbr_target_id(t)) return std::to_string(damage(z, t));
    return bad();
  }
  if (w[0] == "control" && w.size() == 2) {
    const int z = g_->zone_index(w[1]);
    if (z < 0) return bad();
    return std::string(controller(z) == kAxis ? "axis" : controller(z) == kRussia ? "russia" : "none");
  }
  if (w[0] == "bp" && w.size() == 2) {
    if (w[1] == "axis") return std::to_string(bp_[kAxis]);
    if (w[1] == "russia") return std::to_string(bp_[kRussia]);
    if (w[1] == "lend-lease") return std::to_string(lend_lease_bp_);
    if (w[1] == "siberian") return std::to_string(siberian_bp_);
    return bad();
  }
  if (w[0] == "pending" && w.size() == 2) {
    int nation = -1, type = -1;
    if (!Hooks::unit(*this, w[1], nation, type)) return bad();
    int n = 0;
    for (const Pending& p : pending_)
      if (p.nation == nation && p.type == type) n += p.count;
    return std::to_string(n);
  }
  return bad();
}

}  // namespace steppe::aa
