// Moscow '41: The full state and its hash.
// Every rule cites its rulebook section (seeds/002).
#include "games/moscow41/state.h"
#include "games/moscow41/state_names.h"
#include "kernel/json_data.h"

namespace moscow41 {

Json Moscow41State::full_json() const {
  Json j;
  j["scenario"] = scenario_;
  Json opts = Json::array();
  for (int k = 0; k < kOptCount; ++k)
    if (options_[k]) opts.push_back(kOptions[k].name);
  j["options"] = opts;
  j["blizzard"] = blizzard_;
  j["turn"] = turn_;
  j["phase"] = static_cast<int>(phase_);
  j["impulse"] = static_cast<int>(impulse_);
  j["active"] = active_;
  j["initiative"] = initiative_;
  j["init_uses"] = {initiative_uses_[0], initiative_uses_[1]};
  j["init_month"] = {initiative_spent_this_turn_[0], initiative_spent_this_turn_[1]};
  j["passes"] = passes_in_row_;
  j["logistics_done"] = logistics_done_;
  j["weather"] = weather_;
  j["forecast"] = forecast_;
  j["german_impulses"] = german_impulses_;
  j["flags"] = {kiev_german_, shl_german_, len_german_, stalin_dead_, road_in_play_, hoepner_on_map_rule_};
  j["or14_2"] = {called_off_, zhukov_recalled_};
  j["losses"] = {surrendered_soviet_, destroyed_german_};
  j["actions_left"] = actions_left_;
  j["exploiting"] = exploiting_;
  j["hoepner_road"] = hoepner_road_;
  j["winner"] = winner_;
  j["dice"] = {dice_.seed(), dice_.counter()};
  Json bl = Json::array();
  for (const auto& s : blocks_)
    bl.push_back({s.loc, s.level, s.revealed, s.isolated, s.activated, s.acted, s.river, s.face_up, s.blitz,
                  s.blitzed});
  j["blocks"] = bl;
  Json ar = Json::array();
  for (const auto& a : areas_) ar.push_back({a.control, a.dl, a.contested_at_start, a.fought, a.artillery});
  j["areas"] = ar;
  j["bombers"] = {bomber_status_, bomber_area_, bomber_struck_};
  if (!blitz_moves_.empty()) j["blitz_moves"] = blitz_moves_;
  if (battle_.node >= 0)
    j["battle"] = {battle_.node,        battle_.step,      battle_.absorb,
                   battle_.tank_attack, battle_.blitz,     battle_.attackers,
                   battle_.loss_side,   battle_.loss_hits, battle_.aa_hits};
  if (phase_ == Phase::kReplace || phase_ == Phase::kDeploy)
    j["points"] = {regen_left_, repl_left_, draws_left_};
  if (!setup_.empty()) {
    Json su = Json::array();
    for (const SetupPiece& p : setup_)
      su.push_back({p.side, p.block, static_cast<int>(p.rule), p.hq, p.front, p.exclude, p.level, p.face_up});
    j["setup"] = su;
  }
  return j;
}

uint64_t Moscow41State::state_hash() const { return steppe::fnv1a64(full_json().dump()); }

}  // namespace moscow41
