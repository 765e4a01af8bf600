// Moscow '41: The actions: legal actions, checks and their application, by verb.
// Every rule cites its rulebook section (seeds/002).
#include <algorithm>

#include "games/moscow41/state.h"

namespace moscow41 {

using steppe::Action;
using steppe::rule_error;
using steppe::Status;

// ----------------------------------------------------------------------------------------
// Actions
namespace {
Action make(uint16_t verb, std::initializer_list<int> args = {}) {
  Action a;
  a.verb = verb;
  for (int x : args) a.push(x);
  return a;
}
}  // namespace

void Moscow41State::legal_actions(std::vector<Action>& out) const {
  out.clear();
  if (phase_ == Phase::kOver) return;
  std::vector<Action> cand;
  auto add_moves = [&](uint16_t verb, int b, bool engage, bool hq_act) {
    // The destinations come from reachable(), so one check() of the block's other
    // conditions stands for all of them (check_move would accept each).
    bool first = true;
    for (const auto& p : reachable(b, engage, hq_act)) {
      Action a;
      a.verb = verb;
      a.push(b);
      a.push(p.back());
      if (first && !check(a).is_ok()) return;
      first = false;
      out.push_back(a);
    }
    if (first || (verb != kVMove && verb != kVActivate)) return;
    for (const auto& p : route_choices(b, engage)) {  // 10.8: routes with other effects
      Action r;
      r.verb = verb;
      r.push(b);
      for (int n : p) r.push(n);
      out.push_back(r);
    }
  };
  auto add_recalls = [&](int b) {  // OR 14.2
    if (!options_[kOptZhukovHoepner] || block(b).loc < 0 || is_area(block(b).loc)) return;
    if (!(def(b).letter == 'L' || def(b).id == "Zhukov")) return;
    for (int n = 0; n < g_.map().area_count(); ++n) cand.push_back(make(kVRecall, {b, n}));
  };
  auto add_rails = [&](int b) {  // OR 14.4: the block's conditions once, then each destination
    if (!options_[kOptRail]) return;
    const auto dests = rail_destinations(b);
    if (dests.empty() || !check_rail(b, dests[0]).is_ok()) return;
    for (int n : dests) out.push_back(make(kVRail, {b, n}));
  };
  auto add_dls = [&](int b) {  // 4.1: with every beam in use, one build per DL to take up
    if (!all_dls_in_use(def(b).side)) {
      cand.push_back(make(kVBuildDl, {b}));
      return;
    }
    for (int n = 0; n < g_.map().area_count(); ++n)
      if (area(n).dl == def(b).side) cand.push_back(make(kVBuildDl, {b, n}));
  };
  const int nb = static_cast<int>(blocks_.size());
  if (aa_pending()) {  // 10.12.3
    for (const auto& c : aa_choices()) {
      Action x;
      x.verb = kVAa;
      for (int r : c) x.push(r);
      out.push_back(x);
    }
    return;
  }
  if (loss_pending()) {
    for (int b : loss_choices()) cand.push_back(make(kVHit, {b}));
    for (const auto& a : cand)
      if (check(a).is_ok()) out.push_back(a);
    return;
  }
  switch (phase_) {
    case Phase::kSetup: {
      // Scenario Setup: each waiting block in each area its step allows; the DLs are alike,
      // so one action per area any of them may take; then the automatic rest.
      std::vector<int> dl_sites;
      for (const SetupPiece& p : setup_) {
        if (p.side != active_) continue;
        const auto sites = setup_sites(p);
        if (p.block < 0) {
          dl_sites.insert(dl_sites.end(), sites.begin(), sites.end());
          continue;
        }
        for (int n : sites) out.push_back(make(kVSetup, {p.block, n}));
      }
      std::sort(dl_sites.begin(), dl_sites.end());
      dl_sites.erase(std::unique(dl_sites.begin(), dl_sites.end()), dl_sites.end());
      for (int n : dl_sites) out.push_back(make(kVSetupDl, {n}));
      out.push_back(make(kVSetupAuto));
      return;
    }
    case Phase::kReplace:
      for (int b = 0; b < nb; ++b)
        if (def(b).side == active_) cand.push_back(make(kVStep, {b}));
      cand.push_back(make(kVEndCombat));
      break;
    case Phase::kDeploy:
      for (int b = 0; b < nb; ++b)
        if (def(b).side == active_ && block(b).loc == kLocDrawn)
          for (int n : deploy_sites(b)) cand.push_back(make(kVPlace, {b, n}));
      break;
    case Phase::kLogistics:
      cand.push_back(make(kVLogPause));
      cand.push_back(make(kVLogActivate));
      break;
    case Phase::kImpulse:
      // 3.0: the impulse is first one of three choices (Tactical, Strategic, Pass); the
      // Pass's one block move or DL comes after, in its own Command Segment (6.0, 12.0).
      cand.push_back(make(kVPass));
      cand.push_back(make(kVTactical));
      cand.push_back(make(kVStrategic));
      cand.push_back(make(kVReinforce));
      break;
    case Phase::kActivation:
      for (int b = 0; b < nb; ++b) {
        if (def(b).side != active_ || !def(b).is_hq() || block(b).activated) continue;
        cand.push_back(make(kVActivate, {b}));
        if (!block(b).isolated) add_moves(kVActivate, b, false, true);
      }
      cand.push_back(make(kVEndActivation));
      break;
    case Phase::kCommand:
      if (impulse_ == ImpulseKind::kPass) {  // 12.0: one block moves (no engaging) or builds a DL
        for (int b = 0; b < nb; ++b) {
          if (def(b).side == active_) add_recalls(b);
          if (def(b).side != active_ || !is_area(block(b).loc) || block(b).isolated) continue;
          add_moves(kVMove, b, false, false);
          add_dls(b);
          add_rails(b);
        }
        cand.push_back(make(kVEndCombat));
        break;
      }
      for (int b = 0; b < nb; ++b) {
        // 10.4: an activated HQ places its artillery marker whatever else it did (its
        // activation already counts as its action, 10.1).
        if (def(b).side == active_ && block(b).activated && def(b).kind == Kind::kHq && is_area(block(b).loc))
          for (int y : g_.neighbours(block(b).loc)) cand.push_back(make(kVArtillery, {b, y}));
        if (def(b).side != active_ || block(b).acted || block(b).isolated) continue;
        add_moves(kVMove, b, true, false);
        add_dls(b);
        if (impulse_ == ImpulseKind::kStrategic) {
          add_rails(b);
          add_recalls(b);
        }
      }
      for (int b = 0; b < nb; ++b) {
        if (def(b).side != active_ || def(b).kind != Kind::kLwHq || !block(b).activated) continue;
        const int room = bombers_allowed(b) - bombers_used(b);
        const int he = bombers_ready(b, false), st = bombers_ready(b, true);
        for (int n = 0; n < g_.map().area_count() && room > 0; ++n) {
          if (!contested(n) || air_distance(block(b).loc, n) > air_range(b)) continue;
          for (int h = 0; h <= std::min(he, room); ++h)
            for (int k = 0; k <= std::min(st, room - h); ++k)
              if (h + k > 0) cand.push_back(make(kVAir, {b, n, h, k}));
        }
      }
      cand.push_back(make(kVEndCommands));
      break;
    case Phase::kCombat:
      for (int n = 0; n < g_.map().area_count(); ++n) cand.push_back(make(kVBattle, {n}));
      cand.push_back(make(kVEndCombat));
      break;
    case Phase::kBlitz:
      for (int b = 0; b < nb; ++b) {
        if (!block(b).blitz || block(b).blitzed || !is_area(block(b).loc)) continue;
        for (int y : g_.neighbours(block(b).loc)) cand.push_back(make(kVBlitz, {b, y}));
      }
      for (const auto& [x, y] : blitz_moves_) {  // 10.16: Stukas following (once per area)
        (void)x;
        const int n = stukas_to_follow(y);
        bool seen = false;
        for (const auto& o : cand) seen = seen || (o.verb == kVStuka && o.args[0] == y);
        for (int k = 1; k <= n && !seen; ++k) cand.push_back(make(kVStuka, {y, k}));
      }
      cand.push_back(make(kVEndCombat));
      break;
    case Phase::kExploit:
      if (!exploiting_) {
        cand.push_back(make(kVExploit));
      } else {
        for (int b = 0; b < nb; ++b)
          if (def(b).side == active_ && def(b).fast && !block(b).acted && !block(b).isolated)
            add_moves(kVMove, b, false, false);
      }
      cand.push_back(make(kVEndCombat));
      break;
    case Phase::kOver:
      break;
  }
  for (const auto& a : cand)
    if (check(a).is_ok()) out.push_back(a);
}

Status Moscow41State::check(const Action& a) const {
  if (phase_ == Phase::kOver) return rule_error("1.7", "the game is over");
  const int nb = static_cast<int>(blocks_.size());
  auto block_arg = [&](int i) { return i < a.nargs && a.args[i] >= 0 && a.args[i] < nb ? a.args[i] : -1; };
  switch (a.verb) {  // arity
    case kVLogPause:
    case kVLogActivate:
    case kVTactical:
    case kVStrategic:
    case kVReinforce:
    case kVEndActivation:
    case kVEndCommands:
    case kVEndCombat:
    case kVExploit:
    case kVSetupAuto:
      if (a.nargs != 0) return rule_error("", "this action takes no arguments");
      break;
    default:
      break;
  }
  const bool setup_verb = a.verb == kVSetup || a.verb == kVSetupDl || a.verb == kVSetupAuto;
  if (phase_ == Phase::kSetup) {
    // Scenario Setup: nothing else happens until both sides have placed their pieces, the
    // Soviets first (the player without the Initiative sets up first).
    if (!setup_verb)
      return rule_error("Scenario Setup",
                        std::string("the Scenario Setup is not finished: the ") + side_name(active_) +
                            " has " + std::to_string(setup_left(active_)) +
                            " pieces to set up (setup BLOCK AREA, setup dl AREA, setup auto)");
    return check_setup(a);
  }
  if (setup_verb) return rule_error("Scenario Setup", "the Scenario Setup is over");
  if (loss_pending()) {
    // 10.14.1: the battle waits for the owner to say which equally strong block is hit.
    if (a.verb != kVHit)
      return rule_error("10.14.1", std::string(side_name(battle_.loss_side)) +
                                       " must first choose which block takes the hit");
    const int b = block_arg(0);
    if (a.nargs != 1 || b < 0) return rule_error("", "malformed hit");
    const auto choices = loss_choices();
    if (std::find(choices.begin(), choices.end(), b) == choices.end())
      return rule_error("10.14.1", def(b).id + " is not one of the strongest blocks in the battle");
    return Status::ok();
  }
  if (aa_pending()) {
    // 10.12.3: the battle waits for the German to convert the AA hits.
    if (a.verb != kVAa) return rule_error("10.12.3", "the German must first convert the AA hits (aa ...)");
    return check_aa(a);
  }
  return verbs().check(*this, a);
}

void Moscow41State::do_apply(const Action& a) {
  verbs().apply(*this, a);
  // The set-up verbs settle the Scenario Setup themselves; after any other action the
  // victory conditions are judged.
  if (a.verb != kVSetup && a.verb != kVSetupDl && a.verb != kVSetupAuto) update_victory();
}

// ----------------------------------------------------------------------------------------
// Each verb's check (after the gates of check() above: game over, arity, the Scenario Setup,
// a pending hit or AA choice) and application; the verb table (verbs.cpp) dispatches to them.
Status Moscow41State::verb_check_aa(const Action& /*a*/) const {
  return rule_error("10.12.3", "no AA hits are waiting to be converted");
}

// 10.16
Status Moscow41State::verb_check_stuka(const Action& a) const {
  if (phase_ != Phase::kBlitz) return rule_error("10.16", "Stukas follow Blitzes in the Blitz Segment");
  if (a.nargs != 2 || a.args[0] < 0 || a.args[0] >= node_count() || a.args[1] < 1)
    return rule_error("", "malformed stuka");
  if (a.args[1] > stukas_to_follow(a.args[0]))
    return rule_error("10.16", "only Stukas that survived a battle follow a Fast block Blitzing out of it");
  return Status::ok();
}

Status Moscow41State::verb_check_logistics(const Action& /*a*/) const {
  if (phase_ != Phase::kLogistics) return rule_error("7.0", "not in the Logistics Phase");
  return Status::ok();
}

Status Moscow41State::verb_check_pass(const Action& a) const {
  if (phase_ != Phase::kImpulse) return rule_error("6.0", "a Pass is chosen at the start of an impulse");
  // The block a Pass moves is chosen in the Pass's Command Segment (move / dl / end).
  return a.nargs == 0 ? Status::ok() : rule_error("12.0", "'pass' takes no arguments; move or dl after it");
}

Status Moscow41State::verb_check_tactical(const Action& /*a*/) const {
  const int nb = static_cast<int>(blocks_.size());
  auto own = [&](int b) { return b >= 0 && def(b).side == active_; };
  if (phase_ != Phase::kImpulse) return rule_error("6.0", "not at the start of an impulse");
  for (int b = 0; b < nb; ++b)
    if (own(b) && def(b).kind == Kind::kHq &&
        (is_area(block(b).loc) || block(b).loc == g_.road()[0] ||
         (hoepner_road_ >= 0 && def(b).id == "HQ4Pg")))
      if (in_supply_area(active_, block(b).loc)) return Status::ok();
  return rule_error("10.0", "a Tactical Impulse needs a Tactical HQ that can be activated");
}

Status Moscow41State::verb_check_strategic(const Action& /*a*/) const {
  if (phase_ != Phase::kImpulse) return rule_error("6.0", "not at the start of an impulse");
  // 3.2.1: "The player with the Initiative ... Additionally, he may spend the Initiative Disc
  // to: play a Strategic Impulse".
  if (initiative_ != active_)
    return rule_error("3.2.1",
                      "only the player holding the Initiative Disc may spend it on a Strategic Impulse");
  if (initiative_limit_ == "once_per_game" && initiative_uses_[active_] >= 1)
    return rule_error("Scenario 1", "the Initiative Disc may be used only once in this scenario");
  if (initiative_limit_ == "once_per_month" && initiative_spent_this_turn_[active_])
    return rule_error("Scenario 3", "the Initiative Disc may be used only once per month");
  return Status::ok();
}

Status Moscow41State::verb_check_activate(const Action& a) const {
  const int nb = static_cast<int>(blocks_.size());
  auto block_arg = [&](int i) {
    return i < a.nargs && a.args[i] >= 0 && a.args[i] < static_cast<int>(blocks_.size()) ? a.args[i] : -1;
  };
  auto own = [&](int b) { return b >= 0 && def(b).side == active_; };
  if (phase_ != Phase::kActivation) return rule_error("10.1", "HQs are activated in the Activation Segment");
  const int b = block_arg(0);
  if (!own(b) || !def(b).is_hq()) return rule_error("10.1", "only your own HQs are activated");
  if (block(b).activated) return rule_error("10.1", "that HQ is already activated");
  if (block(b).isolated) return rule_error("9.1", "isolated HQs cannot be activated");
  const bool on_road = def(b).id == "HQ4Pg" && hoepner_road_ >= 0 &&
                       block(b).loc == g_.road()[static_cast<size_t>(hoepner_road_)];
  if (def(b).kind == Kind::kLwHq) {
    bool tactical = false;
    for (int h = 0; h < nb; ++h)
      tactical = tactical || (own(h) && block(h).activated && def(h).kind == Kind::kHq);
    if (!tactical) return rule_error("10.0", "a Luftwaffe HQ is activated only after a Tactical HQ");
    if (strength(b) <= 0) return rule_error("10.5", "an exhausted Luftwaffe HQ cannot be activated");
  }
  if (on_road) return a.nargs == 1 ? Status::ok() : rule_error("10.9", "Hoepner cannot leave the Road");
  if (!is_area(block(b).loc)) return rule_error("10.1", "HQs cannot be activated in boxes");
  if (a.nargs == 1) {
    if (has_units(1 - active_, block(b).loc))
      return rule_error("10.1", "an HQ cannot be revealed in an area with enemy units");
    return Status::ok();
  }
  // 10.1, 2.5: "activate HQ DEST" follows the cheapest route; "activate HQ A1 ... DEST"
  // names the areas entered (which empty enemy areas it takes), as a move does (10.8).
  return check_move_action(a, false, true);
}

Status Moscow41State::verb_check_end_activation(const Action& /*a*/) const {
  const int nb = static_cast<int>(blocks_.size());
  auto own = [&](int b) { return b >= 0 && def(b).side == active_; };
  if (phase_ != Phase::kActivation) return rule_error("10.1", "not in the Activation Segment");
  for (int h = 0; h < nb; ++h)
    if (own(h) && block(h).activated && def(h).kind == Kind::kHq) return Status::ok();
  return rule_error("10.0", "a Tactical Impulse must activate at least one Tactical HQ");
}

Status Moscow41State::verb_check_move_or_dl(const Action& a) const {
  auto block_arg = [&](int i) {
    return i < a.nargs && a.args[i] >= 0 && a.args[i] < static_cast<int>(blocks_.size()) ? a.args[i] : -1;
  };
  auto own = [&](int b) { return b >= 0 && def(b).side == active_; };
  if (phase_ == Phase::kExploit) {
    // 10.18: up to LV non-isolated Fast blocks (HQs included); no engaging, no DLs.
    const int b = block_arg(0);
    if (!exploiting_) return rule_error("10.18", "spend the Initiative first (exploit)");
    if (a.verb == kVBuildDl) return rule_error("10.18", "no Defensive Lines in an Exploitation Move");
    if (!own(b) || !def(b).fast) return rule_error("10.18", "only your Fast blocks exploit");
    if (block(b).acted) return rule_error("10.7", "each block moves once");
    if (block(b).isolated) return rule_error("9.1", "isolated blocks cannot move");
    if (actions_left_ <= 0) return rule_error("10.18", "no more than LV blocks exploit");
    return check_move_action(a, false);
  }
  if (phase_ != Phase::kCommand) return rule_error("10.7", "blocks act in the Command Segment");
  const int b = block_arg(0);
  if (!own(b)) return rule_error("10.7", "not one of your blocks");
  if (block(b).acted) return rule_error("10.7", "each block performs one action");
  if (block(b).isolated) return rule_error("9.1", "isolated blocks cannot act");
  if (impulse_ == ImpulseKind::kPass) {
    // 12.0: one block, up to its full MP, without engaging (disengaging allowed); or a
    // Combat Block reduced to build a DL. Boxes are left only by their own rules.
    if (!is_area(block(b).loc)) return rule_error("12.0", "a Pass moves a block on the map");
    if (a.verb == kVBuildDl) return check_dl(a);
    return check_move_action(a, false);
  }
  if (impulse_ == ImpulseKind::kTactical && !commanded(b))
    return rule_error("10.3", def(b).id + " is not in the Tactical Range of an appropriate activated HQ");
  if (impulse_ == ImpulseKind::kStrategic && actions_left_ <= 0)
    return rule_error("11.0", "no more than LV blocks act in a Strategic Impulse");
  if (a.verb == kVBuildDl) return check_dl(a);
  return check_move_action(a, true);
}

Status Moscow41State::verb_check_artillery(const Action& a) const {
  auto block_arg = [&](int i) {
    return i < a.nargs && a.args[i] >= 0 && a.args[i] < static_cast<int>(blocks_.size()) ? a.args[i] : -1;
  };
  auto own = [&](int b) { return b >= 0 && def(b).side == active_; };
  if (phase_ != Phase::kCommand || impulse_ != ImpulseKind::kTactical)
    return rule_error("10.4", "artillery markers are placed by activated HQs in a Tactical Impulse");
  const int b = block_arg(0);
  if (!own(b) || def(b).kind != Kind::kHq || !block(b).activated)
    return rule_error("10.4", "only an activated Tactical HQ gives Artillery Fire");
  if (def(b).id == "HQ4Pg" && !hoepner_full_hq())
    return rule_error("10.2", "Hoepner has no artillery (scenarios 2-3 and OR 14.2 give him one)");
  if (strength(b) <= 0) return rule_error("10.5", "exhausted HQs have no artillery");
  if (a.nargs != 2 || !is_area(a.args[1])) return rule_error("10.4", "malformed artillery");
  if (!g_.adjacent(block(b).loc, a.args[1]))
    return rule_error("10.4", "artillery fires only into an adjacent area");
  if (!contested(a.args[1]))
    return rule_error("10.4", "artillery fires into an area with units of both players");
  for (const auto& ar : areas_)
    if (ar.artillery == b) return rule_error("10.2", "an HQ supports one battle only");
  if (area(a.args[1]).artillery >= 0) return rule_error("10.4", "that area already has an artillery marker");
  return Status::ok();
}

Status Moscow41State::verb_check_end_commands(const Action& /*a*/) const {
  if (phase_ != Phase::kCommand) return rule_error("10.7", "not in the Command Segment");
  if (impulse_ == ImpulseKind::kPass) return rule_error("12.0", "no Combat in a Pass ('end' ends it)");
  return Status::ok();
}

Status Moscow41State::verb_check_air(const Action& a) const {
  auto block_arg = [&](int i) {
    return i < a.nargs && a.args[i] >= 0 && a.args[i] < static_cast<int>(blocks_.size()) ? a.args[i] : -1;
  };
  auto own = [&](int b) { return b >= 0 && def(b).side == active_; };
  if (phase_ != Phase::kCommand || impulse_ != ImpulseKind::kTactical)
    return rule_error("10.10", "bombers are committed by an activated Luftwaffe HQ in a Tactical Impulse");
  if (a.nargs != 4) return rule_error("", "malformed air mission");
  const int b = block_arg(0);
  if (!own(b) || def(b).kind != Kind::kLwHq || !block(b).activated)
    return rule_error("10.10", "only an activated Luftwaffe HQ commits bombers");
  const int n = a.args[1], he = a.args[2], st = a.args[3];
  if (!is_area(n) || !contested(n)) return rule_error("10.10", "bombers strike only contested areas");
  if (he < 0 || st < 0 || he + st <= 0) return rule_error("", "malformed air mission");
  if (air_distance(block(b).loc, n) > air_range(b))
    return rule_error("10.10", "the area is beyond Air Range");
  if (bombers_used(b) + he + st > bombers_allowed(b))
    return rule_error("10.10", "a Luftwaffe HQ commits at most its strength in bombers");
  if (st > bombers_ready(b, true))
    return rule_error("10.10.1", "Stukas are called only by the 8th Fliegerkorps, and only if available");
  if (he > bombers_ready(b, false)) return rule_error("10.10.1", "not enough He-111s available");
  return Status::ok();
}

Status Moscow41State::verb_check_battle(const Action& a) const {
  if (phase_ != Phase::kCombat) return rule_error("10.11", "battles are fought in the Combat Segment");
  if (a.nargs != 1 || !is_area(a.args[0])) return rule_error("10.11", "malformed battle");
  const int n = a.args[0];
  if (!contested(n)) return rule_error("10.11", "a battle needs units of both players in the area");
  if (area(n).fought) return rule_error("10.15", "each battle lasts one round per impulse");
  for (int b : pieces(active_, n))
    if (!block(b).isolated) return Status::ok();
  return rule_error("10.11", "isolated blocks and DLs cannot attack");
}

// OR 14.2
Status Moscow41State::verb_check_recall(const Action& a) const {
  auto block_arg = [&](int i) {
    return i < a.nargs && a.args[i] >= 0 && a.args[i] < static_cast<int>(blocks_.size()) ? a.args[i] : -1;
  };
  if (a.nargs != 2 || block_arg(0) < 0 || a.args[1] < 0 || a.args[1] >= node_count())
    return rule_error("", "malformed recall");
  return check_recall(a.args[0], a.args[1]);
}

// OR 14.4
Status Moscow41State::verb_check_rail(const Action& a) const {
  auto block_arg = [&](int i) {
    return i < a.nargs && a.args[i] >= 0 && a.args[i] < static_cast<int>(blocks_.size()) ? a.args[i] : -1;
  };
  if (a.nargs != 2 || block_arg(0) < 0 || a.args[1] < 0 || a.args[1] >= node_count())
    return rule_error("", "malformed rail");
  return check_rail(a.args[0], a.args[1]);
}

Status Moscow41State::verb_check_blitz(const Action& a) const {
  auto block_arg = [&](int i) {
    return i < a.nargs && a.args[i] >= 0 && a.args[i] < static_cast<int>(blocks_.size()) ? a.args[i] : -1;
  };
  if (phase_ != Phase::kBlitz) return rule_error("10.16", "Blitz moves are made in the Blitz Segment");
  if (a.nargs != 2 || block_arg(0) < 0) return rule_error("", "malformed blitz");
  return check_blitz(a.args[0], a.args[1]);
}

Status Moscow41State::verb_check_exploit(const Action& /*a*/) const {
  if (phase_ != Phase::kExploit || exploiting_) return rule_error("10.18", "no Exploitation Move now");
  return Status::ok();
}

Status Moscow41State::verb_check_hit(const Action& /*a*/) const {
  return rule_error("10.14.1", "no hits are waiting to be allocated");
}

Status Moscow41State::verb_check_step(const Action& a) const {
  auto block_arg = [&](int i) {
    return i < a.nargs && a.args[i] >= 0 && a.args[i] < static_cast<int>(blocks_.size()) ? a.args[i] : -1;
  };
  if (phase_ != Phase::kReplace)
    return rule_error("7.2.2", "steps are replaced only in a Leader Activation, before the reinforcements");
  if (a.nargs != 1 || block_arg(0) < 0) return rule_error("", "malformed step");
  return check_step(a.args[0]);
}

Status Moscow41State::verb_check_place(const Action& a) const {
  auto block_arg = [&](int i) {
    return i < a.nargs && a.args[i] >= 0 && a.args[i] < static_cast<int>(blocks_.size()) ? a.args[i] : -1;
  };
  auto own = [&](int b) { return b >= 0 && def(b).side == active_; };
  if (phase_ != Phase::kDeploy) return rule_error("5.0", "no reinforcement is waiting to be placed");
  const int b = block_arg(0);
  if (a.nargs != 2 || b < 0 || a.args[1] < 0 || a.args[1] >= node_count())
    return rule_error("", "malformed place");
  if (!own(b) || block(b).loc != kLocDrawn)
    return rule_error("5.0", def(b).id + " is not a drawn reinforcement of yours");
  const auto sites = deploy_sites(b);
  if (!std::binary_search(sites.begin(), sites.end(), a.args[1]))
    return rule_error("5.0",
                      def(b).id + " cannot enter " + g_.map().id(a.args[1]) +
                          (def(b).side == kGerman ? " (its Staging Areas, or Hoepner's box for L blocks)"
                                                  : " (a friendly, uncontested, supplied city or Victory "
                                                    "Area, one reinforcement per area, no overstacking)"));
  return Status::ok();
}

Status Moscow41State::verb_check_end_combat(const Action& /*a*/) const {
  if (phase_ == Phase::kBlitz || phase_ == Phase::kExploit || phase_ == Phase::kReplace) return Status::ok();
  if (phase_ == Phase::kCommand && impulse_ == ImpulseKind::kPass) return Status::ok();  // 12.0
  if (phase_ != Phase::kCombat) return rule_error("10.11", "not in the Combat Segment");
  if (mandatory_battles_left()) return rule_error("10.11", "battles in newly contested areas are mandatory");
  return Status::ok();
}

// Scenario Setup
void Moscow41State::verb_apply_setup(const Action& a) {
  place_setup_piece(static_cast<size_t>(setup_piece_for(a)), a.args[a.nargs - 1]);
  settle_setup();
}

void Moscow41State::verb_apply_setup_auto(const Action& /*a*/) {
  log("setup",
      std::string(side_name(active_)) + " sets up the remaining " + std::to_string(setup_left(active_)) +
          " pieces automatically",
      "Scenario Setup");
  setup_auto(active_);
  settle_setup();
}

void Moscow41State::verb_apply_logistics(const Action& a) { logistics(active_, a.verb == kVLogActivate); }

// 7.2.2
void Moscow41State::verb_apply_step(const Action& a) {
  const int b = a.args[0];
  const int cost = def(b).cost[static_cast<size_t>(block(b).level - 1)];
  (def(b).is_hq() ? regen_left_ : repl_left_) -= cost;
  --bs(b).level;
  log_hidden(active_, "logistics",
             def(b).id + " regains a step (" + std::to_string(cost) +
                 (def(b).is_hq() ? " Regeneration" : " Replacement") + " Point" + (cost > 1 ? "s" : "") + ")",
             std::string(side_name(active_)) + " replaces a step", "7.2.2");
}

// 5.0
void Moscow41State::verb_apply_place(const Action& a) {
  const int b = a.args[0], n = a.args[1];
  bs(b).loc = n;
  bs(b).level = def(b).remnant ? def(b).min_level() : 0;  // 11.0: Soviet Remnants at minimum
  bs(b).acted = true;  // marks "placed this phase" for the one-per-area rule
  // OR 14.2: only Zhukov may stand in the Leningrad box, so there he is known.
  bs(b).revealed = !is_area(n);
  log_hidden(active_, "reinforce", def(b).id + " arrives in " + g_.map().id(n),
             std::string(side_name(active_)) + " reinforcement arrives in " + g_.map().id(n), "5.0");
  settle_deploy();
}

// 10.14.1: the owner's choice among equally strong blocks
void Moscow41State::verb_apply_hit(const Action& a) {
  const int b = a.args[0];
  log("combat", def(b).id + " takes a hit", "10.14.1");
  reduce(b, false);
  --battle_.loss_hits;
  if (allocate_hits()) advance_battle();
}

void Moscow41State::verb_apply_pass(const Action& /*a*/) {
  // 6.0: Bad Weather and Supply Checks first, then the Command Segment (12.0).
  start_impulse(ImpulseKind::kPass);
  log("impulse", std::string(side_name(active_)) + " passes", "12.0");
  phase_ = Phase::kCommand;
}

void Moscow41State::verb_apply_tactical(const Action& /*a*/) {
  start_impulse(ImpulseKind::kTactical);
  phase_ = Phase::kActivation;
  log("impulse", std::string(side_name(active_)) + " plays a Tactical Impulse", "10.0");
}

void Moscow41State::verb_apply_strategic(const Action& a) {
  start_impulse(a.verb == kVStrategic ? ImpulseKind::kStrategic : ImpulseKind::kStrategicReinforce);
  const int lv = logistics_value(active_);
  ++initiative_uses_[active_];
  initiative_spent_this_turn_[active_] = true;
  initiative_ = 1 - active_;  // 3.2.1, 11.0: the disc passes to the other player
  // 7.2.1: the LV counts the non-exhausted HQs, which the enemy may not know (1.5):
  // only the owner reads it.
  const std::string si = std::string(side_name(active_)) + " spends the Initiative on a Strategic Impulse";
  log_hidden(active_, "impulse", si + ", LV " + std::to_string(lv), si, "11.0");
  if (a.verb == kVStrategic) {
    actions_left_ = lv;
    phase_ = Phase::kCommand;
  } else {
    draw_reinforcements(lv);  // 5.0: placed by the owner ("place B AREA"), then Combat
  }
}

void Moscow41State::verb_apply_activate(const Action& a) {
  const int b = a.args[0];
  if (a.nargs == 2) follow(b, a.args[1], false, true);
  if (a.nargs > 2) move_block(b, &a.args[1], a.nargs - 1);  // the route the owner named
  bs(b).activated = bs(b).revealed = bs(b).acted = true;
  log("activate", def(b).id + " is activated and revealed in " + g_.map().id(block(b).loc), "10.1", true);
}

void Moscow41State::verb_apply_end_activation(const Action& /*a*/) { phase_ = Phase::kCommand; }

void Moscow41State::verb_apply_move(const Action& a) {
  const bool pass = impulse_ == ImpulseKind::kPass && phase_ == Phase::kCommand;
  if (a.nargs == 2)
    follow(a.args[0], a.args[1], phase_ != Phase::kExploit && !pass, false);
  else
    move_block(a.args[0], &a.args[1], a.nargs - 1);  // the route the owner named
  bs(a.args[0]).acted = true;
  if (impulse_ == ImpulseKind::kStrategic || phase_ == Phase::kExploit) --actions_left_;
  log_hidden(active_, "move", def(a.args[0]).id + " moves to " + g_.map().id(block(a.args[0]).loc),
             std::string("a ") + side_name(active_) + " block moves to " + g_.map().id(block(a.args[0]).loc),
             pass ? "12.0" : "10.8");
  if (pass) end_impulse();  // 12.0: a Pass moves at most one block, and has no combat
}

// 10.12.3
void Moscow41State::verb_apply_aa(const Action& a) {
  apply_aa(std::vector<int>(a.args.begin(), a.args.begin() + a.nargs));
  advance_battle();
}

// 10.16
void Moscow41State::verb_apply_stuka(const Action& a) {
  int left = a.args[1];
  for (int i = 0; i < g_.bomber_count() && left > 0; ++i) {
    const int from = bomber_struck_[static_cast<size_t>(i)];
    if (!g_.bomber_is_stuka(i) || from < 0 || bomber_status_[static_cast<size_t>(i)] != kBomberReady)
      continue;
    if (std::find(blitz_moves_.begin(), blitz_moves_.end(), std::make_pair(from, a.args[0])) ==
        blitz_moves_.end())
      continue;
    bomber_status_[static_cast<size_t>(i)] = kBomberCommitted;
    bomber_area_[static_cast<size_t>(i)] = a.args[0];
    bomber_struck_[static_cast<size_t>(i)] = -1;
    --left;
  }
  log("air", std::to_string(a.args[1]) + " Stuka follow the Blitz into " + g_.map().id(a.args[0]), "10.16");
}

// OR 14.2
void Moscow41State::verb_apply_recall(const Action& a) {
  const int b = a.args[0], n = a.args[1];
  const bool pass = impulse_ == ImpulseKind::kPass;
  const std::string from = g_.map().id(block(b).loc);
  if (def(b).side == kGerman) {
    called_off_ = true;  // never back to the Road
    if (def(b).id == "HQ4Pg") hoepner_road_ = -1;
    log_hidden(active_, "move",
               def(b).id + " leaves the Road to Leningrad (" + from + ") for " + g_.map().id(n),
               "a 4th Panzer Gruppe block leaves the Road to Leningrad (" + from + ") for " + g_.map().id(n),
               "14.2");
  } else {
    zhukov_recalled_ = true;  // he regains his powers and never returns
    log("move", "Zhukov is recalled from Leningrad to " + g_.map().id(n), "14.2");
  }
  bs(b).loc = n;
  bs(b).acted = true;
  if (impulse_ == ImpulseKind::kStrategic) --actions_left_;
  if (pass) end_impulse();  // 12.0: the Pass's one block
}

// OR 14.4
void Moscow41State::verb_apply_rail(const Action& a) {
  const int b = a.args[0];
  const bool pass = impulse_ == ImpulseKind::kPass;
  const int from = block(b).loc;
  bs(b).loc = a.args[1];  // only to friendly areas: no control changes there (2.5)
  settle_control(from);   // 2.5: leaving may leave the enemy alone
  bs(b).acted = true;
  if (impulse_ == ImpulseKind::kStrategic) --actions_left_;
  log_hidden(active_, "move", def(b).id + " rail-moves to " + g_.map().id(a.args[1]),
             std::string("a ") + side_name(active_) + " block rail-moves to " + g_.map().id(a.args[1]),
             "14.4");
  if (pass) end_impulse();  // 12.0, OR 14.4: a Pass Rail-moves one block
}

void Moscow41State::verb_apply_build_dl(const Action& a) {
  if (a.nargs > 1) {  // 4.1: the DL named is taken up to build this one
    as(a.args[1]).dl = kNoSide;
    log("dl", "a Defensive Line in " + g_.map().id(a.args[1]) + " is disbanded", "4.1");
    settle_control(a.args[1]);  // 2.5
  }
  bs(a.args[0]).level++;
  bs(a.args[0]).acted = true;
  as(block(a.args[0]).loc).dl = active_;
  if (impulse_ == ImpulseKind::kStrategic) --actions_left_;
  log("dl", "a Defensive Line is built in " + g_.map().id(block(a.args[0]).loc), "4.1");
  if (impulse_ == ImpulseKind::kPass) end_impulse();  // 12.0: instead of the one move
}

void Moscow41State::verb_apply_air(const Action& a) {
  int he = a.args[2], st = a.args[3];
  for (int i = 0; i < g_.bomber_count(); ++i) {
    if (bomber_status_[static_cast<size_t>(i)] != kBomberReady || g_.bomber_fk(i) != def(a.args[0]).id)
      continue;
    int& left = g_.bomber_is_stuka(i) ? st : he;
    if (left <= 0) continue;
    --left;
    bomber_status_[static_cast<size_t>(i)] = kBomberCommitted;
    bomber_area_[static_cast<size_t>(i)] = a.args[1];
  }
  log("air",
      def(a.args[0]).id + " sends " + std::to_string(a.args[2]) + " He-111 and " + std::to_string(a.args[3]) +
          " Stuka to " + g_.map().id(a.args[1]),
      "10.10");
}

void Moscow41State::verb_apply_artillery(const Action& a) {
  as(a.args[1]).artillery = a.args[0];
  log("artillery", def(a.args[0]).id + " places its artillery marker in " + g_.map().id(a.args[1]), "10.4");
}

void Moscow41State::verb_apply_end_commands(const Action& /*a*/) {
  phase_ = Phase::kCombat;
  if (impulse_ == ImpulseKind::kTactical) hoepner_road();
}

void Moscow41State::verb_apply_battle(const Action& a) { resolve_battle(a.args[0]); }

void Moscow41State::verb_apply_end_combat(const Action& /*a*/) {
  if (phase_ == Phase::kReplace) {  // 7.2: points not spent are lost; the draw follows
    draw_reinforcements(draws_left_);
  } else if (phase_ == Phase::kCombat && impulse_ == ImpulseKind::kTactical) {
    if (any_blitz()) {
      phase_ = Phase::kBlitz;  // 10.16
      for (int n = 0; n < node_count(); ++n) as(n).contested_at_start = contested(n);
      for (auto& ar : areas_) ar.fought = false, ar.artillery = -1;
    } else {
      finish_tactical();
    }
  } else if (phase_ == Phase::kBlitz) {
    next_blitz_battle();  // 10.16; then Deactivation (10.17)
  } else {
    if (impulse_ == ImpulseKind::kTactical && phase_ == Phase::kCombat) deactivate();
    end_impulse();
  }
}

void Moscow41State::verb_apply_blitz(const Action& a) {
  const int b = a.args[0], n = a.args[1];
  bs(b).blitzed = true;
  bs(b).blitz = false;
  blitz_moves_.emplace_back(block(b).loc, n);  // 10.16: Stukas may follow
  const int32_t one[1] = {n};
  move_block(b, one, 1);
  log("blitz", def(b).id + " blitzes into " + g_.map().id(n), "10.16");
}

void Moscow41State::verb_apply_exploit(const Action& /*a*/) {
  exploiting_ = true;
  actions_left_ = logistics_value(active_);
  ++initiative_uses_[active_];
  initiative_spent_this_turn_[active_] = true;
  initiative_ = 1 - active_;
  for (auto& s2 : blocks_) s2.acted = false;
  log("impulse", std::string(side_name(active_)) + " spends the Initiative on an Exploitation Move", "10.18");
}

}  // namespace moscow41
