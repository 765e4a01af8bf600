// The verb table (kernel/verbs.h): one row per kind of action with its notation, generation,
// check and application; and the State's plumbing (JSON, hash, observation, new_state).
//
//   buy COUNT TYPE [lend-lease|siberian]       1.2.3   buy 3 infantry
//   move COUNT UNIT FROM TO                    3.25    move 2 medium_armor warsaw brest
//   battle ZONE                                3.36    battle brest        (one round)
//   retreat ZONE TO                            3.33    retreat brest warsaw
//   place COUNT UNIT ZONE [lend-lease|siberian] 1.2.9  place 3 infantry german-reinforcement-zone-1
//   stand ZONE / withdraw ZONE                 3.33    the defender, after a round: stay, or roll 1d12
//   pull COUNT UNIT ZONE TO                    3.33    ... and retreat up to that many units
//   casualties TYPE                            3.36.2.3 the side gives up TYPE first (Purchase step)
//   load COUNT UNIT ZONE                       3.35    units board the zone's trains (6 each)
//   rail FROM TO                               3.35    the loaded trains run and unload
//   sbr COUNT BOMBER FROM ZONE TARGET          3.36.1  a Strategic Bombing Raid (Combat Move)
//   repair ZONE FACILITY POINTS                3.37    1 BP a damage point (Place step)
//   ship COUNT UNIT FROM TO                    3.28    units sail between naval bases (Rail/Naval step)
//   carry COUNT UNIT ZONE truck|transport      3.7, 3.23 units board trucks or transports (3.13 airborne)
//   general NAME ZONE                          4.5     a general picked for the side takes the field
//   protect ZONE                               4.4.2   Russia's Murphy card 5: a zone the Axis cannot attack
//   end                                        1.2     ends the side's step
// UNIT is a type id ("infantry") for Germany or Russia and nation:type for a minor Axis
// nation ("romania:infantry").
#include <algorithm>
#include <charconv>
#include <set>
#include <tuple>

#include "games/aa/state.h"
#include "kernel/json_data.h"
#include "kernel/pathfinding.h"

namespace steppe::aa {

namespace {

int parse_int(std::string_view w) {
  int v = -1;
  const auto r = std::from_chars(w.data(), w.data() + w.size(), v);
  return r.ec == std::errc{} && r.ptr == w.data() + w.size() ? v : -1;
}

std::string unit_word(const AaState& s, int nation, int type) {
  const std::string id = type >= 0 && type < s.aa().base_type_count() ? s.aa().base(type).id : "?";
  return minor_axis(nation) ? std::string(nation_id(nation)) + ":" + id : id;
}

std::string zone_word(const AaState& s, int z) {
  return z >= 0 && z < s.aa().zone_count() ? s.aa().zone(z).id : "?";
}

const char* pool_word(int pool) {
  return pool == kLendLease ? " lend-lease" : pool == kSiberian ? " siberian" : "";
}

// "infantry" (the side's main nation) or "romania:infantry".
bool read_unit(const AaState& s, std::string_view w, int& nation, int& type) {
  const size_t colon = w.find(':');
  if (colon == std::string_view::npos) {
    nation = s.current_player() == kAxis ? kGermany : kRussiaNation;
  } else {
    nation = nation_from_id(w.substr(0, colon));
    w = w.substr(colon + 1);
  }
  type = s.aa().base_index(w);
  return nation >= 0 && type >= 0;
}

Result<int> read_zone(const AaState& s, std::string_view w) {
  const int z = s.aa().zone_index(w);
  if (z < 0)
    return Error{"no zone '" + std::string(w) + "' (zones are named like warsaw, moscow-west)", "", ""};
  return z;
}

int read_pool(std::span<const std::string_view> w, size_t at) {
  if (w.size() <= at) return kMainPool;
  if (w[at] == "lend-lease") return kLendLease;
  if (w[at] == "siberian") return kSiberian;
  return -1;
}

Result<Action> parse_buy(const AaState& s, std::span<const std::string_view> w) {
  if (w.size() < 2 || w.size() > 3) return Error{"usage: buy COUNT TYPE [lend-lease|siberian]", "", ""};
  const int n = parse_int(w[0]);
  const int t = s.aa().base_index(w[1]);
  const int pool = read_pool(w, 2);
  if (n < 1 || t < 0 || pool < 0) return Error{"usage: buy COUNT TYPE [lend-lease|siberian]", "", ""};
  return act(kBuy, {n, t, pool});
}

Result<Action> parse_move(const AaState& s, std::span<const std::string_view> w) {
  if (w.size() != 4) return Error{"usage: move COUNT UNIT FROM TO", "", ""};
  int nation = -1, type = -1;
  const int n = parse_int(w[0]);
  if (n < 1 || !read_unit(s, w[1], nation, type)) return Error{"usage: move COUNT UNIT FROM TO", "", ""};
  auto from = read_zone(s, w[2]);
  if (!from) return from.error();
  auto to = read_zone(s, w[3]);
  if (!to) return to.error();
  return act(kMove, {n, nation, type, *from, *to});
}

Result<Action> parse_battle(const AaState& s, std::span<const std::string_view> w) {
  if (w.size() != 1) return Error{"usage: battle ZONE", "", ""};
  auto z = read_zone(s, w[0]);
  if (!z) return z.error();
  return act(kBattle, {*z});
}

Result<Action> parse_retreat(const AaState& s, std::span<const std::string_view> w) {
  if (w.size() != 2) return Error{"usage: retreat ZONE TO", "", ""};
  auto z = read_zone(s, w[0]);
  if (!z) return z.error();
  auto to = read_zone(s, w[1]);
  if (!to) return to.error();
  return act(kRetreat, {*z, *to});
}

Result<Action> parse_place(const AaState& s, std::span<const std::string_view> w) {
  if (w.size() < 3 || w.size() > 4)
    return Error{"usage: place COUNT UNIT ZONE [lend-lease|siberian]", "", ""};
  int nation = -1, type = -1;
  const int n = parse_int(w[0]);
  const int pool = read_pool(w, 3);
  if (n < 1 || pool < 0 || !read_unit(s, w[1], nation, type))
    return Error{"usage: place COUNT UNIT ZONE [lend-lease|siberian]", "", ""};
  auto z = read_zone(s, w[2]);
  if (!z) return z.error();
  return act(kPlace, {n, nation, type, pool, *z});
}

Result<Action> parse_casualties(const AaState& s, std::span<const std::string_view> w) {
  if (w.size() != 1 || s.aa().base_index(w[0]) < 0)
    return Error{"usage: casualties TYPE (the type given up first)", "", ""};
  return act(kCasualties, {s.aa().base_index(w[0])});
}

Result<Action> parse_zone_verb(const AaState& s, std::span<const std::string_view> w, uint16_t verb,
                               const char* usage) {
  if (w.size() != 1) return Error{usage, "", ""};
  auto z = read_zone(s, w[0]);
  if (!z) return z.error();
  return act(verb, {*z});
}
Result<Action> parse_stand(const AaState& s, std::span<const std::string_view> w) {
  return parse_zone_verb(s, w, kStand, "usage: stand ZONE");
}
Result<Action> parse_withdraw(const AaState& s, std::span<const std::string_view> w) {
  return parse_zone_verb(s, w, kWithdraw, "usage: withdraw ZONE");
}
Result<Action> parse_pull(const AaState& s, std::span<const std::string_view> w) {
  if (w.size() != 4) return Error{"usage: pull COUNT UNIT ZONE TO", "", ""};
  int nation = -1, type = -1;
  const int n = parse_int(w[0]);
  if (n < 1 || !read_unit(s, w[1], nation, type)) return Error{"usage: pull COUNT UNIT ZONE TO", "", ""};
  auto z = read_zone(s, w[2]);
  if (!z) return z.error();
  auto to = read_zone(s, w[3]);
  if (!to) return to.error();
  return act(kPull, {n, nation, type, *z, *to});
}

Result<Action> parse_load(const AaState& s, std::span<const std::string_view> w) {
  if (w.size() != 3) return Error{"usage: load COUNT UNIT ZONE", "", ""};
  int nation = -1, type = -1;
  const int n = parse_int(w[0]);
  if (n < 1 || !read_unit(s, w[1], nation, type)) return Error{"usage: load COUNT UNIT ZONE", "", ""};
  auto z = read_zone(s, w[2]);
  if (!z) return z.error();
  return act(kLoad, {n, nation, type, *z});
}
Result<Action> parse_rail(const AaState& s, std::span<const std::string_view> w) {
  if (w.size() != 2) return Error{"usage: rail FROM TO", "", ""};
  auto from = read_zone(s, w[0]);
  if (!from) return from.error();
  auto to = read_zone(s, w[1]);
  if (!to) return to.error();
  return act(kRail, {*from, *to});
}

int read_target(std::string_view w) {
  for (int t = 0; t < kTargetCount; ++t)
    if (w == sbr_target_id(t)) return t;
  return -1;
}
Result<Action> parse_sbr(const AaState& s, std::span<const std::string_view> w) {
  const char* usage =
      "usage: sbr COUNT BOMBER FROM ZONE TARGET (industrial_complex, air_base, naval_base, railroad, "
      "aa_gun, supply, train)";
  if (w.size() != 5) return Error{usage, "", ""};
  int nation = -1, type = -1;
  const int n = parse_int(w[0]);
  const int target = read_target(w[4]);
  if (n < 1 || target < 0 || !read_unit(s, w[1], nation, type)) return Error{usage, "", ""};
  auto from = read_zone(s, w[2]);
  if (!from) return from.error();
  auto z = read_zone(s, w[3]);
  if (!z) return z.error();
  return act(kSbr, {n, nation, type, *from, *z, target});
}
Result<Action> parse_repair(const AaState& s, std::span<const std::string_view> w) {
  if (w.size() != 3) return Error{"usage: repair ZONE FACILITY POINTS", "", ""};
  auto z = read_zone(s, w[0]);
  if (!z) return z.error();
  const int target = read_target(w[1]);
  const int n = parse_int(w[2]);
  if (target < 0 || target > kRailroad || n < 1) return Error{"usage: repair ZONE FACILITY POINTS", "", ""};
  return act(kRepair, {*z, target, n});
}

Result<Action> parse_ship(const AaState& s, std::span<const std::string_view> w) {
  if (w.size() != 4) return Error{"usage: ship COUNT UNIT FROM TO", "", ""};
  int nation = -1, type = -1;
  const int n = parse_int(w[0]);
  if (n < 1 || !read_unit(s, w[1], nation, type)) return Error{"usage: ship COUNT UNIT FROM TO", "", ""};
  auto from = read_zone(s, w[2]);
  if (!from) return from.error();
  auto to = read_zone(s, w[3]);
  if (!to) return to.error();
  return act(kShip, {n, nation, type, *from, *to});
}
Result<Action> parse_carry(const AaState& s, std::span<const std::string_view> w) {
  const char* usage = "usage: carry COUNT UNIT ZONE truck|transport";
  if (w.size() != 4) return Error{usage, "", ""};
  int nation = -1, type = -1;
  const int n = parse_int(w[0]);
  const int by = s.aa().base_index(w[3]);
  if (n < 1 || by < 0 || !read_unit(s, w[1], nation, type)) return Error{usage, "", ""};
  auto z = read_zone(s, w[2]);
  if (!z) return z.error();
  return act(kCarry, {n, nation, type, *z, by});
}

std::string lower(std::string_view w) {
  std::string s(w);
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
Result<Action> parse_general(const AaState& s, std::span<const std::string_view> w) {
  if (w.size() != 2) return Error{"usage: general NAME ZONE", "", ""};
  int id = -1;
  const auto& all = s.aa().generals();
  for (size_t i = 0; i < all.size(); ++i)
    if (lower(all[i].name) == lower(w[0])) id = static_cast<int>(i);
  if (id < 0) return Error{"no general '" + std::string(w[0]) + "' (4.5: zhukov, guderian, ...)", "4.5", ""};
  auto z = read_zone(s, w[1]);
  if (!z) return z.error();
  return act(kGeneral, {id, *z});
}

Result<Action> parse_protect(const AaState& s, std::span<const std::string_view> w) {
  return parse_zone_verb(s, w, kProtect, "usage: protect ZONE");
}

Result<Action> parse_end(const AaState&, std::span<const std::string_view> w) {
  if (!w.empty()) return Error{"usage: end", "", ""};
  return act(kEnd, {});
}

std::string print_buy(const AaState& s, const Action& a) {
  return "buy " + std::to_string(a.args[0]) + " " + unit_word(s, kGermany, a.args[1]) + pool_word(a.args[2]);
}
std::string print_move(const AaState& s, const Action& a) {
  return "move " + std::to_string(a.args[0]) + " " + unit_word(s, a.args[1], a.args[2]) + " " +
         zone_word(s, a.args[3]) + " " + zone_word(s, a.args[4]);
}
std::string print_battle(const AaState& s, const Action& a) { return "battle " + zone_word(s, a.args[0]); }
std::string print_retreat(const AaState& s, const Action& a) {
  return "retreat " + zone_word(s, a.args[0]) + " " + zone_word(s, a.args[1]);
}
std::string print_place(const AaState& s, const Action& a) {
  return "place " + std::to_string(a.args[0]) + " " + unit_word(s, a.args[1], a.args[2]) + " " +
         zone_word(s, a.args[4]) + pool_word(a.args[3]);
}
std::string print_end(const AaState&, const Action&) { return "end"; }
std::string print_sbr(const AaState& s, const Action& a) {
  return "sbr " + std::to_string(a.args[0]) + " " + unit_word(s, a.args[1], a.args[2]) + " " +
         zone_word(s, a.args[3]) + " " + zone_word(s, a.args[4]) + " " + sbr_target_id(a.args[5]);
}
std::string print_repair(const AaState& s, const Action& a) {
  return "repair " + zone_word(s, a.args[0]) + " " + sbr_target_id(a.args[1]) + " " +
         std::to_string(a.args[2]);
}
std::string print_load(const AaState& s, const Action& a) {
  return "load " + std::to_string(a.args[0]) + " " + unit_word(s, a.args[1], a.args[2]) + " " +
         zone_word(s, a.args[3]);
}
std::string print_rail(const AaState& s, const Action& a) {
  return "rail " + zone_word(s, a.args[0]) + " " + zone_word(s, a.args[1]);
}
std::string print_ship(const AaState& s, const Action& a) {
  return "ship " + std::to_string(a.args[0]) + " " + unit_word(s, a.args[1], a.args[2]) + " " +
         zone_word(s, a.args[3]) + " " + zone_word(s, a.args[4]);
}
std::string print_carry(const AaState& s, const Action& a) {
  return "carry " + std::to_string(a.args[0]) + " " + unit_word(s, a.args[1], a.args[2]) + " " +
         zone_word(s, a.args[3]) + " " + unit_word(s, kGermany, a.args[4]);
}
std::string print_general(const AaState& s, const Action& a) {
  const auto& all = s.aa().generals();
  const std::string name = a.args[0] >= 0 && a.args[0] < static_cast<int>(all.size())
                               ? lower(all[static_cast<size_t>(a.args[0])].name)
                               : "?";
  return "general " + name + " " + zone_word(s, a.args[1]);
}
std::string print_protect(const AaState& s, const Action& a) { return "protect " + zone_word(s, a.args[0]); }
std::string print_stand(const AaState& s, const Action& a) { return "stand " + zone_word(s, a.args[0]); }
std::string print_withdraw(const AaState& s, const Action& a) {
  return "withdraw " + zone_word(s, a.args[0]);
}
std::string print_pull(const AaState& s, const Action& a) {
  return "pull " + std::to_string(a.args[0]) + " " + unit_word(s, a.args[1], a.args[2]) + " " +
         zone_word(s, a.args[3]) + " " + zone_word(s, a.args[4]);
}
std::string print_casualties(const AaState& s, const Action& a) {
  return "casualties " + unit_word(s, kGermany, a.args[0]);
}

constexpr VerbRow<AaState> kVerbs[] = {
    {kBuy, "buy", "buy COUNT TYPE [lend-lease|siberian]", "1.2.3",
     [](const AaState& s, std::vector<Action>& o) { s.gen_buy(o); },
     [](const AaState& s, const Action& a) { return s.check_buy(a); },
     [](AaState& s, const Action& a) { s.apply_buy(a); }, &print_buy, &parse_buy, nullptr},
    {kMove, "move", "move COUNT UNIT FROM TO", "3.25",
     [](const AaState& s, std::vector<Action>& o) { s.gen_move(o); },
     [](const AaState& s, const Action& a) { return s.check_move(a); },
     [](AaState& s, const Action& a) { s.apply_move(a); }, &print_move, &parse_move, nullptr},
    {kBattle, "battle", "battle ZONE", "3.36",
     [](const AaState& s, std::vector<Action>& o) { s.gen_battle(o); },
     [](const AaState& s, const Action& a) { return s.check_battle(a); },
     [](AaState& s, const Action& a) { s.apply_battle(a); }, &print_battle, &parse_battle, nullptr},
    {kRetreat, "retreat", "retreat ZONE TO", "3.33",
     [](const AaState& s, std::vector<Action>& o) { s.gen_retreat(o); },
     [](const AaState& s, const Action& a) { return s.check_retreat(a); },
     [](AaState& s, const Action& a) { s.apply_retreat(a); }, &print_retreat, &parse_retreat, nullptr},
    {kPlace, "place", "place COUNT UNIT ZONE [lend-lease|siberian]", "1.2.9",
     [](const AaState& s, std::vector<Action>& o) { s.gen_place(o); },
     [](const AaState& s, const Action& a) { return s.check_place(a); },
     [](AaState& s, const Action& a) { s.apply_place(a); }, &print_place, &parse_place, nullptr},
    {kCasualties, "casualties", "casualties TYPE", "3.36.2.3",
     [](const AaState& s, std::vector<Action>& o) { s.gen_casualties(o); },
     [](const AaState& s, const Action& a) { return s.check_casualties(a); },
     [](AaState& s, const Action& a) { s.apply_casualties(a); }, &print_casualties, &parse_casualties,
     nullptr},
    {kStand, "stand", "stand ZONE", "3.33",
     [](const AaState& s, std::vector<Action>& o) { s.gen_defender(o); },
     [](const AaState& s, const Action& a) { return s.check_stand(a); },
     [](AaState& s, const Action& a) { s.apply_stand(a); }, &print_stand, &parse_stand, nullptr},
    {kWithdraw, "withdraw", "withdraw ZONE", "3.33", nullptr,
     [](const AaState& s, const Action& a) { return s.check_withdraw(a); },
     [](AaState& s, const Action& a) { s.apply_withdraw(a); }, &print_withdraw, &parse_withdraw, nullptr},
    {kPull, "pull", "pull COUNT UNIT ZONE TO", "3.33", nullptr,
     [](const AaState& s, const Action& a) { return s.check_pull(a); },
     [](AaState& s, const Action& a) { s.apply_pull(a); }, &print_pull, &parse_pull, nullptr},
    {kLoad, "load", "load COUNT UNIT ZONE", "3.35",
     [](const AaState& s, std::vector<Action>& o) { s.gen_rail(o); },
     [](const AaState& s, const Action& a) { return s.check_load(a); },
     [](AaState& s, const Action& a) { s.apply_load(a); }, &print_load, &parse_load, nullptr},
    {kRail, "rail", "rail FROM TO", "3.35", nullptr,
     [](const AaState& s, const Action& a) { return s.check_rail(a); },
     [](AaState& s, const Action& a) { s.apply_rail(a); }, &print_rail, &parse_rail, nullptr},
    {kSbr, "sbr", "sbr COUNT BOMBER FROM ZONE TARGET", "3.36.1",
     [](const AaState& s, std::vector<Action>& o) { s.gen_sbr(o); },
     [](const AaState& s, const Action& a) { return s.check_sbr(a); },
     [](AaState& s, const Action& a) { s.apply_sbr(a); }, &print_sbr, &parse_sbr, nullptr},
    {kRepair, "repair", "repair ZONE FACILITY POINTS", "3.37", nullptr,
     [](const AaState& s, const Action& a) { return s.check_repair(a); },
     [](AaState& s, const Action& a) { s.apply_repair(a); }, &print_repair, &parse_repair, nullptr},
    {kShip, "ship", "ship COUNT UNIT FROM TO", "3.28",
     [](const AaState& s, std::vector<Action>& o) { s.gen_ship(o); },
     [](const AaState& s, const Action& a) { return s.check_ship(a); },
     [](AaState& s, const Action& a) { s.apply_ship(a); }, &print_ship, &parse_ship, nullptr},
    {kCarry, "carry", "carry COUNT UNIT ZONE truck|transport", "3.7, 3.23",
     [](const AaState& s, std::vector<Action>& o) { s.gen_carry(o); },
     [](const AaState& s, const Action& a) { return s.check_carry(a); },
     [](AaState& s, const Action& a) { s.apply_carry(a); }, &print_carry, &parse_carry, nullptr},
    {kGeneral, "general", "general NAME ZONE", "4.5",
     [](const AaState& s, std::vector<Action>& o) { s.gen_general(o); },
     [](const AaState& s, const Action& a) { return s.check_general(a); },
     [](AaState& s, const Action& a) { s.apply_general(a); }, &print_general, &parse_general, nullptr},
    {kProtect, "protect", "protect ZONE", "4.4.2",
     [](const AaState& s, std::vector<Action>& o) { s.gen_protect(o); },
     [](const AaState& s, const Action& a) { return s.check_protect(a); },
     [](AaState& s, const Action& a) { s.apply_protect(a); }, &print_protect, &parse_protect, nullptr},
    {kEnd, "end", "end", "1.2", [](const AaState& s, std::vector<Action>& o) { s.gen_end(o); },
     [](const AaState& s, const Action& a) { return s.check_end(a); },
     [](AaState& s, const Action& a) { s.apply_end(a); }, &print_end, &parse_end, nullptr},
};
constexpr VerbTable<AaState> kTable{kVerbs};

}  // namespace

// --- Generation: every legal action, by trying each candidate against its check ----------
void AaState::gen_buy(std::vector<Action>& out) const {
  if (phase_ != Phase::kPurchase) return;
  for (int pool = kMainPool; pool <= (active_ == kRussia ? kSiberian : kMainPool); ++pool)
    for (int t = 0; t < g_->base_type_count(); ++t) {
      if (!g_->purchasable(active_, t)) continue;
      for (int n = 1;; ++n) {
        const Action a = act(kBuy, {n, t, pool});
        if (!check_buy(a)) break;
        out.push_back(a);
      }
    }
}

void AaState::gen_move(std::vector<Action>& out) const {
  if (phase_ != Phase::kCombatMove && phase_ != Phase::kBlitz && phase_ != Phase::kNonCombatMove) return;
  std::set<std::tuple<int, int, int>> groups;
  for (const Unit& u : units_)
    if (side_of(u.nation) == active_ && u.mp > 0 && !u.locked) groups.insert({u.zone, u.nation, u.type});
  for (const auto& group : groups) {
    // Named copies, not a structured binding: the lambda captures them (clang 14 refuses).
    const int zone = std::get<0>(group), nation = std::get<1>(group), type = std::get<2>(group);
    const int ready = movable(zone, nation, type);
    if (ready == 0) continue;
    const bool air = g_->base(type).aircraft();
    auto try_to = [&](int to) {
      if (to == zone) return;
      for (int n = 1; n <= ready; ++n) {
        const Action a = act(kMove, {n, nation, type, zone, to});
        if (!check_move(a)) break;
        out.push_back(a);
      }
    };
    if (air) {
      // Only the zones within the group's best movement can pass the check (3.27): one search
      // instead of one per zone.
      int best = 0;
      for (const Unit& u : units_)
        if (u.zone == zone && u.nation == nation && u.type == type) best = std::max(best, u.mp);
      PathFinder pf;
      pf.reachable(g_->map().graph(), zone, best, [&](int, int next, int) {
        const ZoneKind k = g_->zone(next).kind;
        return k == ZoneKind::kLake ? StepCost::impassable() : StepCost::enter(k == ZoneKind::kSea ? 4 : 1);
      });
      std::vector<int> reached(pf.reached_nodes().begin(), pf.reached_nodes().end());
      std::sort(reached.begin(), reached.end());
      for (int to : reached) try_to(to);
    } else {
      for (const GraphEdge& e : g_->map().graph().neighbours(zone)) try_to(static_cast<int>(e.to));
    }
  }
}

void AaState::gen_battle(std::vector<Action>& out) const {
  if (phase_ != Phase::kCombat) return;
  std::vector<int> zs = battles_;
  std::sort(zs.begin(), zs.end());
  for (int z : zs) out.push_back(act(kBattle, {z}));
}

void AaState::gen_retreat(std::vector<Action>& out) const {
  if (phase_ != Phase::kCombat) return;
  std::vector<int> zs = battles_;
  std::sort(zs.begin(), zs.end());
  for (int z : zs) {
    if (battle_rounds_[static_cast<size_t>(z)] == 0) continue;
    for (const GraphEdge& e : g_->map().graph().neighbours(z))
      if (retreat_zone_ok(z, static_cast<int>(e.to), active_))
        out.push_back(act(kRetreat, {z, static_cast<int>(e.to)}));
  }
}

void AaState::gen_place(std::vector<Action>& out) const {
  if (phase_ != Phase::kPlace) return;
  for (const Pending& p : pending_) {
    if (side_of(p.nation) != active_) continue;
    for (int z = 0; z < g_->zone_count(); ++z)
      for (int n = 1; n <= p.count; ++n) {
        const Action a = act(kPlace, {n, p.nation, p.type, p.pool, z});
        if (!check_place(a)) break;
        out.push_back(a);
      }
  }
}

void AaState::gen_casualties(std::vector<Action>& out) const {
  if (phase_ != Phase::kPurchase) return;
  for (int t = 0; t < g_->base_type_count(); ++t) {
    const Action a = act(kCasualties, {t});
    if (check_casualties(a)) out.push_back(a);
  }
}

// 3.33: the defender stands, rolls to retreat, or (having rolled) pulls units out.
void AaState::gen_defender(std::vector<Action>& out) const {
  if (decision_zone_ < 0) return;
  const int zone = decision_zone_;
  out.push_back(act(kStand, {zone}));
  if (withdraw_left_ < 0) {
    out.push_back(act(kWithdraw, {zone}));
    return;
  }
  std::set<std::pair<int, int>> groups;
  for (const Unit& u : units_)
    if (u.zone == zone && side_of(u.nation) != active_) groups.insert({u.nation, u.type});
  for (const auto& [nation, type] : groups)
    for (const GraphEdge& e : g_->map().graph().neighbours(zone))
      for (int n = 1;; ++n) {
        const Action a = act(kPull, {n, nation, type, zone, static_cast<int>(e.to)});
        if (!check_pull(a)) break;
        out.push_back(a);
      }
}

// 3.35: loads onto the zones' trains, then the runs.
void AaState::gen_rail(std::vector<Action>& out) const {
  if (phase_ != Phase::kRail) return;
  std::set<std::tuple<int, int, int>> groups;
  for (const Unit& u : units_)
    if (side_of(u.nation) == active_ && u.rail == 0 && !u.locked) groups.insert({u.zone, u.nation, u.type});
  for (const auto& [zone, nation, type] : groups)
    for (int n = 1;; ++n) {
      const Action a = act(kLoad, {n, nation, type, zone});
      if (!check_load(a)) break;
      out.push_back(a);
    }
  const int train = g_->base_index("train");
  std::set<int> depots;
  for (const Unit& u : units_)
    if (side_of(u.nation) == active_ && u.type == train && (u.rail == 0 || u.rail == 2))
      depots.insert(u.zone);
  for (int from : depots)
    for (int to = 0; to < g_->zone_count(); ++to) {
      if (to == from) continue;
      const Action a = act(kRail, {from, to});
      if (check_rail(a)) out.push_back(a);
    }
}

// 3.36.1 raids in the Combat Move; 3.37 repairs in the Place step.
void AaState::gen_sbr(std::vector<Action>& out) const {
  if (phase_ == Phase::kPlace) {
    for (int z = 0; z < g_->zone_count(); ++z)
      for (int t = 0; t <= kRailroad; ++t)
        for (int n = 1;; ++n) {
          const Action a = act(kRepair, {z, t, n});
          if (!check_repair(a)) break;
          out.push_back(a);
        }
    return;
  }
  if (phase_ != Phase::kCombatMove) return;
  std::set<std::tuple<int, int, int>> groups;
  for (const Unit& u : units_)
    if (side_of(u.nation) == active_ && u.mp > 0 && g_->base(u.type).sbr_hit > 0)
      groups.insert({u.zone, u.nation, u.type});
  for (const auto& [from, nation, type] : groups)
    for (int z = 0; z < g_->zone_count(); ++z)
      for (int t = 0; t < kTargetCount; ++t) {
        if (!sbr_target_present(z, t)) continue;
        for (int n = 1;; ++n) {
          const Action a = act(kSbr, {n, nation, type, from, z, t});
          if (!check_sbr(a)) break;
          out.push_back(a);
        }
      }
}

void AaState::gen_end(std::vector<Action>& out) const {
  const Action a = act(kEnd, {});
  if (check_end(a)) out.push_back(a);
}

void AaState::legal_actions(std::vector<Action>& out) const {
  out.clear();
  if (phase_ == Phase::kOver) return;
  if (decision_zone_ >= 0) {  // 3.33: only the defender's decision
    gen_defender(out);
    return;
  }
  kTable.generate(*this, out);
}

Status AaState::check(const Action& a) const {
  if (phase_ == Phase::kOver) return rule_error("1.3", "the game is over");
  return kTable.check(*this, a);
}

void AaState::do_apply(const Action& a) { kTable.apply(*this, a); }

std::string AaState::action_to_string(const Action& a) const { return kTable.print(*this, a); }

Result<Action> AaState::parse_action(std::string_view text) const { return kTable.parse(*this, text); }

// --- Plumbing ------------------------------------------------------------------------
// Every field of the state: the state hash is taken of it, so a field left out here is a
// difference that the conformance suite's hash and clone checks cannot see.
Json AaState::full_json() const {
  Json units = Json::array();
  for (const Unit& u : units_)
    units.push_back(
        Json::array({nation_id(u.nation), g_->base(u.type).id, g_->zone(u.zone).id, u.damage, u.mp, u.from,
                     u.locked, u.marsh_turn, u.morale, u.rail, u.carried, u.dropped, u.general}));
  Json pend = Json::array();
  for (const Pending& p : pending_)
    pend.push_back(Json::array({nation_id(p.nation), g_->base(p.type).id, p.pool, p.count}));
  Json control = Json::object();
  for (int z = 0; z < g_->zone_count(); ++z)
    if (controller(z) != kNoSide)
      control[g_->zone(z).id] =
          Json::array({controller(z) == kAxis ? "axis" : "russia", captured_[static_cast<size_t>(z)]});
  Json battles = Json::array();
  for (int z : battles_)
    battles.push_back(Json::array({g_->zone(z).id, battle_rounds_[static_cast<size_t>(z)]}));
  Json raids_json = Json::array();
  for (const Raid& r : raids_)
    raids_json.push_back(Json::array({g_->zone(r.zone).id, sbr_target_id(r.target), g_->zone(r.from).id,
                                      nation_id(r.nation), g_->base(r.type).id, r.count}));
  // 3.37: facility damage, per kind, as {zone: points} (zones without damage left out).
  Json damage = Json::array();
  for (const std::vector<int>& per_zone : damage_) {
    Json kind = Json::object();
    for (int z = 0; z < g_->zone_count(); ++z)
      if (per_zone[static_cast<size_t>(z)] != 0) kind[g_->zone(z).id] = per_zone[static_cast<size_t>(z)];
    damage.push_back(kind);
  }
  Json casualty_first = Json::array();
  for (const std::vector<int>& order : casualty_first_) {
    Json types = Json::array();
    for (int t : order) types.push_back(g_->base(t).id);
    casualty_first.push_back(types);
  }
  Json mob = Json::array();
  for (int n = 0; n < kNationCount; ++n)
    if (mobilized_[static_cast<size_t>(n)]) mob.push_back(nation_id(n));
  return Json{
      {"scenario", scenario_},
      {"turn", turn_},
      {"last_turn", last_turn_},
      {"step", step_},
      {"phase", phase_name(phase_)},
      {"side", active_ == kAxis ? "axis" : "russia"},
      {"ci", ci_ == kAxis ? "axis" : "russia"},
      {"bp",
       {{"germany", bp_[0]}, {"russia", bp_[1]}, {"lend_lease", lend_lease_bp_}, {"siberian", siberian_bp_}}},
      {"elite_bought", elite_bought_},
      {"kerch_used", kerch_used_},
      {"winter_war", winter_war_},
      {"mobilized", mob},
      {"spain", spain_joined_},
      {"vp", axis_vp()},
      {"units", units},
      {"pending", pend},
      {"control", control},
      {"battle_fought", battle_fought_},
      {"attacked", attacked_},
      {"supplied", supplied_},
      {"placed", {placed_other_, placed_infantry_, placed_supply_}},
      {"battles", battles},
      {"raids", raids_json},
      {"damage", damage},
      {"shipped", shipped_},
      {"murphy", Json::array({murphy_, drawn_[0], drawn_[1], card_[0], card_[1], kept_[0], kept_[1],
                              ci_two_dice_turn_, finland_attacked_, protected_zone_})},
      {"casualty_chart", casualty_chart_},
      {"generals", Json::array({generals_, generals_drawn_, generals_waiting_, battle_general_})},
      {"casualty_first", casualty_first},
      {"decision", decision_zone_ < 0 ? Json() : Json(g_->zone(decision_zone_).id)},
      {"withdraw_left", withdraw_left_},
      {"winner", winner_},
      {"reason", end_reason_},
      {"dice", dice_.counter()}};
}

// Open information: each side sees the whole board.
Json AaState::observation(int side) const {
  Json o = full_json();
  o.erase("dice");
  o["viewer"] = side == kAxis ? "axis" : "russia";
  return o;
}

uint64_t AaState::state_hash() const { return fnv1a64(full_json().dump()); }

Result<std::unique_ptr<State>> AaGame::new_state(const std::string& scenario, uint64_t seed) const {
  const auto [name, options] = split_scenario_options(scenario);
  auto st = std::make_unique<AaState>(*this);
  for (const auto& o : options)
    if (Status s = st->set_option(o); !s) return s.error();
  st->dice().reseed(seed);
  if (Status s = st->setup(name); !s) return s.error();
  return std::unique_ptr<State>(std::move(st));
}

}  // namespace steppe::aa
