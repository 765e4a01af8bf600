#include "race_game.h"

#include "kernel/notation.h"

namespace steppe::testing {

std::vector<ScenarioInfo> RaceGame::scenarios() const {
  return {{"standard", "Standard race", "First to 20", 1, 60},
          {"short", "Short race", "First to 8", 1, 60},
          {"empty", "Empty", "Both at the start, goal 20", 1, 60}};
}

Result<std::unique_ptr<State>> RaceGame::new_state(const std::string& scenario, uint64_t seed) const {
  int goal = 0;
  if (scenario == "standard" || scenario == "empty")
    goal = 20;
  else if (scenario == "short")
    goal = 8;
  else
    return Error{"unknown scenario '" + scenario + "' (known: standard, short, empty)", "", ""};
  return std::unique_ptr<State>(std::make_unique<RaceState>(*this, goal, seed));
}

Json RaceGame::map_json() const { return Json{{"track", 20}}; }

Result<Json> RaceGame::describe_location(const std::string& id) const {
  auto n = parse_int(id);
  if (!n || *n < 0 || *n > 20) return Error{"no space '" + id + "' on the track (0..20)", "", ""};
  return Json{{"space", *n}};
}

RaceState::RaceState(const RaceGame& game, int goal, uint64_t seed) : game_(&game), goal_(goal) {
  dice_ = Dice(seed);
  card_[0] = dice_.roll(3);
  card_[1] = dice_.roll(3);
}

int RaceState::winner() const {
  for (int s = 0; s < 2; ++s)
    if (pos_[static_cast<size_t>(s)] >= goal_) return s;
  return -1;
}

bool RaceState::is_terminal() const { return winner() >= 0 || actions_ >= kMaxActions; }
int RaceState::current_player() const { return is_terminal() ? kTerminalPlayer : turn_; }

std::vector<double> RaceState::returns() const {
  const int w = winner();
  if (w < 0) return {0.0, 0.0};
  return w == 0 ? std::vector<double>{1.0, -1.0} : std::vector<double>{-1.0, 1.0};
}

Json RaceState::result() const {
  const int w = winner();
  return Json{
      {"winner", w < 0 ? (is_terminal() ? "draw" : "none") : game_->side_names()[static_cast<size_t>(w)]},
      {"turn", actions_ / 2 + 1},
      {"vp", Json{{"red", pos_[0]}, {"blue", pos_[1]}}}};
}

void RaceState::legal_actions(std::vector<Action>& out) const {
  out.clear();
  if (is_terminal()) return;
  for (int n = 1; n <= 2; ++n) {
    Action a;
    a.verb = kStep;
    a.push(n);
    out.push_back(a);
  }
  Action r;
  r.verb = kRoll;
  out.push_back(r);
  if (!revealed_[static_cast<size_t>(turn_)]) {
    Action v;
    v.verb = kReveal;
    out.push_back(v);
  }
}

Status RaceState::check(const Action& a) const {
  if (game_->bugs().refusal_changes_state) ++refusals_;
  if (is_terminal()) return rule_error("R1", "the race is over");
  switch (a.verb) {
    case kStep:
      if (a.nargs != 1) return Error{"`step` takes one number", "", ""};
      if (a.args[0] == 3 && game_->bugs().accept_step3) return Status::ok();
      if (a.args[0] < 1 || a.args[0] > 2)
        return rule_error("R2", "a step is 1 or 2 spaces, not " + std::to_string(a.args[0]));
      break;
    case kRoll:
      if (a.nargs != 0) return Error{"`roll` takes no arguments", "", ""};
      break;
    case kReveal:
      if (a.nargs != 0) return Error{"`reveal` takes no arguments", "", ""};
      if (revealed_[static_cast<size_t>(turn_)]) return rule_error("R4", "your card is already revealed");
      break;
    default:
      return Error{"unknown action verb " + std::to_string(a.verb), "", ""};
  }
  if (game_->bugs().refusal_changes_state) --refusals_;
  return Status::ok();
}

void RaceState::do_apply(const Action& a) {
  const auto s = static_cast<size_t>(turn_);
  const std::string who = game_->side_names()[s];
  switch (a.verb) {
    case kStep: {
      pos_[s] += a.args[0];
      emit(Event{"move",
                 who + " steps " + std::to_string(a.args[0]) + " to " + std::to_string(pos_[s]),
                 "R2",
                 0xFFFFFFFFu,
                 false,
                 {}});
      break;
    }
    case kRoll: {
      const int v = roll(6, who + " rolls for movement", "R3");
      pos_[s] += v;
      emit(Event{"move",
                 who + " moves " + std::to_string(v) + " to " + std::to_string(pos_[s]),
                 "R3",
                 0xFFFFFFFFu,
                 false,
                 {}});
      break;
    }
    case kReveal: {
      revealed_[s] = true;
      pos_[s] += card_[s];
      emit(Event{"reveal", who + " reveals card " + std::to_string(card_[s]), "R4", 0xFFFFFFFFu, true, {}});
      break;
    }
    default:
      break;
  }
  // Private note only the mover sees (exercises visible_to filtering).
  emit(Event{"note", who + " private note", "", 1u << turn_, false, {}});
  ++actions_;
  turn_ = 1 - turn_;
}

std::unique_ptr<State> RaceState::clone() const {
  auto c = std::make_unique<RaceState>(*this);
  if (game_->bugs().clone_forgets_position) c->pos_[1] = 0;
  return c;
}

Json RaceState::observation(int side) const {
  Json j{{"pos", {pos_[0], pos_[1]}}, {"turn", turn_}, {"actions", actions_}, {"goal", goal_}};
  for (int s = 0; s < 2; ++s) {
    const auto i = static_cast<size_t>(s);
    if (s == side || revealed_[i] || game_->bugs().leak_card)
      j["card"][i] = card_[i];
    else
      j["card"][i] = nullptr;
  }
  return j;
}

Json RaceState::full_json() const {
  return Json{{"pos", {pos_[0], pos_[1]}},
              {"card", {card_[0], card_[1]}},
              {"revealed", {revealed_[0], revealed_[1]}},
              {"turn", turn_},
              {"actions", actions_},
              {"goal", goal_},
              {"dice", {dice_.seed(), dice_.counter()}},
              {"refusals", refusals_}};
}

uint64_t RaceState::state_hash() const {
  uint64_t h = 0x1234;
  auto mix = [&h](uint64_t v) { h = splitmix64(h ^ v); };
  for (size_t i = 0; i < 2; ++i) {
    mix(static_cast<uint64_t>(pos_[i]));
    mix(static_cast<uint64_t>(card_[i]));
    mix(revealed_[i] ? 1 : 0);
  }
  mix(static_cast<uint64_t>(turn_));
  mix(static_cast<uint64_t>(actions_));
  mix(static_cast<uint64_t>(goal_));
  mix(dice_.seed());
  mix(dice_.counter());
  mix(static_cast<uint64_t>(refusals_));
  return h;
}

std::string RaceState::action_to_string(const Action& a) const {
  switch (a.verb) {
    case kStep:
      if (game_->bugs().notation_loses_arg) return "step";
      return a.nargs >= 1 ? "step " + std::to_string(a.args[0]) : "step";
    case kRoll:
      return "roll";
    case kReveal:
      return "reveal";
    default:
      return "?" + std::to_string(a.verb);
  }
}

Result<Action> RaceState::parse_action(std::string_view text) const {
  const auto w = split_words(text);
  if (w.empty()) return Error{"empty action", "", ""};
  Action a;
  if (w[0] == "step") {
    if (w.size() != 2) return Error{"usage: step N", "", ""};
    auto n = parse_int(w[1]);
    if (!n || *n < -1000 || *n > 1000) return Error{"not a number of spaces: '" + w[1] + "'", "", ""};
    a.verb = kStep;
    a.push(static_cast<int32_t>(*n));
  } else if (w[0] == "roll" && w.size() == 1) {
    a.verb = kRoll;
  } else if (w[0] == "reveal" && w.size() == 1) {
    a.verb = kReveal;
  } else {
    return Error{"unknown action '" + std::string(text) + "' (known: step N, roll, reveal)", "", ""};
  }
  return a;
}

void RaceState::resample_hidden(int viewer, uint64_t seed) {
  dice_.reseed(seed);
  for (size_t s = 0; s < 2; ++s)
    if (static_cast<int>(s) != viewer && !revealed_[s])
      card_[s] = 1 + static_cast<int>(splitmix64(seed + s) % 3);
}

namespace {
Result<int> side_of(const std::string& w) {
  if (w == "red") return 0;
  if (w == "blue") return 1;
  return Error{"unknown side '" + w + "' (red, blue)", "", ""};
}
}  // namespace

Status RaceState::test_set(const std::vector<std::string>& w) {
  if (w.size() == 3 && w[0] == "pos") {
    auto s = side_of(w[1]);
    auto n = parse_int(w[2]);
    if (!s) return s.error();
    if (!n || *n < 0 || *n > 100) return Error{"bad position '" + w[2] + "'", "", ""};
    pos_[static_cast<size_t>(*s)] = static_cast<int>(*n);
    return Status::ok();
  }
  if (w.size() == 3 && w[0] == "card") {
    auto s = side_of(w[1]);
    auto n = parse_int(w[2]);
    if (!s) return s.error();
    if (!n || *n < 1 || *n > 3) return Error{"bad card '" + w[2] + "'", "", ""};
    card_[static_cast<size_t>(*s)] = static_cast<int>(*n);
    return Status::ok();
  }
  if (w.size() == 2 && w[0] == "turn") {
    auto s = side_of(w[1]);
    if (!s) return s.error();
    turn_ = *s;
    return Status::ok();
  }
  return Error{"unknown set-up '" + join_words(w) + "' (pos SIDE N, card SIDE N, turn SIDE)", "", ""};
}

Result<std::string> RaceState::test_query(const std::vector<std::string>& w) const {
  if (w.size() == 2 && (w[0] == "pos" || w[0] == "card")) {
    auto s = side_of(w[1]);
    if (!s) return s.error();
    const auto i = static_cast<size_t>(*s);
    return std::to_string(w[0] == "pos" ? pos_[i] : card_[i]);
  }
  if (w.size() == 1 && w[0] == "turn") return game_->side_names()[static_cast<size_t>(turn_)];
  return Error{"unknown query '" + join_words(w) + "' (pos SIDE, card SIDE, turn)", "", ""};
}

}  // namespace steppe::testing
