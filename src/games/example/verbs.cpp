// The example game's verbs, one kernel/verbs.h row each: how each is generated, checked,
// applied, printed and read. Units are named by id, hexes by CCRR.
//   move UNIT HEX   3.1 a unit moves to a hex it can reach (the path is the cheapest one)
//   attack HEX      4.1 every unit that may attack the unit in HEX does
//   end             2.1 the phasing player ends the phase
#include "kernel/verbs.h"

#include <span>

#include "games/example/example.h"

namespace example {

using steppe::Action;
using steppe::Error;
using steppe::Result;
using steppe::Status;

namespace {

Status arity(const Action& a, int n, std::string_view usage) {
  if (a.nargs != n) return Error{"usage: " + std::string(usage), "", ""};
  return Status::ok();
}
bool valid_unit(const ExampleState& s, int u) { return u >= 0 && u < static_cast<int>(s.g().units().size()); }
bool valid_hex(const ExampleState& s, int h) { return s.g().grid().valid(h); }

Result<int> unit_arg(const ExampleState& s, std::string_view w) {
  const int u = s.g().unit_index(w);
  if (u < 0) return Error{"no unit '" + std::string(w) + "'", "1.2", ""};
  return u;
}
Result<int> hex_arg(const ExampleState& s, std::string_view w) {
  const int h = s.g().grid().parse(w);
  if (h < 0) return Error{"no hex '" + std::string(w) + "' (hexes are CCRR)", "1.1", ""};
  return h;
}

// ---- move UNIT HEX (3) ----
void gen_move(const ExampleState& s, std::vector<Action>& out) {
  if (s.movement_phase()) s.generate_moves(out);
}
Status check_move(const ExampleState& s, const Action& a) {
  if (Status st = arity(a, 2, "move UNIT HEX"); !st) return st;
  if (!valid_unit(s, a.args[0]) || !valid_hex(s, a.args[1])) return Error{"usage: move UNIT HEX", "", ""};
  return s.check_move(a.args[0], a.args[1]);
}
void apply_move(ExampleState& s, const Action& a) { s.do_move(a.args[0], a.args[1]); }
std::string print_move(const ExampleState& s, const Action& a) {
  return "move " + s.g().units()[static_cast<size_t>(a.args[0])].id + " " + s.g().grid().id(a.args[1]);
}
Result<Action> parse_move(const ExampleState& s, std::span<const std::string_view> w) {
  if (w.size() != 2) return Error{"usage: move UNIT HEX", "", ""};
  auto u = unit_arg(s, w[0]);
  if (!u) return u.error();
  auto h = hex_arg(s, w[1]);
  if (!h) return h.error();
  Action a;
  a.verb = kMove;
  a.push(*u);
  a.push(*h);
  return a;
}

// ---- attack HEX (4) ----
void gen_attack(const ExampleState& s, std::vector<Action>& out) {
  if (!s.movement_phase()) s.generate_attacks(out);
}
Status check_attack(const ExampleState& s, const Action& a) {
  if (Status st = arity(a, 1, "attack HEX"); !st) return st;
  if (!valid_hex(s, a.args[0])) return Error{"usage: attack HEX", "", ""};
  return s.check_attack(a.args[0]);
}
void apply_attack(ExampleState& s, const Action& a) { s.do_attack(a.args[0]); }
std::string print_attack(const ExampleState& s, const Action& a) {
  return "attack " + s.g().grid().id(a.args[0]);
}
Result<Action> parse_attack(const ExampleState& s, std::span<const std::string_view> w) {
  if (w.size() != 1) return Error{"usage: attack HEX", "", ""};
  auto h = hex_arg(s, w[0]);
  if (!h) return h.error();
  Action a;
  a.verb = kAttack;
  a.push(*h);
  return a;
}

// ---- end (2.1) ----
void gen_end(const ExampleState& /*s*/, std::vector<Action>& out) {
  Action a;
  a.verb = kEnd;
  out.push_back(a);
}
Status check_end(const ExampleState& /*s*/, const Action& a) { return arity(a, 0, "end"); }
void apply_end(ExampleState& s, const Action& /*a*/) { s.end_phase(); }
std::string print_end(const ExampleState& /*s*/, const Action& /*a*/) { return "end"; }
Result<Action> parse_end(const ExampleState& /*s*/, std::span<const std::string_view> w) {
  if (!w.empty()) return Error{"usage: end", "", ""};
  Action a;
  a.verb = kEnd;
  return a;
}

// The table's order is the order of legal_actions(): moves or attacks, then end.
constexpr steppe::VerbRow<ExampleState> kRows[] = {
    {kMove, "move", "move UNIT HEX", "3.1", gen_move, check_move, apply_move, print_move, parse_move},
    {kAttack, "attack", "attack HEX", "4.1", gen_attack, check_attack, apply_attack, print_attack,
     parse_attack},
    {kEnd, "end", "end", "2.1", gen_end, check_end, apply_end, print_end, parse_end},
};
constexpr steppe::VerbTable<ExampleState> kVerbs{kRows};

}  // namespace

void ExampleState::legal_actions(std::vector<Action>& out) const {
  out.clear();
  if (!is_terminal()) kVerbs.generate(*this, out);
}

Status ExampleState::check(const Action& a) const {
  if (is_terminal()) return steppe::rule_error("5.1", "the game is over");
  return kVerbs.check(*this, a);
}

void ExampleState::do_apply(const Action& a) { kVerbs.apply(*this, a); }

std::string ExampleState::action_to_string(const Action& a) const { return kVerbs.print(*this, a); }

Result<Action> ExampleState::parse_action(std::string_view text) const { return kVerbs.parse(*this, text); }

}  // namespace example
