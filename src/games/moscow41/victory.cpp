// Moscow '41: Victory (1.7, 13.0 and the scenario conditions).
// Every rule cites its rulebook section (seeds/002).
#include "games/moscow41/state.h"

namespace moscow41 {

int Moscow41State::victory_points(int side) const {
  // 1.7: 5 Victory Areas + the Kiev and Leningrad boxes.
  int vp = 0;
  for (int n = 0; n < g_.map().area_count(); ++n)
    if (ad(n).terrain == kVictory && area(n).control == side) ++vp;
  const bool kiev = side == kGerman ? kiev_german_ : !kiev_german_;
  const bool len = side == kGerman ? len_german_ : !len_german_;
  return vp + (kiev ? 1 : 0) + (len ? 1 : 0);
}

std::vector<double> Moscow41State::returns() const {
  if (winner_ == kGerman) return {1.0, -1.0};
  if (winner_ == kSoviet) return {-1.0, 1.0};
  return {0.0, 0.0};
}

Json Moscow41State::result() const {
  Json r{{"turn", turn_}, {"vp", {{"german", victory_points(kGerman)}, {"soviet", victory_points(kSoviet)}}}};
  if (phase_ == Phase::kOver)
    r["winner"] = winner_ == kGerman ? "german" : winner_ == kSoviet ? "soviet" : "draw";
  if (!result_kind_.empty()) r["kind"] = result_kind_;
  return r;
}

void Moscow41State::update_victory() {
  if (phase_ == Phase::kOver) return;
  // 4.2.4: if Moscow falls, Stalin dies.
  const int stalin = g_.block_index("Stalin");
  if (!stalin_dead_ && area(g_.moscow()).control == kGerman && stalin >= 0) {
    stalin_dead_ = true;
    if (block(stalin).loc >= 0) bs(stalin).loc = kLocSurrendered;
    log("leader", "Moscow has fallen: Stalin dies; no more Soviet Logistics Phases", "4.2.4");
  }
  auto finish = [&](int w, const std::string& kind, const std::string& rule) {
    winner_ = w;
    result_kind_ = kind;
    phase_ = Phase::kOver;
    log("victory", std::string(side_name(w)) + " wins: " + kind, rule);
  };
  const VictoryRules* v = g_.victory_rules(victory_kind_);  // nullptr for "none"
  if (v == nullptr) return;
  if (v->sudden_death_vp)  // 1.7
    for (int s : {kGerman, kSoviet})
      if (victory_points(s) >= g_.tables().sudden_death_vp)
        return finish(s, "decisive victory (sudden death)", v->rule);
  // The scenarios' Special Victory Conditions (data/moscow41/scenarios/*.json).
  for (const auto& win : v->german_wins_at_once) {
    bool met = true;
    for (int n : win.german_dls) met = met && area(n).dl == kGerman;
    for (int n : win.german_controls) met = met && area(n).control == kGerman;
    if (met) return finish(kGerman, v->german_win, v->rule);
  }
}

}  // namespace moscow41
