// 2.4 control and 3.0 victory (3.1 VP hexes, 3.2 campaign conditions; the scenarios' missing
// 17.x conditions read as 3.2's for their year, ruling DV-S1). Not yet: the optional variable
// VP (3.2), the Military Road exits of Axis condition (2).
#include <algorithm>

#include "games/dv/dv.h"

namespace dv {

// 2.4: a hex belongs to the side that last occupied it (or last put it in its ZOC while it
// was empty, zoc_control). 12.7.1 an enemy unit occupying a Fort destroys it; 12.7.2 an Axis
// unit entering a Fortified Zone removes it.
void DvState::set_control(int h, int side) {
  if (h < 0) return;
  const size_t k = static_cast<size_t>(h);
  const HexInfo& hi = g_.hex(h);
  if ((hi.fort_owner == 1 - side || hi.weak_fort_owner == 1 - side) && fort_gone_[k] == 0) {
    fort_gone_[k] = 1;
    log("fort", "the Fort in " + g_.grid().id(h) + " is destroyed", "12.7.1");
  }
  if (side == kAxis && hi.fz && fz_gone_[k] == 0) {
    fz_gone_[k] = 1;
    log("fort", "the Fortified Zone in " + g_.grid().id(h) + " is removed", "12.7.2");
  }
  if (control_[k] == side) return;
  control_[k] = static_cast<int8_t>(side);
  if (hi.oil && side != kAxis && !air_.empty()) air_oil_check();  // 8.8
  if (hi.vp)
    log("control",
        std::string(side == kAxis ? "the Axis" : "the Soviets") + " take the VP hex " + g_.grid().id(h),
        "3.1");
}

// 2.4: an empty town, city, fort or oil hex in the ZOC of one side only passes to that side.
void DvState::zoc_control() {
  std::array<std::vector<uint8_t>, 2> z;
  compute_zoc(kAxis, z[0]);
  compute_zoc(kSoviet, z[1]);
  std::vector<uint8_t> occupied(static_cast<size_t>(g_.grid().size()), 0);
  for (size_t i = 0; i < units_.size(); ++i)
    if (units_[i].box == Box::kMap && g_.units()[i].ground) occupied[static_cast<size_t>(units_[i].hex)] = 1;
  for (int h = 0; h < g_.grid().size(); ++h) {
    const HexInfo& hi = g_.hex(h);
    const size_t k = static_cast<size_t>(h);
    if (occupied[k] != 0 ||
        !(hi.city || hi.vp || hi.oil || hi.fort_owner != kNeutral || hi.weak_fort_owner != kNeutral))
      continue;
    for (int side = 0; side < 2; ++side)
      if (z[static_cast<size_t>(side)][k] != 0 && z[static_cast<size_t>(1 - side)][k] == 0 &&
          control_[k] != side)
        set_control(h, side);
  }
}

// 3.1: the Axis VP score is the number of VP hexes it controls; W1642 only in 1945.
int DvState::vp() const {
  int v = 0;
  for (int h : g_.vp_hexes())
    if (control(h) == kAxis && (h != g_.vp_1945_only() || year() == 1945)) ++v;
  return v;
}

void DvState::finish(int winner, const std::string& why, const std::string& rule) {
  winner_ = winner;
  why_ = why + " (" + rule + ")";
  stage_ = Stage::kOver;
  active_ = kAxis;
  picked_ = target_ = -1;
  attackers_.clear();
  advancers_.clear();
  log("victory", std::string(winner == kAxis ? "The Axis wins: " : "The Soviets win: ") + why, rule);
}

// 3.2, checked in the Victory Check Segment; any one condition wins at once.
void DvState::victory_check() {
  const int v = vp();
  const TurnDef& td = g_.turn(turn_);
  const bool december = td.date.rfind("Dec", 0) == 0;
  auto axis_holds = [&](const char* place) {
    const int h = g_.place(place);
    return h >= 0 && control(h) == kAxis;
  };
  // Axis (1): in 1941, Moscow and Kiev or Leningrad.
  if (td.year == 1941 && axis_holds("moscow") && (axis_holds("kiev") || axis_holds("leningrad")))
    return finish(kAxis, "Moscow and Kiev or Leningrad held in 1941", "3.2");
  // Axis (3): 38 VP hexes.
  if (v >= 38) return finish(kAxis, "38 VP hexes held", "3.2");
  // Soviet: the VP thresholds by year, and VP 1 or less at any time.
  if (v <= 1) return finish(kSoviet, "Axis VP 1 or less", "3.2");
  if ((td.year == 1942 && v <= 28) || (td.year == 1943 && v <= 23) || (td.year == 1944 && v <= 13))
    return finish(kSoviet, "Axis VP " + std::to_string(v) + " in " + std::to_string(td.year), "3.2");
  // The Axis 41 / Axis 42 markers.
  if (td.year == 1941 && december && axis41_ < 0) {
    axis41_ = v;
    log("victory", "the Axis 41 marker is placed at " + std::to_string(v) + " VP", "3.2");
  }
  if (td.year == 1942 && !axis42_ && axis41_ >= 0 && v >= axis41_ + 3) {
    axis42_ = true;
    log("victory", "the Axis 42 marker is placed at " + std::to_string(v) + " VP", "3.2");
  }
  if (td.year == 1942 && december && !axis42_)
    return finish(kSoviet, "no Axis 42 marker by the end of December 1942", "3.2");
  if (turn_ >= last_turn_) {
    if (turn_ == 44) {
      const int berlin = g_.place("berlin");
      if (berlin >= 0 && control(berlin) == kSoviet && v <= 2)
        return finish(kSoviet, "Berlin Soviet and Axis VP 2 or less at the end of Turn 44", "3.2");
      return finish(kAxis, "no Soviet condition met by the end of Turn 44", "3.2");
    }
    // DV-S1: a scenario ends on its last turn with its year's condition.
    if (td.year == 1941)
      return finish(kSoviet, "Moscow and Kiev or Leningrad not taken by the end of the scenario",
                    "3.2, DV-S1");
    if (td.year == 1942 && !axis42_)
      return finish(kSoviet, "no Axis 42 marker by the end of the scenario", "3.2, DV-S1");
    return finish(kAxis, "no Soviet condition met by the end of the scenario", "3.2, DV-S1");
  }
}

}  // namespace dv
