// Moscow '41: Combat (10.10-10.16): battles, fire, hits, air power, AA and the Blitz.
// Every rule cites its rulebook section (seeds/002).
#include <algorithm>
#include <functional>

#include "games/moscow41/state.h"
#include "games/moscow41/state_names.h"
#include "kernel/pathfinding.h"

namespace moscow41 {

using steppe::Action;
using steppe::rule_error;
using steppe::Status;

// ----------------------------------------------------------------------------------------
// Combat (10.11-10.15)
bool Moscow41State::azul_14_7(int b) const { return options_[kOptInfantryDivisions] && def(b).id == "Azul"; }

int Moscow41State::german_weather_dice(int dice, bool attacking) const {
  // 8.0: in Snow German attacks are halved; OR 14.5: in Blizzard German strength is halved
  // when defending and quartered when attacking. 3.1: rounded down, never below 1 die.
  if (dice <= 0) return 0;
  if (blizzard_)
    return std::max(1,
                    dice / (attacking ? g_.tables().blizzard_attack_div : g_.tables().blizzard_defend_div));
  if (weather_ == kSnow && attacking) return std::max(1, dice / 2);
  return dice;
}

int Moscow41State::dice_for(int b, bool attacking, int node, std::vector<steppe::PreviewShift>* why) const {
  const BlockDef& d = def(b);
  if (d.kind == Kind::kLeader || d.kind == Kind::kLwHq) return 0;  // 4.2.4, 10.10
  int s = strength(b);
  if (s <= 0) return 0;  // 10.5: exhausted HQs have no firepower
  auto note = [&](int dice, const std::string& reason, const char* rule) {
    if (why != nullptr && dice != s) why->push_back({dice - s, d.id + " " + reason, rule});
    s = dice;
  };
  if (!attacking) {
    // OR 14.5: German blocks defend at half in Blizzard (OR 14.7: not the Azul Division).
    if (blizzard_ && d.side == kGerman && !azul_14_7(b))
      note(german_weather_dice(s, false), "defends at reduced strength in Blizzard", "14.5");
    return s;
  }
  if (weather_ == kRain) {
    note(1, "attacks with 1 die in Rain", "8.0");  // 8.0
  } else if (weather_ == kSnow && d.side == kGerman) {
    if (!azul_14_7(b))
      note(german_weather_dice(s, true),
           blizzard_ ? "attacks at reduced strength in Blizzard" : "attacks at half strength in Snow",
           blizzard_ ? "14.5" : "8.0");
    else if (blizzard_)
      note(std::max(1, s / 2), "attacks at half strength in Blizzard (the Azul Division)",
           "14.7");  // OR 14.7: Azul has no Snow penalty, and is only halved in Blizzard
  }
  // 10.12.5.1: engaging across a river into a newly contested area: 1 die (frozen in Snow).
  if (block(b).river && !area(node).contested_at_start && weather_ != kSnow)
    note(1, "engaged across a river: 1 die", "10.12.5.1");
  return s;
}

int Moscow41State::roll_hits(int dice, int fire, const std::string& who, const std::string& rule) {
  int hits = 0;
  const int need = g_.tables().hits_on[static_cast<size_t>(fire)];
  std::string rolls;
  for (int i = 0; i < dice; ++i) {
    const int r = dice_.roll(6);
    rolls += (i ? " " : "") + std::to_string(r);
    if (r >= need) ++hits;
  }
  if (dice > 0) {
    steppe::Event e;
    e.kind = "roll";
    e.text = who + " rolls " + std::to_string(dice) + " dice (" + rolls + "), hits on " +
             std::to_string(need) + "+: " + std::to_string(hits) + " hits";
    e.rule = rule;
    e.reveals = true;
    if (event_sink() != nullptr) emit(std::move(e));
  }
  return hits;
}

std::vector<int> Moscow41State::loss_choices() const {
  // 10.14.1: hits go to the strongest block; among equally strong ones the owner chooses.
  std::vector<int> out;
  if (battle_.node < 0) return out;
  int best = -1;
  for (int b : pieces(battle_.loss_side, battle_.node)) {
    if (def(b).kind == Kind::kLeader) continue;  // 4.2.4: Leaders take no hits
    if (strength(b) > best) {
      best = strength(b);
      out.clear();
    }
    if (strength(b) == best) out.push_back(b);
  }
  return out;
}

bool Moscow41State::allocate_hits() {
  // 10.14: the defender's DL first, then the strongest block. Where the hits left reach
  // every equally strong block, each of them takes one whatever the order (no choice);
  // fewer hits than such blocks: the owner chooses ("hit B"), one hit at a time.
  // The attacker's own DL in the area takes no part and no hits.
  const int side = battle_.loss_side, node = battle_.node;
  while (battle_.loss_hits > 0) {
    if (side != active_ && area(node).dl == side) {
      as(node).dl = kNoSide;
      --battle_.loss_hits;
      log("combat", std::string(side_name(side)) + " DL in " + g_.map().id(node) + " destroyed", "10.14");
      settle_control(node);  // 2.5
      continue;
    }
    const std::vector<int> tied = loss_choices();
    if (tied.empty()) {
      battle_.loss_hits = 0;  // 10.14.2: excess hits are lost
      break;
    }
    if (static_cast<int>(tied.size()) > battle_.loss_hits) return false;
    for (int b : tied) {
      log("combat", def(b).id + " takes a hit", "10.14.1");
      reduce(b, false);
      --battle_.loss_hits;
    }
  }
  battle_.loss_side = kNoSide;
  return true;
}

void Moscow41State::queue_hits(int side, int hits) {
  // 10.13: the defender's Absorb Bonus soaks the battle's hits first, whatever fired them.
  if (side != active_) {
    const int soaked = std::min(hits, battle_.absorb);
    battle_.absorb -= soaked;
    hits -= soaked;
    if (soaked > 0) log("combat", std::to_string(soaked) + " hits absorbed", "10.13");
  }
  if (hits <= 0) return;
  battle_.loss_side = side;
  battle_.loss_hits = hits;
  if (!allocate_hits())
    log("combat",
        std::string(side_name(side)) + " chooses which equally strong block takes each of " +
            std::to_string(battle_.loss_hits) + " hits",
        "10.14.1");
}

void Moscow41State::resolve_battle(int node) {
  const int att = active_, dfn = 1 - active_;
  // 10.12.1 Showdown.
  // The log names what both players now see: every block in the area, at its strength.
  std::string shown;
  for (int s : {att, dfn}) {
    std::string list;
    for (int b : pieces(s, node)) {
      bs(b).revealed = true;
      list += (list.empty() ? " " : ", ") + def(b).id + " (" + std::to_string(strength(b)) + ")";
    }
    if (!list.empty()) shown += (shown.empty() ? ": " : "; ") + std::string(side_name(s)) + list;
  }
  log("reveal", "showdown in " + g_.map().id(node) + shown, "10.12.1", true);
  const bool blitz = phase_ == Phase::kBlitz;
  battle_ = Battle{};
  battle_.node = node;
  battle_.absorb = absorb(node, dfn);
  battle_.blitz = blitz;
  advance_battle();
}

std::vector<Moscow41State::Volley> Moscow41State::artillery_volleys(
    int node, std::vector<steppe::PreviewShift>* why) const {
  // 10.12.2 Artillery: the activated HQ whose marker is in the area rolls its strength at
  // double firepower (weather applies: 8.0 Rain one die, Snow; OR 14.5 Blizzard).
  std::vector<Volley> out;
  const int hq = area(node).artillery;
  if (hq < 0 || !block(hq).activated) return out;
  const int full = strength(hq);
  int dice = full;
  if (weather_ == kRain)
    dice = std::min(dice, 1);
  else if (def(hq).side == kGerman)
    dice = german_weather_dice(dice, true);  // 8.0 Snow; OR 14.5 Blizzard
  if (why != nullptr && dice != full)
    why->push_back({dice - full, def(hq).id + " artillery in " + std::string(kWeather[weather_]),
                    weather_ == kRain ? "8.0"
                    : blizzard_       ? "14.5"
                                      : "8.0"});
  out.push_back({hq, dice, kDouble, def(hq).id + " artillery", blizzard_ ? "10.12.2, 14.5" : "10.12.2"});
  return out;
}

std::vector<Moscow41State::Volley> Moscow41State::ground_volleys(
    int side, int node, std::vector<steppe::PreviewShift>* why) const {
  auto fire_rule = [&](int b) -> std::string {
    if (def(b).side != kGerman || weather_ != kSnow) return "10.12.5";
    if (azul_14_7(b)) return "10.12.5, 14.7";
    return blizzard_ ? "10.12.5, 14.5" : "10.12.5";
  };
  std::vector<Volley> out;
  if (side == active_) {
    for (int b : battle_.attackers)
      if (block(b).loc == node)
        out.push_back({b, dice_for(b, true, node, why), def(b).fire[static_cast<size_t>(block(b).level)],
                       def(b).id, fire_rule(b)});
    return out;
  }
  if (area(node).dl == side) out.push_back({-1, 1, kSingle, "defensive line", "4.1"});
  for (int b : pieces(side, node))
    out.push_back({b, dice_for(b, false, node, why), def(b).fire[static_cast<size_t>(block(b).level)],
                   def(b).id, fire_rule(b)});
  return out;
}

std::vector<int> Moscow41State::battle_attackers(int node) const {
  std::vector<int> out;
  for (int b : pieces(active_, node))
    if (!block(b).isolated) out.push_back(b);
  return out;
}

bool Moscow41State::tank_attack(int node, const std::vector<int>& attackers) const {
  // 10.12.5.2 Tank Attack, judged after the Airstrike: in Sunny weather, in a Green area
  // without a defending DL or city, attacking tanks against no defending tank fire first
  // (not when every tank crossed a river into a newly contested area).
  const int dfn = 1 - active_;
  const AreaDef& a = ad(node);
  bool att_tank = false, all_tanks_river = true, def_tank = false;
  for (int b : attackers)
    if (def(b).type == BlockType::kTank) {
      att_tank = true;
      all_tanks_river = all_tanks_river && block(b).river;
    }
  for (int b : pieces(dfn, node)) def_tank = def_tank || def(b).type == BlockType::kTank;
  const bool def_city = a.city && area(node).control == dfn;
  bool tank =
      weather_ == kSunny && a.terrain == kGreen && area(node).dl != dfn && !def_city && att_tank && !def_tank;
  if (tank && !area(node).contested_at_start && all_tanks_river) tank = false;
  return tank;
}

void Moscow41State::advance_battle() {
  // 10.12: the steps of a battle, each one's hits allocated before the next fires (a
  // block reduced by the defender's fire rolls fewer dice). Stops while a choice waits.
  const int att = active_, dfn = 1 - active_, node = battle_.node;
  auto fire = [&](int side) {
    int hits = 0;
    for (const Volley& v : ground_volleys(side, node)) hits += roll_hits(v.dice, v.fire, v.who, v.rule);
    queue_hits(1 - side, hits);
  };
  while (!loss_pending() && !aa_pending() && phase_ != Phase::kOver) {
    switch (battle_.step++) {
      case 0:  // 10.12.2 Artillery.
        for (const Volley& v : artillery_volleys(node))
          queue_hits(dfn, roll_hits(v.dice, v.fire, v.who, v.rule));
        break;
      case 1:  // 10.12.3 AA (the German may have to convert its hits)
        anti_air(node);
        break;
      case 2:  // 10.12.4 Airstrike
        queue_hits(dfn, air_strike(node));
        break;
      case 3:  // 10.12.5.2 Tank Attack, judged after the Airstrike; then the first fire.
        battle_.attackers = battle_attackers(node);
        battle_.tank_attack = tank_attack(node, battle_.attackers);
        if (battle_.tank_attack) {
          log("combat", "Tank Attack! the attacker fires first", "10.12.5.2");
          fire(att);
        } else {
          fire(dfn);
        }
        break;
      case 4:
        fire(battle_.tank_attack ? dfn : att);
        break;
      default:
        finish_battle();
        return;
    }
  }
}

void Moscow41State::finish_battle() {
  const int att = active_, dfn = 1 - active_, node = battle_.node;
  const AreaDef& a = ad(node);
  const bool blitz = battle_.blitz;
  battle_ = Battle{};
  as(node).fought = true;
  // Control and concealment (2.5, 10.15).
  const bool def_left = has_units(dfn, node), att_left = blocks_in(att, node) > 0;
  settle_control(node);  // 2.5: whichever side is left alone there holds the area
  if (!def_left || !att_left) {
    for (int s : {att, dfn})
      for (int b : pieces(s, node)) {
        const bool blitz_mark =
            s == att && def(b).fast && def(b).kind == Kind::kCombat && a.terrain == kGreen;
        bs(b).revealed = blitz_mark || block(b).face_up || block(b).activated;
        if (blitz_mark && !def_left) bs(b).blitz = true;
      }
  } else {
    for (int b : pieces(dfn, node)) bs(b).revealed = block(b).face_up || block(b).activated;
  }
  update_victory();
  if (blitz && phase_ != Phase::kOver) next_blitz_battle();
}

void Moscow41State::next_blitz_battle() {
  // 10.16: battles in the areas entered by Blitz are mandatory; an adjacent activated
  // Blitz HQ fires its artillery again. One at a time (a loss choice may stop one).
  for (int n = 0; n < g_.map().area_count(); ++n) {
    if (!contested(n) || area(n).contested_at_start || area(n).fought) continue;
    for (size_t h = 0; h < blocks_.size(); ++h) {
      const BlockDef& hd = g_.blocks()[h];
      if (hd.side != active_ || !blocks_[h].activated ||
          !(hd.blitz || (hd.id == "HQ4Pg" && hoepner_full_hq())))
        continue;
      if (is_area(blocks_[h].loc) && g_.adjacent(n, blocks_[h].loc) && area(n).artillery < 0 &&
          strength(static_cast<int>(h)) > 0)
        as(n).artillery = static_cast<int>(h);
    }
    log("blitz", "Blitz battle in " + g_.map().id(n), "10.16");
    resolve_battle(n);
    return;
  }
  finish_tactical();
}

int Moscow41State::air_range(int lw) const {
  // 10.10: Air Range = strength; Rain 1; Snow halved.
  const int s = strength(lw);
  if (s <= 0) return 0;
  if (weather_ == kRain) return 1;
  if (weather_ == kSnow) return std::max(1, s / 2);
  return s;
}

int Moscow41State::bombers_allowed(int lw) const { return air_range(lw); }  // same rule for the count

int Moscow41State::bombers_used(int lw) const {
  int n = 0;
  for (int i = 0; i < g_.bomber_count(); ++i)
    if (bomber_status_[static_cast<size_t>(i)] == kBomberCommitted && g_.bomber_fk(i) == def(lw).id) ++n;
  return n;
}

int Moscow41State::bombers_ready(int lw, bool stuka) const {
  int n = 0;
  for (int i = 0; i < g_.bomber_count(); ++i)
    if (bomber_status_[static_cast<size_t>(i)] == kBomberReady && g_.bomber_fk(i) == def(lw).id &&
        g_.bomber_is_stuka(i) == stuka)
      ++n;
  return n;
}

namespace {
constexpr int kUnreachable = 1 << 20;  // farther than any Air Range
}  // namespace

int Moscow41State::air_distance(int from, int to) const {
  // Air Range is traced through any area (10.10): steps of one across the land borders.
  thread_local steppe::PathFinder finder;
  thread_local std::vector<int> path;
  const int steps = finder.shortest_path(
      g_.land(), from, to, kUnreachable, [](int, int, int) { return steppe::StepCost::enter(1); }, path);
  return steps < 0 ? kUnreachable : steps;
}

std::vector<int> Moscow41State::battle_bombers() const {
  std::vector<int> out;
  for (int i = 0; i < g_.bomber_count(); ++i)
    if (bomber_status_[static_cast<size_t>(i)] == kBomberCommitted &&
        bomber_area_[static_cast<size_t>(i)] == battle_.node)
      out.push_back(i);
  return out;
}

std::vector<std::vector<int>> Moscow41State::aa_choices() const {
  // 10.12.3: every hit is an Abort; the German converts two hits into one Destroyed result
  // or two Aborts. All the hits the committed bombers can take are taken. Bombers of one
  // Fliegerkorps and type are alike, so one choice per count of each kind: the first ones
  // of a kind destroyed, the next aborted (kVAa arguments: bomber * 2 + destroyed).
  std::vector<std::vector<int>> out;
  if (!aa_pending()) return out;
  std::vector<std::vector<int>> kinds;  // committed bombers by (Fliegerkorps, type)
  for (int i : battle_bombers()) {
    auto it = std::find_if(kinds.begin(), kinds.end(), [&](const std::vector<int>& k) {
      return g_.bomber_fk(k[0]) == g_.bomber_fk(i) && g_.bomber_is_stuka(k[0]) == g_.bomber_is_stuka(i);
    });
    if (it == kinds.end())
      kinds.push_back({i});
    else
      it->push_back(i);
  }
  std::vector<int> pick;
  std::function<void(size_t, int)> walk = [&](size_t k, int hits) {
    if (k == kinds.size()) {
      if (hits == 0) {
        std::vector<int> c = pick;
        std::sort(c.begin(), c.end());
        out.push_back(std::move(c));
      }
      return;
    }
    const auto& kind = kinds[k];
    const int n = static_cast<int>(kind.size());
    for (int d = 0; d <= n && 2 * d <= hits; ++d)
      for (int a = 0; d + a <= n && 2 * d + a <= hits; ++a) {
        const size_t mark = pick.size();
        for (int j = 0; j < d + a; ++j) pick.push_back(kind[static_cast<size_t>(j)] * 2 + (j < d ? 1 : 0));
        walk(k + 1, hits - 2 * d - a);
        pick.resize(mark);
      }
  };
  walk(0, battle_.aa_hits);
  return out;
}

Status Moscow41State::check_aa(const Action& a) const {
  // 10.12.3: the results must name committed bombers of this battle, each once, and take
  // exactly the AA hits waiting (2 per Destroyed, 1 per Abort).
  if (a.nargs < 1) return rule_error("", "malformed aa");
  const auto committed = battle_bombers();
  int hits = 0;
  for (int k = 0; k < a.nargs; ++k) {
    const int i = a.args[k] / 2;
    if (a.args[k] < 0 || std::find(committed.begin(), committed.end(), i) == committed.end())
      return rule_error("10.12.3", "only bombers committed to this battle take AA results");
    for (int j = 0; j < k; ++j)
      if (a.args[j] / 2 == i) return rule_error("10.12.3", "each bomber takes one result");
    hits += (a.args[k] % 2) != 0 ? 2 : 1;
  }
  if (hits != battle_.aa_hits)
    return rule_error("10.12.3", "the results must take exactly the " + std::to_string(battle_.aa_hits) +
                                     " AA hits (Destroyed 2, Abort 1)");
  // One notation per choice: bombers of one Fliegerkorps and type are alike, so the first
  // ones of each kind are named, the Destroyed before the Aborted.
  const std::vector<int> got(a.args.begin(), a.args.begin() + a.nargs);
  for (const auto& c : aa_choices())
    if (c == got) return Status::ok();
  return rule_error(
      "10.12.3",
      "bombers of one kind are alike: name the first ones of each kind (He111-1 before He111-2), "
      "the Destroyed before the Aborted");
}

void Moscow41State::apply_aa(const std::vector<int>& results) {
  // 10.12.3: Aborted bombers are back from the next (German) impulse, Destroyed ones in the
  // Final Phase (13.1).
  for (int r : results) {
    const int i = r / 2;
    const bool destroyed = (r % 2) != 0;
    bomber_status_[static_cast<size_t>(i)] = destroyed ? kBomberDestroyed : kBomberAborted;
    bomber_area_[static_cast<size_t>(i)] = -1;
    log("air", g_.bomber_id(i) + (destroyed ? " is destroyed by AA" : " aborts"), "10.12.3");
  }
  battle_.aa_hits = 0;
}

void Moscow41State::anti_air(int node) {
  const std::vector<int> committed = battle_bombers();
  if (committed.empty()) return;
  const int dfn = 1 - active_;
  // 10.12.3 AA: each defending unit rolls its strength at its own firepower (DL 1 die SF;
  // Stalin and exhausted HQs none). 10.10.2: "Every Soviet Unit (DL included) has Anti-Air (AA)
  // capabilities. Soviet AA is not affected by Bad Weather": nothing here reads the weather.
  int aa = 0;
  if (area(node).dl == dfn) aa += roll_hits(1, kSingle, "defensive line AA", "10.12.3");
  for (int b : pieces(dfn, node)) {
    if (def(b).kind == Kind::kLeader || def(b).kind == Kind::kLwHq) continue;
    aa += roll_hits(strength(b), def(b).fire[static_cast<size_t>(block(b).level)], def(b).id + " AA",
                    "10.12.3");
  }
  // Hits beyond two per bomber are lost; the German chooses how the others are converted
  // when there is more than one way ("aa destroy B... abort B..."), else it is done at once.
  battle_.aa_hits = std::min(aa, 2 * static_cast<int>(committed.size()));
  if (battle_.aa_hits == 0) return;
  const auto choices = aa_choices();
  if (choices.size() == 1) {
    apply_aa(choices[0]);
    return;
  }
  log("air",
      "the German converts " + std::to_string(battle_.aa_hits) + " AA hits into Aborted/Destroyed results",
      "10.12.3");
}

int Moscow41State::air_strike(int node) {
  // 10.12.4 Airstrike: each bomber that survived the AA rolls its Luftwaffe HQ's strength
  // (weather applies), then goes back to the OoB.
  int hits = 0;
  for (int i : battle_bombers()) {
    const int lw = g_.block_index(g_.bomber_fk(i));
    int dice = strength(lw);
    if (weather_ == kRain)
      dice = std::min(dice, 1);
    else
      dice = german_weather_dice(dice, true);  // 8.0 Snow; OR 14.5 Blizzard (an attack)
    hits += roll_hits(dice, g_.bomber_is_stuka(i) ? kTriple : kDouble,
                      g_.bomber_is_stuka(i) ? "Stuka" : "He-111", blizzard_ ? "10.12.4, 14.5" : "10.12.4");
    bomber_status_[static_cast<size_t>(i)] = kBomberReady;
    bomber_area_[static_cast<size_t>(i)] = -1;
    // 10.16: a Stuka that survived may follow a Fast block Blitzing out of this area.
    if (g_.bomber_is_stuka(i) && phase_ != Phase::kBlitz) bomber_struck_[static_cast<size_t>(i)] = node;
  }
  return hits;
}

int Moscow41State::stukas_to_follow(int node) const {
  // 10.16: Stukas (not He-111) that survived a battle of this impulse may follow a friendly
  // Fast block that Blitzed out of that battle's area into `node`, to support its battle.
  if (!is_area(node) || !contested(node) || area(node).contested_at_start || area(node).fought) return 0;
  int n = 0;
  for (int i = 0; i < g_.bomber_count(); ++i) {
    const int from = bomber_struck_[static_cast<size_t>(i)];
    if (!g_.bomber_is_stuka(i) || from < 0 || bomber_status_[static_cast<size_t>(i)] != kBomberReady)
      continue;
    for (const auto& [x, y] : blitz_moves_)
      if (x == from && y == node) {
        ++n;
        break;
      }
  }
  return n;
}

bool Moscow41State::blitz_hq_in_range(int b) const {
  // 10.16: within range of an activated, appropriate Blitz HQ (Zhukov, Guderian, Hoth;
  // Hoepner only on the map with the Typhoon/Last Gasp special rule).
  for (size_t h = 0; h < blocks_.size(); ++h) {
    const BlockDef& hd = g_.blocks()[h];
    if (hd.side != def(b).side || !blocks_[h].activated || !is_area(blocks_[h].loc)) continue;
    const bool blitz_hq = hd.blitz || (hd.id == "HQ4Pg" && hoepner_full_hq());  // on the map only
    if (!blitz_hq) continue;
    if (!(hd.id == "Zhukov" || def(b).colour == hd.colour || def(b).colour == "white" ||
          options_[kOptIgnoreColour] || blocks_[h].loc == block(b).loc))  // OR 14.1
      continue;
    if (in_tactical_range(static_cast<int>(h), block(b).loc)) return true;
  }
  return false;
}

Status Moscow41State::check_blitz(int b, int node) const {
  const BlockDef& d = def(b);
  const BlockState& s = block(b);
  if (d.side != active_ || d.kind != Kind::kCombat || !d.fast)
    return rule_error("10.16", "only Fast Combat Blocks Blitz");
  if (!s.blitz || s.blitzed)
    return rule_error("10.16", "the block has not cleared a Green area this impulse");
  if (!is_area(s.loc) || !is_area(node)) return rule_error("10.16", "no Blitz in boxes or on the Road");
  if (!g_.adjacent(s.loc, node)) return rule_error("10.16", "a Blitz moves 1 MP only");
  if (ad(node).terrain != kGreen) return rule_error("10.16", "no Blitz into Yellow or Victory areas");
  if (area(node).contested_at_start || (contested(node) && !has_units(active_, node)))
    return rule_error("10.16", "no Blitz into an area contested when the Blitz Segment began");
  if (contested(node)) return rule_error("10.16", "no Blitz into a contested area");
  if (!blitz_hq_in_range(b)) return rule_error("10.16", "no activated Blitz HQ has the block in range");
  if (!stack_ok(d.side, node, 1)) return rule_error("2.7", "stacking limit exceeded");
  return Status::ok();
}

bool Moscow41State::any_blitz() const {
  if (weather_ != kSunny) return false;
  for (size_t b = 0; b < blocks_.size(); ++b) {
    if (!blocks_[b].blitz || blocks_[b].blitzed || g_.blocks()[b].side != active_ || !is_area(blocks_[b].loc))
      continue;
    for (int y : g_.neighbours(blocks_[b].loc))
      if (check_blitz(static_cast<int>(b), y).is_ok()) return true;
  }
  return false;
}

}  // namespace moscow41
