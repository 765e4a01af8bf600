// Moscow '41: Scenario-test hooks (docs/scenario-tests.md): set-up words and queries. Never called
// by the server; the typed views (views.cpp) answer it.
// Every rule cites its rulebook section (seeds/002).
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "games/moscow41/state.h"
#include "games/moscow41/state_names.h"
#include "kernel/notation.h"

namespace moscow41 {

using steppe::Error;
using steppe::Result;
using steppe::Status;

namespace {

int parse_side(const std::string& s) { return s == "german" ? kGerman : s == "soviet" ? kSoviet : kNoSide; }

}  // namespace

// ----------------------------------------------------------------------------------------
// Scenario-test hooks
Status Moscow41State::test_set(const std::vector<std::string>& w) {
  auto need_node = [&](const std::string& id) { return g_.node(id); };
  if (w.empty()) return Error{"empty set-up", "", ""};
  const std::string& k = w[0];
  if (k == "clear" && w.size() == 1) {
    for (auto& s : blocks_) s = BlockState{};
    setup_.clear();
    if (phase_ == Phase::kSetup) phase_ = Phase::kImpulse;
    for (int n = 0; n < node_count(); ++n) {
      as(n).dl = kNoSide;
      as(n).control =
          (is_area(n) && ad(n).terrain == kStaging) || n == g_.box_rastenburg() ? kGerman : kSoviet;
    }
    hoepner_road_ = -1;
    battle_ = Battle{};
    return Status::ok();
  }
  if (k == "place" && (w.size() == 3 || w.size() == 4)) {
    const int b = g_.block_index(w[1]);
    const int n = need_node(w[2]);
    if (b < 0 || n < 0) return Error{"place BLOCK AREA [STRENGTH]: unknown block or area", "", ""};
    int level = 0;
    if (w.size() == 4) {
      const auto st = steppe::parse_int_in(w[3], 0, 99);
      if (!st)
        return Error{"place BLOCK AREA STRENGTH: strength must be a number, not '" + w[3] + "'", "", ""};
      const auto& lv = def(b).levels;
      auto it = std::find(lv.begin(), lv.end(), *st);
      if (it == lv.end()) return Error{"block " + w[1] + " has no strength " + w[3], "", ""};
      level = static_cast<int>(it - lv.begin());
    }
    bs(b).loc = n;
    bs(b).level = level;
    if (def(b).id == "HQ4Pg" || def(b).letter == 'L') {
      for (size_t r = 0; r < g_.road().size(); ++r)
        if (g_.road()[r] == n && def(b).id == "HQ4Pg") hoepner_road_ = static_cast<int>(r);
    }
    if (is_area(n) && !has_units(1 - def(b).side, n)) as(n).control = def(b).side;
    return Status::ok();
  }
  if (k == "pool" && w.size() == 2) {
    const int b = g_.block_index(w[1]);
    if (b < 0) return Error{"unknown block " + w[1], "", ""};
    bs(b).loc = kLocPool;
    return Status::ok();
  }
  if (k == "control" && w.size() == 3 && parse_side(w[2]) != kNoSide) {
    // control AREA[,AREA...] SIDE: every area is checked before any changes.
    std::vector<int> nodes;
    std::stringstream list(w[1]);
    for (std::string id; std::getline(list, id, ',');) {
      if (need_node(id) < 0) return Error{"control AREA[,AREA...] SIDE: unknown area '" + id + "'", "", ""};
      nodes.push_back(need_node(id));
    }
    for (int n : nodes) as(n).control = parse_side(w[2]);
    return Status::ok();
  }
  if (k == "dl" && w.size() == 3 && need_node(w[1]) >= 0) {
    as(need_node(w[1])).dl = parse_side(w[2]);
    return Status::ok();
  }
  if (k == "weather" && w.size() == 2) {
    if (w[1] == "blizzard") {  // OR 14.5
      if (!options_[kOptBlizzard])
        return Error{"Blizzard is optional rule 14.5: play SCENARIO+blizzard or set option blizzard", "14.5",
                     ""};
      weather_ = kSnow;
      blizzard_ = true;
      return Status::ok();
    }
    for (int i = 0; i < 3; ++i)
      if (w[1] == kWeather[i]) {
        weather_ = i;
        blizzard_ = false;
        return Status::ok();
      }
  }
  if (k == "option" && (w.size() == 2 || w.size() == 3)) {  // 14.0
    if (w.size() == 3 && w[2] != "on" && w[2] != "off")
      return Error{"option NAME [on|off], not '" + w[2] + "'", "14.0", ""};
    return set_option(w[1], w.size() == 2 || w[2] == "on");
  }
  if (k == "german-impulses" && w.size() == 2) {  // 8.1, OR 14.5: German impulses this month
    const auto n = steppe::parse_int_in(w[1], 0, 99);
    if (!n) return Error{"german-impulses must be a count, not '" + w[1] + "'", "", ""};
    german_impulses_ = *n;
    return Status::ok();
  }
  if (k == "turn" && w.size() == 2) {
    const auto t = steppe::parse_int_in(w[1], 1, 6);
    if (!t) return Error{"turn must be 1..6, not '" + w[1] + "'", "", ""};
    turn_ = *t;
    return Status::ok();
  }
  // Block status for tests: `reveal B` shows a block to the enemy as combat would (1.5);
  // `isolated B yes|no` sets the isolation the logistics phase would find (11.0).
  if ((k == "reveal" && w.size() == 2) || (k == "isolated" && w.size() == 3)) {
    const int b = g_.block_index(w[1]);
    if (b < 0) return Error{"unknown block '" + w[1] + "'", "", ""};
    if (k == "reveal") {
      bs(b).revealed = true;
    } else {
      if (w[2] != "yes" && w[2] != "no") return Error{"isolated BLOCK yes|no, not '" + w[2] + "'", "", ""};
      bs(b).isolated = w[2] == "yes";
    }
    return Status::ok();
  }
  if ((k == "active" || k == "logistics") && phase_ == Phase::kSetup)
    return Error{"the Scenario Setup is not finished (play setup auto for each side first)", "Scenario Setup",
                 ""};
  if ((k == "active" || k == "initiative") && w.size() == 2 && parse_side(w[1]) != kNoSide) {
    (k == "active" ? active_ : initiative_) = parse_side(w[1]);
    if (k == "active") {
      phase_ = Phase::kImpulse;
      battle_ = Battle{};
    }
    return Status::ok();
  }
  if (k == "logistics" && w.size() == 2 && parse_side(w[1]) != kNoSide) {
    // The Logistics Phase with SIDE to choose, the other side having chosen (7.0).
    phase_ = Phase::kLogistics;
    active_ = parse_side(w[1]);
    logistics_done_ = 1;
    battle_ = Battle{};
    return Status::ok();
  }
  if (k == "surrendered" && w.size() == 2) {
    const auto n = steppe::parse_int_in(w[1], 0, 999);
    if (!n) return Error{"surrendered must be a count, not '" + w[1] + "'", "", ""};
    surrendered_soviet_ = *n;
    return Status::ok();
  }
  if (k == "destroyed" && w.size() == 2) {
    const auto n = steppe::parse_int_in(w[1], 0, 999);
    if (!n) return Error{"destroyed must be a count, not '" + w[1] + "'", "", ""};
    destroyed_german_ = *n;
    return Status::ok();
  }
  if (k == "kiev" && w.size() == 2) {
    kiev_german_ = w[1] == "german";
    return Status::ok();
  }
  if (k == "leningrad" && w.size() == 2) {
    len_german_ = w[1] == "german";
    return Status::ok();
  }
  if (k == "victory" && w.size() == 2) {
    if (w[1] != "none" && g_.victory_rules(w[1]) == nullptr)
      return Error{"unknown victory kind \"" + w[1] +
                       "\" (none, or a kind a scenario declares: campaign, dnieper, moscow)",
                   "1.7", ""};
    victory_kind_ = w[1];
    return Status::ok();
  }
  return Error{
      "unknown set-up words (clear; place B A [S]; pool B; control A SIDE; dl A SIDE|none; weather W; "
      "turn N; active SIDE; logistics SIDE; initiative SIDE; surrendered N; destroyed N; kiev SIDE; "
      "leningrad SIDE; victory "
      "KIND)",
      "", ""};
}

Result<std::string> Moscow41State::test_query(const std::vector<std::string>& w) const {
  if (w.size() == 2 && w[0] == "lv") return std::to_string(logistics_value(parse_side(w[1])));
  if (w.size() == 2 && w[0] == "vp") return std::to_string(victory_points(parse_side(w[1])));
  if (w.size() == 1 && w[0] == "weather") return std::string(blizzard_ ? "blizzard" : kWeather[weather_]);
  if (w.size() == 1 && w[0] == "surrendered") return std::to_string(surrendered_soviet_);
  if (w.size() == 1 && w[0] == "destroyed") return std::to_string(destroyed_german_);
  if (w.size() == 1 && w[0] == "turn") return std::to_string(turn_);
  if (w.size() == 2 && w[0] == "pool") {
    int n = 0;
    for (size_t b = 0; b < blocks_.size(); ++b)
      n += blocks_[b].loc == kLocPool && g_.blocks()[b].side == parse_side(w[1]);
    return std::to_string(n);
  }
  if (w.size() == 2 && w[0] == "placed-in-cities") {  // friendly blocks in city/Victory areas
    int n = 0;
    for (size_t b = 0; b < blocks_.size(); ++b) {
      const int l = blocks_[b].loc;
      if (g_.blocks()[b].side == parse_side(w[1]) && is_area(l) && (ad(l).city || ad(l).terrain == kVictory))
        ++n;
    }
    return std::to_string(n);
  }
  if (w.size() == 2 && w[0] == "bombers") {
    int n = 0;
    for (int st : bomber_status_) n += w[1] == kBomberStatus[st];
    return std::to_string(n);
  }
  if (w.size() == 2 && w[0] == "points") {  // 7.2.2: left in this Leader Activation
    if (w[1] == "regeneration") return std::to_string(regen_left_);
    if (w[1] == "replacement") return std::to_string(repl_left_);
    if (w[1] == "reinforcements") return std::to_string(draws_left_);
  }
  if (w.size() == 2 && w[0] == "setup-left") return std::to_string(setup_left(parse_side(w[1])));
  if (w.size() == 2 && w[0] == "setup-pieces") {  // the waiting pieces of SIDE, in order
    std::string out;
    for (const SetupPiece& p : setup_)
      if (p.side == parse_side(w[1]))
        out += (out.empty() ? "" : " ") + (p.block < 0 ? "dl" : def(p.block).id);
    return out.empty() ? std::string("none") : out;
  }
  if (w.size() == 3 && w[0] == "setup-areas") {  // where a waiting block (or `dl`) may go
    const int b = w[1] == "dl" ? -1 : g_.block_index(w[1]);
    for (const SetupPiece& p : setup_)
      if (p.side == parse_side(w[2]) && p.block == b) {
        std::string out;
        for (int n : setup_sites(p)) out += (out.empty() ? "" : " ") + g_.map().id(n);
        return out.empty() ? std::string("none") : out;
      }
    return Error{w[1] + " is not waiting to be set up by " + w[2], "", ""};
  }
  if ((w.size() == 2 || w.size() == 3) && w[0] == "combat" && g_.node(w[1]) >= 0) {
    // The battle preview (views.cpp) as SIDE sees it (the attacker by default): the dice,
    // who fires first, and each outcome "hits on the defender-hits on the attacker" with
    // its probability.
    steppe::Action a;
    a.verb = kVBattle;
    a.push(g_.node(w[1]));
    auto p = preview(a, w.size() == 3 ? parse_side(w[2]) : active_);
    if (!p) return p.error();
    std::string out = p->raw + ", " + p->final;
    for (const auto& o : p->outcomes) {
      char buf[32];
      std::snprintf(buf, sizeof buf, " %.4f", o.probability);
      out += "; " + o.result + buf;
    }
    return out;
  }
  if ((w.size() == 2 || w.size() == 3) && w[0] == "reach") {
    // Where block B can go now (views.cpp), as SIDE sees it (its owner by default): AREA:MP.
    const int b = g_.block_index(w[1]);
    if (b < 0) return Error{"unknown block " + w[1], "", ""};
    auto r = reach(w[1], w.size() == 3 ? parse_side(w[2]) : def(b).side);
    if (!r) return r.error();
    std::string out;
    for (const auto& d : r->destinations)
      out += (out.empty() ? "" : " ") + d.location + ":" + std::to_string(d.cost);
    return out.empty() ? std::string("none") : out;
  }
  if (w.size() == 1 && w[0] == "active") return std::string(side_name(active_));
  if (w.size() == 1 && w[0] == "initiative") return std::string(side_name(initiative_));
  if (w.size() == 1 && w[0] == "phase") {
    return std::string(phase_name(phase_));
  }
  if (w.size() == 2 && w[0] == "control" && g_.node(w[1]) >= 0)
    return std::string(side_name(area(g_.node(w[1])).control));
  if (w.size() == 2 && w[0] == "dl" && g_.node(w[1]) >= 0)
    return std::string(side_name(area(g_.node(w[1])).dl));
  if (w.size() == 2 && w[0] == "contested" && g_.node(w[1]) >= 0)
    return std::string(contested(g_.node(w[1])) ? "yes" : "no");
  if (w.size() == 3 && w[0] == "blocks" && g_.node(w[2]) >= 0)
    return std::to_string(blocks_in(parse_side(w[1]), g_.node(w[2])));
  if (w.size() == 3 && w[0] == "block") {
    const int b = g_.block_index(w[1]);
    if (b < 0) return Error{"unknown block " + w[1], "", ""};
    if (w[2] == "strength") return std::to_string(strength(b));
    if (w[2] == "at") {
      const int l = block(b).loc;
      if (l >= 0) return g_.map().id(l);
      return std::string(l == kLocPool          ? "pool"
                         : l == kLocDrawn       ? "drawn"
                         : l == kLocDestroyed   ? "destroyed"
                         : l == kLocSurrendered ? "surrendered"
                         : l == kLocRemoved     ? "removed"
                         : l == kLocSetup       ? "setup"
                                                : "elsewhere");
    }
    if (w[2] == "isolated") return std::string(block(b).isolated ? "yes" : "no");
    if (w[2] == "revealed") return std::string(block(b).revealed ? "yes" : "no");
  }
  return Error{
      "unknown query (lv S; vp S; weather; active; initiative; phase; control A; dl A; contested A; "
      "blocks S A; block B strength|at|isolated|revealed; points regeneration|replacement|reinforcements; "
      "bombers ready|committed|aborted|destroyed; setup-left S; setup-pieces S; setup-areas B|dl S; "
      "combat A [S]; reach B [S])",
      "", ""};
}

}  // namespace moscow41
