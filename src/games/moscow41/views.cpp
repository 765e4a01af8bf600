// Moscow '41: the full state and its hash, and the typed views of the State API (describe,
// preview, reach, legal_actions_for).
// Every rule cites its rulebook section (seeds/002).
#include <algorithm>
#include <cstdio>
#include <map>
#include <utility>

#include "games/moscow41/state.h"
#include "games/moscow41/state_names.h"
#include "kernel/json_data.h"

namespace moscow41 {

using steppe::Action;
using steppe::Error;
using steppe::Result;
using steppe::rule_error;

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

// ----------------------------------------------------------------------------------------
// Typed views (kernel/views.h): what an action means, what a battle would lead to, where a
// block can go. Each is answered by the rules code apply() runs (dice_for, the volleys,
// absorb, queue_hits, reachable), never by the scenario-test hooks.
namespace {

// Verbs whose first argument is a block (the unit the action concerns), and whose second,
// if any, is the area it goes to or targets.
bool block_verb(uint16_t verb) {
  switch (verb) {
    case kVActivate:
    case kVMove:
    case kVBuildDl:
    case kVArtillery:
    case kVBlitz:
    case kVHit:
    case kVStep:
    case kVPlace:
    case kVRail:
    case kVRecall:
    case kVSetup:
    case kVAir:
      return true;
    default:
      return false;
  }
}

const char* fire_colour(int fire) { return fire == kSingle ? "black" : fire == kDouble ? "white" : "red"; }

}  // namespace

Result<steppe::ActionDescription> Moscow41State::describe(const Action& a) const {
  const auto* row = verbs().find(a.verb);
  if (row == nullptr) return Error{"unknown action (verb " + std::to_string(a.verb) + ")", "", ""};
  const std::string verb = steppe::VerbTable<Moscow41State>::token(row->name);  // "setup-dl", for the UI
  const std::string rule(row->rule);
  const int nb = static_cast<int>(blocks_.size());
  auto area_ok = [&](int k) { return k < a.nargs && a.args[k] >= 0 && a.args[k] < node_count(); };
  const bool has_block = block_verb(a.verb);
  if (has_block && (a.nargs < 1 || a.args[0] < 0 || a.args[0] >= nb))
    return Error{"malformed " + verb + ": no such block", rule, ""};
  steppe::ActionDescription d;
  d.text = action_to_string(a);
  d.verb = verb;
  d.rule = rule;
  d.summary = d.text;
  const std::string unit = has_block ? def(a.args[0]).id : std::string();
  if (has_block) d.units.push_back(unit);
  const int at = has_block ? block(a.args[0]).loc : -1;
  if (has_block && is_area(at)) d.from.push_back(g_.map().id(at));
  auto to = [&](int k) {
    if (!area_ok(k)) return std::string("?");
    d.to.push_back(g_.map().id(a.args[k]));
    return d.to.back();
  };
  switch (a.verb) {
    case kVMove:
    case kVActivate: {
      if (a.nargs < 2) return Error{"malformed " + verb + ": no destination", rule, ""};
      for (int k = 1; k < a.nargs; ++k)
        if (!area_ok(k)) return Error{"malformed " + verb + ": unknown area", rule, ""};
      // The route a plain "move B DEST" follows is the cheapest one (docs/rulings.md);
      // a named route is the action's own.
      std::vector<int> route(a.args.begin() + 1, a.args.begin() + a.nargs);
      if (route.size() == 1 && is_area(at)) {
        const bool hq_act = a.verb == kVActivate;
        const auto p = path_to(a.args[0], route[0], !hq_act && impulse_ != ImpulseKind::kPass, hq_act);
        if (!p.empty()) route = p;
      }
      Json path = Json::array();
      for (int n : route) path.push_back(g_.map().id(n));
      d.to.push_back(g_.map().id(a.args[a.nargs - 1]));
      d.detail = Json{{"path", path}};
      d.summary = unit + (a.verb == kVActivate ? " is activated and moves to " : " moves to ") + d.to.back();
      break;
    }
    case kVArtillery:
      d.summary = unit + " places its artillery marker in " + to(1);
      break;
    case kVBlitz:
      d.summary = unit + " Blitzes into " + to(1);
      break;
    case kVPlace:
      d.summary = unit + " is placed in " + to(1) + " as a reinforcement";
      break;
    case kVRail:
      d.summary = unit + " moves by rail to " + to(1);
      break;
    case kVRecall:
      d.summary = unit + " is recalled to " + to(1);
      break;
    case kVSetup:
      d.summary = unit + " is set up in " + to(1);
      break;
    case kVAir:
      if (a.nargs != 4) return Error{"malformed air", rule, ""};
      d.summary = unit + " sends " + std::to_string(a.args[2]) + " He-111 and " + std::to_string(a.args[3]) +
                  " Stuka to " + to(1);
      break;
    case kVBuildDl:
      d.summary =
          unit + " builds a Defensive Line" + (is_area(at) ? " in " + g_.map().id(at) : std::string());
      if (area_ok(1)) d.summary += ", taking up the one in " + to(1);
      break;
    case kVHit:
      d.summary = unit + " takes a hit";
      break;
    case kVStep:
      d.summary = unit + " gains a step";
      break;
    case kVBattle:
      d.summary = "battle in " + to(0);
      break;
    case kVStuka:
      d.summary = std::to_string(a.nargs > 1 ? a.args[1] : 0) + " Stukas follow the Blitz into " + to(0);
      break;
    case kVSetupDl:
      d.summary = "a Defensive Line is set up in " + to(0);
      break;
    default:
      break;
  }
  return d;
}

void Moscow41State::legal_actions_for(std::string_view unit, std::vector<Action>& out) const {
  out.clear();
  const int b = g_.block_index(unit);
  if (b < 0) return;
  std::vector<Action> all;
  legal_actions(all);
  for (const Action& a : all)
    if (block_verb(a.verb) && a.nargs > 0 && a.args[0] == b) out.push_back(a);
}

Result<steppe::Reach> Moscow41State::reach(std::string_view unit, int viewer) const {
  const int b = g_.block_index(unit);
  if (b < 0) return Error{"unknown block '" + std::string(unit) + "'", "", ""};
  const BlockDef& d = def(b);
  // 1.5: an enemy block stands upright until revealed; its moves would tell its type.
  if (d.side != viewer && !block(b).revealed && !block(b).face_up)
    return rule_error("1.5", "the " + std::string(side_name(d.side)) +
                                 " block there is hidden from you (Fog of War): its moves are not shown");
  const int at = block(b).loc;
  if (!is_area(at)) return rule_error("2.2", d.id + " is not on a map area");
  // The current impulse's movement: an HQ's activation move (10.1) and a Pass's or an
  // Exploitation's move (12.0, 10.18) may not engage; any other move may (10.8).
  const bool hq_act = phase_ == Phase::kActivation && d.is_hq();
  const bool engage = !hq_act && impulse_ != ImpulseKind::kPass && phase_ != Phase::kExploit;
  std::vector<int> costs;
  const auto paths = reachable(b, engage, hq_act, &costs);
  steppe::Reach r;
  r.unit = d.id;
  r.from = g_.map().id(at);
  r.allowance = d.kind == Kind::kLeader ? 0 : mp_allowance(b);
  const Presence pr = presence();
  for (size_t i = 0; i < paths.size(); ++i) {
    steppe::ReachDestination dest;
    dest.location = g_.map().id(paths[i].back());
    dest.cost = costs[i];
    for (int n : paths[i]) dest.path.push_back(g_.map().id(n));
    if (pr.units(1 - d.side, paths[i].back())) dest.note = "enemy units: the move ends here, engaged (10.8)";
    r.destinations.push_back(std::move(dest));
  }
  return r;
}

steppe::Status Moscow41State::query_allowed(int side, const std::vector<std::string>& w) const {
  // 1.5: the hidden-block refusals of preview() and reach(), for the asking side.
  if (w.size() >= 2 && w[0] == "combat" && g_.node(w[1]) >= 0) {
    Action a;
    a.verb = kVBattle;
    a.push(g_.node(w[1]));
    const auto p = preview(a, side);
    if (!p && p.error().rule.find("1.5") != std::string::npos) return p.error();
  }
  if (w.size() >= 2 && w[0] == "reach") {
    const auto r = reach(w[1], side);
    if (!r && r.error().rule == "1.5") return r.error();
  }
  return steppe::Status::ok();
}

namespace {

// The exact distribution of the hits a set of volleys scores (10.12.5: each die hits on its
// firepower's number or more), by convolving one binomial per volley.
std::vector<double> hit_distribution(const std::vector<int>& dice, const std::vector<double>& p_hit) {
  std::vector<double> dist{1.0};
  for (size_t v = 0; v < dice.size(); ++v)
    for (int k = 0; k < dice[v]; ++k) {
      std::vector<double> next(dist.size() + 1, 0.0);
      for (size_t h = 0; h < dist.size(); ++h) {
        next[h] += dist[h] * (1 - p_hit[v]);
        next[h + 1] += dist[h] * p_hit[v];
      }
      dist = std::move(next);
    }
  return dist;
}

}  // namespace

Result<steppe::Preview> Moscow41State::preview(const Action& a, int viewer) const {
  if (a.verb != kVBattle || a.nargs != 1 || !is_area(a.args[0]))
    return Error{"a preview is given for a battle (\"battle AREA\")", "10.11", ""};
  const int node = a.args[0];
  const std::string where = g_.map().id(node);
  if (!contested(node))
    return rule_error("10.11", "no battle in " + where + ": it needs units of both players");
  const int att = active_, dfn = 1 - active_;
  // 1.5, 10.12.1: blocks stand upright until the Showdown; a preview would tell the
  // strength and firepower of the enemy's hidden blocks (and of the HQ firing artillery).
  std::vector<int> involved = pieces(att, node);
  for (int b : pieces(dfn, node)) involved.push_back(b);
  if (area(node).artillery >= 0) involved.push_back(area(node).artillery);
  for (int b : involved)
    if (def(b).side != viewer && !block(b).revealed && !block(b).face_up)
      return rule_error("1.5, 10.12.1",
                        "the " + std::string(side_name(def(b).side)) + " blocks in " + where +
                            " stand hidden until the Showdown: no preview would keep them so");
  for (int i = 0; i < g_.bomber_count(); ++i)
    if (bomber_status_[static_cast<size_t>(i)] == kBomberCommitted &&
        bomber_area_[static_cast<size_t>(i)] == node)
      return Error{
          "the preview of a battle with bombers committed is not given: the German converts the AA "
          "hits as he chooses (10.12.3)",
          "10.12.3", ""};

  steppe::Preview pv;
  pv.kind = "combat";
  pv.rule = "10.12";
  // The battle as resolve_battle() starts it, on a copy that rolls no dice: the volleys
  // come from the same functions the battle rolls, and the hits are taken by queue_hits().
  Moscow41State sim(*this);
  sim.battle_ = Battle{};
  sim.battle_.node = node;
  sim.battle_.absorb = absorb(node, dfn, &pv.shifts);
  sim.battle_.attackers = battle_attackers(node);
  sim.battle_.tank_attack = tank_attack(node, sim.battle_.attackers);
  const bool attacker_first = sim.battle_.tank_attack;

  Json volleys = Json::array();
  auto describe_volleys = [&](const std::string& step, const std::vector<Volley>& vs) {
    int total = 0;
    for (const Volley& v : vs) {
      volleys.push_back(Json{{"step", step},
                             {"unit", v.who},
                             {"dice", v.dice},
                             {"fire", fire_colour(v.fire)},
                             {"hits_on", g_.tables().hits_on[static_cast<size_t>(v.fire)]},
                             {"rule", v.rule}});
      total += v.dice;
    }
    return total;
  };
  const int art_dice = describe_volleys("artillery", artillery_volleys(node, &pv.shifts));
  pv.attack = describe_volleys("attacker fire", sim.ground_volleys(att, node, &pv.shifts));
  pv.defense = describe_volleys("defender fire", sim.ground_volleys(dfn, node, &pv.shifts));
  if (art_dice > 0)
    pv.shifts.push_back(
        {art_dice, "artillery fires " + std::to_string(art_dice) + " dice before the battle", "10.12.2"});
  if (area(node).dl == dfn) pv.shifts.push_back({1, "the defender's Defensive Line fires 1 die", "4.1"});
  if (attacker_first) pv.shifts.push_back({0, "Tank Attack: the attacker fires first", "10.12.5.2"});
  pv.raw = std::to_string(pv.attack) + " dice vs " + std::to_string(pv.defense);
  pv.final = "defender fires first";

  // Each branch: a copy after some of the fire, its probability and the hits scored so far.
  struct Branch {
    Moscow41State st;
    double p;
    int on_defender, on_attacker;
  };
  std::vector<Branch> branches;
  branches.push_back(Branch{sim, 1.0, 0, 0});
  std::map<std::pair<int, int>, double> outcome;  // (hits on the defender, on the attacker) -> p
  // One step of 10.12: `second` picks the ground fire after the first (the Tank Attack
  // decides whose is first); the last step's branches go straight into `outcome`.
  auto fire = [&](bool artillery, bool second, bool last) {
    std::vector<Branch> next;
    for (Branch& br : branches) {
      const bool over = br.st.phase_ == Phase::kOver;  // the game ended in the battle (13.0)
      const bool att_first = br.st.battle_.tank_attack;
      const int firing = artillery ? att : (att_first != second ? att : dfn);
      const int target = 1 - firing;
      std::vector<int> dice;
      std::vector<double> p_hit;
      if (!over)
        for (const Volley& v :
             artillery ? br.st.artillery_volleys(node) : br.st.ground_volleys(firing, node)) {
          dice.push_back(v.dice);
          p_hit.push_back((7.0 - g_.tables().hits_on[static_cast<size_t>(v.fire)]) / 6.0);
        }
      const auto dist = hit_distribution(dice, p_hit);
      for (size_t h = 0; h < dist.size(); ++h) {
        const int hits = static_cast<int>(h);
        const int on_def = br.on_defender + (target == dfn ? hits : 0);
        const int on_att = br.on_attacker + (target == att ? hits : 0);
        if (last) {
          outcome[{on_def, on_att}] += br.p * dist[h];
          continue;
        }
        Branch nb{br.st, br.p * dist[h], on_def, on_att};
        nb.st.take_hits_in_preview(target, hits);
        if (artillery) {  // 10.12.5.2: the attackers and the Tank Attack are judged after it
          nb.st.battle_.attackers = nb.st.battle_attackers(node);
          nb.st.battle_.tank_attack = nb.st.tank_attack(node, nb.st.battle_.attackers);
        }
        next.push_back(std::move(nb));
      }
    }
    branches = std::move(next);
  };
  fire(true, false, false);  // 10.12.2 Artillery
  double p_tank = 0;
  for (const Branch& br : branches) p_tank += br.st.battle_.tank_attack ? br.p : 0;
  fire(false, false, false);  // 10.12.5 the first fire
  fire(false, true, true);    // and the second
  if (p_tank > 0.999999)
    pv.final = "attacker fires first";
  else if (p_tank > 1e-12)
    pv.final = "Tank Attack (attacker fires first) with probability " + std::to_string(p_tank).substr(0, 5) +
               ", as the artillery leaves the defence";
  const int soak = absorb(node, dfn);
  double expect_def = 0, expect_att = 0;
  for (const auto& [hits, p] : outcome) {
    const auto [on_def, on_att] = hits;
    expect_def += p * on_def;
    expect_att += p * on_att;
    const int soaked = std::min(on_def, soak);
    pv.outcomes.push_back({std::to_string(on_def) + "-" + std::to_string(on_att), p,
                           std::to_string(on_def) + " hits on the defender" +
                               (soaked > 0 ? " (" + std::to_string(soaked) + " absorbed)" : std::string()) +
                               ", " + std::to_string(on_att) + " on the attacker",
                           "10.12-10.14"});
  }
  char buf[96];
  std::snprintf(buf, sizeof buf, "%.2f hits on the defender, %.2f on the attacker", expect_def, expect_att);
  pv.summary = "battle in " + where + ": " + pv.raw +
               (art_dice > 0 ? " (+" + std::to_string(art_dice) + " artillery)" : "") + ", " + pv.final +
               "; expected " + buf;
  pv.detail = Json{{"area", where},
                   {"volleys", volleys},
                   {"absorb", soak},
                   {"ties",
                    "where equally strong blocks share fewer hits (10.14.1) the preview gives the hit to "
                    "the first listed; the owner may choose otherwise"}};
  return pv;
}

void Moscow41State::take_hits_in_preview(int side, int hits) {
  // queue_hits() as the battle runs it; an owner's choice among equally strong blocks
  // (10.14.1) is taken as the first of loss_choices(), as kVHit would apply it.
  queue_hits(side, hits);
  while (loss_pending()) {
    const auto choices = loss_choices();
    if (choices.empty()) break;
    reduce(choices.front(), false);
    --battle_.loss_hits;
    allocate_hits();
  }
}

}  // namespace moscow41
