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
  if (victory_kind_ == "campaign") {
    for (int s : {kGerman, kSoviet})
      if (victory_points(s) >= g_.tables().sudden_death_vp)
        return finish(s, "decisive victory (sudden death)", "1.7");
  } else if (victory_kind_ == "dnieper") {
    // Scenario 1: German DLs in Yelnia and Yartsevo, or Chernigov and Romny German.
    const int yelnia = g_.node("91"), yartsevo = g_.node("68");
    bool specials = true;
    int count = 0;
    for (int n = 0; n < g_.map().area_count(); ++n)
      if (ad(n).special_city) {
        ++count;
        specials = specials && area(n).control == kGerman;
      }
    if ((area(yelnia).dl == kGerman && area(yartsevo).dl == kGerman) || (count == 2 && specials))
      return finish(kGerman, "German victory (Beyond the Dnieper)", "Scenario 1");
  } else if (victory_kind_ == "moscow") {
    if (area(g_.moscow()).control == kGerman)
      return finish(kGerman, "German victory: Moscow taken", "Scenarios 2-3");
  }
}

}  // namespace moscow41
