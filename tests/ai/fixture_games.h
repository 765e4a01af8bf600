// Test-only fixture games for the agent tests and benchmarks (never registered in
// all_games.cpp, never shipped). Header-only so that bench/bench_ai.cpp can use them.
//
// - NimGame: piles of stones, a move takes 1..n stones from one pile, taking the last
//   stone wins. Perfect play is known (nim-sum), so "finds the winning move" is checkable.
// - CardGame: a hidden card 0..2 is dealt to the second side; the first side may guess it
//   (right +1, wrong -1) or pass (0). Guessing is worth -1/3 on average, so an agent that
//   does not peek passes, while one that peeks at the true card guesses it.
#pragma once

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "ai/heuristics.h"
#include "kernel/state.h"

namespace steppe::fixture {

// Registers the heuristics H for `game_id` while the object lives: a test stopped by a
// failed ASSERT does not leave them registered for the tests after it.
template <class H>
class ScopedHeuristics {
 public:
  explicit ScopedHeuristics(std::string game_id) : id_(std::move(game_id)) {
    ai::register_heuristics(
        id_, [](const Game&) -> std::unique_ptr<ai::Heuristics> { return std::make_unique<H>(); });
  }
  ~ScopedHeuristics() { ai::unregister_heuristics(id_); }
  ScopedHeuristics(const ScopedHeuristics&) = delete;
  ScopedHeuristics& operator=(const ScopedHeuristics&) = delete;

 private:
  std::string id_;
};

// A fixture game has no map: nothing to draw, no location to describe.
class MaplessGame : public Game {
 public:
  Json map_json() const override { return Json::object(); }
  Result<Json> describe_location(const std::string& id) const override {
    return Error{"no location '" + id + "' in " + name(), "", ""};
  }
};

// ---------------------------------------------------------------------------------------
class NimGame final : public MaplessGame {
 public:
  explicit NimGame(std::string id = "test-nim") : id_(std::move(id)) {}
  std::string id() const override { return id_; }
  std::string name() const override { return "Nim (test fixture)"; }
  std::vector<std::string> side_names() const override { return {"first", "second"}; }
  std::vector<ScenarioInfo> scenarios() const override {
    return {{"345", "Piles 3 4 5", "", 1, 1},
            {"random", "Three random piles of 1..7", "", 1, 1},
            {"big", "Piles 9 10 11 12", "", 1, 1}};
  }
  Result<std::unique_ptr<State>> new_state(const std::string& scenario, uint64_t seed) const override;
  std::string rules_hash() const override { return "nim-fixture"; }

 private:
  std::string id_;
};

class NimState final : public State {
 public:
  NimState(const NimGame& g, std::vector<int> piles, uint64_t seed) : game_(&g), piles_(std::move(piles)) {
    dice_ = Dice(seed);
  }
  const Game& game() const override { return *game_; }
  int current_player() const override { return is_terminal() ? kTerminalPlayer : player_; }
  bool is_terminal() const override {
    for (int p : piles_)
      if (p > 0) return false;
    return true;
  }
  // The side that took the last stone (the one not to move) wins.
  std::vector<double> returns() const override {
    if (!is_terminal()) return {0.0, 0.0};
    return player_ == 0 ? std::vector<double>{-1.0, 1.0} : std::vector<double>{1.0, -1.0};
  }
  Json result() const override {
    Json r;
    r["winner"] = is_terminal() ? (player_ == 0 ? "second" : "first") : "draw";
    r["turn"] = plies_;
    r["vp"] = Json{{"first", taken_[0]}, {"second", taken_[1]}};
    return r;
  }
  void legal_actions(std::vector<Action>& out) const override {
    out.clear();
    if (is_terminal()) return;
    for (size_t p = 0; p < piles_.size(); ++p)
      for (int k = 1; k <= piles_[p]; ++k) out.push_back(take(static_cast<int>(p), k));
  }
  Status check(const Action& a) const override {
    if (is_terminal()) return Error{"the game is over", "nim", ""};
    if (a.verb != 1 || a.nargs != 2) return Error{"not a take action", "nim", ""};
    if (a.args[0] < 0 || a.args[0] >= static_cast<int>(piles_.size()))
      return Error{"no such pile", "nim", ""};
    if (a.args[1] < 1 || a.args[1] > piles_[static_cast<size_t>(a.args[0])])
      return Error{"cannot take that many", "nim", ""};
    return Status::ok();
  }
  std::unique_ptr<State> clone() const override { return std::make_unique<NimState>(*this); }
  Json observation(int side) const override {
    (void)side;
    return full_json();
  }
  Json full_json() const override { return Json{{"piles", piles_}, {"player", player_}, {"plies", plies_}}; }
  uint64_t state_hash() const override {
    uint64_t h = splitmix64(static_cast<uint64_t>(player_));
    for (int p : piles_) h = splitmix64(h ^ static_cast<uint64_t>(p));
    return h;
  }
  std::string action_to_string(const Action& a) const override {
    return "take " + std::to_string(a.args[0]) + " " + std::to_string(a.args[1]);
  }
  Result<Action> parse_action(std::string_view text) const override {
    std::istringstream is{std::string(text)};
    std::string w;
    int p = 0, k = 0;
    if (!(is >> w >> p >> k) || w != "take")
      return Error{"expected 'take PILE COUNT'", "", std::string(text)};
    return take(p, k);
  }
  static Action take(int pile, int k) {
    Action a;
    a.verb = 1;
    a.push(pile);
    a.push(k);
    return a;
  }
  const std::vector<int>& piles() const { return piles_; }
  int nim_sum() const {
    int x = 0;
    for (int p : piles_) x ^= p;
    return x;
  }

 protected:
  void do_apply(const Action& a) override {
    piles_[static_cast<size_t>(a.args[0])] -= a.args[1];
    taken_[static_cast<size_t>(player_)] += a.args[1];
    player_ = 1 - player_;
    ++plies_;
  }

 private:
  const NimGame* game_;
  std::vector<int> piles_;
  int player_ = 0;
  int plies_ = 0;
  int taken_[2] = {0, 0};
};

inline Result<std::unique_ptr<State>> NimGame::new_state(const std::string& scenario, uint64_t seed) const {
  std::vector<int> piles;
  if (scenario == "345") {
    piles = {3, 4, 5};
  } else if (scenario == "124") {
    piles = {1, 2, 4};
  } else if (scenario == "big") {
    piles = {9, 10, 11, 12};
  } else if (scenario == "random") {
    Dice d(seed ^ 0xC0FFEEULL);
    for (int i = 0; i < 3; ++i) piles.push_back(d.roll(7));
  } else {
    return Error{"unknown scenario '" + scenario + "'", "", "scenario"};
  }
  return std::unique_ptr<State>(std::make_unique<NimState>(*this, piles, seed));
}

// Perfect evaluation of Nim: the side to move loses exactly when the nim-sum is 0.
class NimHeuristics final : public ai::Heuristics {
 public:
  void evaluate(const State& state, std::vector<double>& values) const override {
    if (state.is_terminal()) {
      values = state.returns();
      return;
    }
    const auto& s = static_cast<const NimState&>(state);
    const int mover = s.current_player();
    const double v = s.nim_sum() == 0 ? -1.0 : 1.0;
    values.assign(2, 0.0);
    values[static_cast<size_t>(mover)] = v;
    values[static_cast<size_t>(1 - mover)] = -v;
  }
  bool has_evaluation() const override { return true; }
};

// Operations over Nim: "take a whole pile" or "take one stone", as macro choices; only
// used to test that the search honours a game's action abstraction.
class NimOperationHeuristics final : public ai::Heuristics {
 public:
  bool operations(const State& state, const std::vector<Action>& legal,
                  std::vector<ai::Operation>& out) const override {
    (void)legal;
    const auto& s = static_cast<const NimState&>(state);
    out.clear();
    for (size_t p = 0; p < s.piles().size(); ++p) {
      if (s.piles()[p] == 0) continue;
      out.push_back(
          {"empty pile " + std::to_string(p), {NimState::take(static_cast<int>(p), s.piles()[p])}, 1.0f});
      if (s.piles()[p] > 1)
        out.push_back({"one from pile " + std::to_string(p), {NimState::take(static_cast<int>(p), 1)}, 1.0f});
    }
    return true;
  }
};

// ---------------------------------------------------------------------------------------
class CardGame final : public MaplessGame {
 public:
  // `honest_resample` false makes resample_hidden keep the true card: a broken game that
  // lets the test show what peeking would look like.
  explicit CardGame(bool honest_resample = true) : honest_(honest_resample) {}
  std::string id() const override { return "test-card"; }
  std::string name() const override { return "Hidden card (test fixture)"; }
  std::vector<std::string> side_names() const override { return {"guesser", "holder"}; }
  std::vector<ScenarioInfo> scenarios() const override { return {{"deal", "One card dealt", "", 1, 1}}; }
  Result<std::unique_ptr<State>> new_state(const std::string& scenario, uint64_t seed) const override;
  std::string rules_hash() const override { return "card-fixture"; }
  bool honest() const { return honest_; }

 private:
  bool honest_;
};

class CardState final : public State {
 public:
  static constexpr uint16_t kGuess = 1, kPass = 2;
  CardState(const CardGame& g, int card, uint64_t seed) : game_(&g), card_(card) { dice_ = Dice(seed); }
  const Game& game() const override { return *game_; }
  int current_player() const override { return done_ ? kTerminalPlayer : 0; }
  bool is_terminal() const override { return done_; }
  std::vector<double> returns() const override {
    if (!done_ || guess_ < 0) return {0.0, 0.0};
    return guess_ == card_ ? std::vector<double>{1.0, -1.0} : std::vector<double>{-1.0, 1.0};
  }
  Json result() const override {
    const auto r = returns();
    // One VP figure for the scenario (like BD's VP total): 1 when the guess was right.
    return Json{{"winner", r[0] > 0   ? "guesser"
                           : r[0] < 0 ? "holder"
                                      : "draw"},
                {"turn", 1},
                {"vp", r[0] > 0 ? 1 : 0}};
  }
  void legal_actions(std::vector<Action>& out) const override {
    out.clear();
    if (done_) return;
    for (int c = 0; c < 3; ++c) out.push_back(guess(c));
    out.push_back(pass());
  }
  Status check(const Action& a) const override {
    if (done_) return Error{"the game is over", "card", ""};
    if (a.verb == kPass && a.nargs == 0) return Status::ok();
    if (a.verb == kGuess && a.nargs == 1 && a.args[0] >= 0 && a.args[0] < 3) return Status::ok();
    return Error{"not a guess or pass", "card", ""};
  }
  std::unique_ptr<State> clone() const override { return std::make_unique<CardState>(*this); }
  Json observation(int side) const override {
    Json j{{"done", done_}, {"guess", guess_}};
    if (side == 1 || done_) j["card"] = card_;
    return j;
  }
  Json full_json() const override { return Json{{"done", done_}, {"guess", guess_}, {"card", card_}}; }
  uint64_t state_hash() const override {
    const int packed = card_ * 16 + (guess_ + 1) * 2 + (done_ ? 1 : 0);
    return splitmix64(static_cast<uint64_t>(packed));
  }
  void resample_hidden(int viewer, uint64_t seed) override {
    dice_.reseed(seed);
    if (viewer != 1 && game_->honest()) card_ = static_cast<int>(splitmix64(seed) % 3);
  }
  std::string action_to_string(const Action& a) const override {
    return a.verb == kPass ? "pass" : "guess " + std::to_string(a.args[0]);
  }
  Result<Action> parse_action(std::string_view text) const override {
    if (text == "pass") return pass();
    if (text.size() == 7 && text.substr(0, 6) == "guess ") return guess(text[6] - '0');
    return Error{"expected 'guess N' or 'pass'", "", std::string(text)};
  }
  static Action guess(int c) {
    Action a;
    a.verb = kGuess;
    a.push(c);
    return a;
  }
  static Action pass() {
    Action a;
    a.verb = kPass;
    return a;
  }
  int card() const { return card_; }

 protected:
  void do_apply(const Action& a) override {
    guess_ = a.verb == kGuess ? a.args[0] : -1;
    done_ = true;
  }

 private:
  const CardGame* game_;
  int card_;
  int guess_ = -1;
  bool done_ = false;
};

inline Result<std::unique_ptr<State>> CardGame::new_state(const std::string& scenario, uint64_t seed) const {
  if (scenario != "deal") return Error{"unknown scenario '" + scenario + "'", "", "scenario"};
  Dice d(seed);
  const int card = d.below(3);
  return std::unique_ptr<State>(std::make_unique<CardState>(*this, card, seed));
}

// ---------------------------------------------------------------------------------------
// PairGame: "every unit acts this phase" in miniature. The first side moves two units,
// one decision each and in a row (unit 0 then unit 1), each to a square 0..4; the second
// side then answers once (0 or 1). The first side wins when the product of the squares
// is 12 (squares 3 and 4), except that the second side stops "unit 0 on 4" by answering
// 1; so the only winning plan is unit 0 to 3, then unit 1 to 4. Two decisions of the same side in a
// row check that the search backs values up to the side that decided, not by
// alternation.
class PairGame final : public MaplessGame {
 public:
  std::string id() const override { return "test-pair"; }
  std::string name() const override { return "Two units (test fixture)"; }
  std::vector<std::string> side_names() const override { return {"mover", "answerer"}; }
  std::vector<ScenarioInfo> scenarios() const override {
    return {{"start", "Both units off-board", "", 1, 1}};
  }
  Result<std::unique_ptr<State>> new_state(const std::string& scenario, uint64_t seed) const override;
  std::string rules_hash() const override { return "pair-fixture"; }
};

class PairState final : public State {
 public:
  static constexpr uint16_t kMove = 1, kAnswer = 2;
  PairState(const PairGame& g, uint64_t seed) : game_(&g) { dice_ = Dice(seed); }
  const Game& game() const override { return *game_; }
  int current_player() const override { return step_ >= 3 ? kTerminalPlayer : step_ < 2 ? 0 : 1; }
  bool is_terminal() const override { return step_ >= 3; }
  std::vector<double> returns() const override {
    if (step_ < 3) return {0.0, 0.0};
    const bool made = square_[0] * square_[1] == 12;
    const bool stopped = answer_ == 1 && square_[0] == 4;
    return made && !stopped ? std::vector<double>{1.0, -1.0} : std::vector<double>{-1.0, 1.0};
  }
  Json result() const override {
    const auto r = returns();
    return Json{{"winner", r[0] > 0 ? "mover" : "answerer"}, {"turn", 1}};
  }
  void legal_actions(std::vector<Action>& out) const override {
    out.clear();
    if (step_ < 2) {
      for (int sq = 0; sq < 5; ++sq) out.push_back(move(step_, sq));
    } else if (step_ == 2) {
      out.push_back(answer(0));
      out.push_back(answer(1));
    }
  }
  Status check(const Action& a) const override {
    if (step_ < 2 && a.verb == kMove && a.nargs == 2 && a.args[0] == step_ && a.args[1] >= 0 && a.args[1] < 5)
      return Status::ok();
    if (step_ == 2 && a.verb == kAnswer && a.nargs == 1 && (a.args[0] == 0 || a.args[0] == 1))
      return Status::ok();
    return Error{"not legal now", "pair", ""};
  }
  std::unique_ptr<State> clone() const override { return std::make_unique<PairState>(*this); }
  Json observation(int side) const override {
    (void)side;
    return full_json();
  }
  Json full_json() const override {
    return Json{{"step", step_}, {"squares", {square_[0], square_[1]}}, {"answer", answer_}};
  }
  uint64_t state_hash() const override {
    const int packed = step_ * 1000 + square_[0] * 100 + square_[1] * 10 + answer_ + 1;
    return splitmix64(static_cast<uint64_t>(packed));
  }
  std::string action_to_string(const Action& a) const override {
    return a.verb == kMove ? "move " + std::to_string(a.args[0]) + " " + std::to_string(a.args[1])
                           : "answer " + std::to_string(a.args[0]);
  }
  Result<Action> parse_action(std::string_view text) const override {
    return Error{"parsing is not needed by the fixture", "", std::string(text)};
  }
  static Action move(int unit, int square) {
    Action a;
    a.verb = kMove;
    a.push(unit);
    a.push(square);
    return a;
  }
  static Action answer(int parity) {
    Action a;
    a.verb = kAnswer;
    a.push(parity);
    return a;
  }

 protected:
  void do_apply(const Action& a) override {
    if (a.verb == kMove) {
      square_[a.args[0]] = a.args[1];
    } else {
      answer_ = a.args[0];
    }
    ++step_;
  }

 private:
  const PairGame* game_;
  int step_ = 0;
  int square_[2] = {-1, -1};
  int answer_ = -1;
};

inline Result<std::unique_ptr<State>> PairGame::new_state(const std::string& scenario, uint64_t seed) const {
  if (scenario != "start") return Error{"unknown scenario '" + scenario + "'", "", "scenario"};
  return std::unique_ptr<State>(std::make_unique<PairState>(*this, seed));
}

// Operations for PairGame: both units' moves as one macro-operation (25 of them).
class PairOperationHeuristics final : public ai::Heuristics {
 public:
  bool operations(const State& state, const std::vector<Action>& legal,
                  std::vector<ai::Operation>& out) const override {
    out.clear();
    if (state.current_player() != 0 || legal.size() != 5 || legal[0].args[0] != 0) return false;
    for (int a = 0; a < 5; ++a)
      for (int b = 0; b < 5; ++b)
        out.push_back({"squares " + std::to_string(a) + std::to_string(b),
                       {PairState::move(0, a), PairState::move(1, b)},
                       1.0f});
    return true;
  }
};

// ---------------------------------------------------------------------------------------
// GambleGame: one decision. "safe" (verb 1) ends the game worth 0.2 to the mover;
// "gamble" (verb 2) rolls a d6 when played: a 6 is worth 1, anything else -0.5 (a mean of
// -0.25). A one-ply look that sees one roll takes the gamble whenever that roll is a 6.
class GambleGame final : public MaplessGame {
 public:
  std::string id() const override { return "test-gamble"; }
  std::string name() const override { return "Safe or gamble (test fixture)"; }
  std::vector<std::string> side_names() const override { return {"player", "other"}; }
  std::vector<ScenarioInfo> scenarios() const override { return {{"start", "One choice", "", 1, 1}}; }
  Result<std::unique_ptr<State>> new_state(const std::string& scenario, uint64_t seed) const override;
  std::string rules_hash() const override { return "gamble-fixture"; }
};

class GambleState final : public State {
 public:
  static constexpr uint16_t kSafe = 1, kGamble = 2;
  GambleState(const GambleGame& g, uint64_t seed) : game_(&g) { dice_ = Dice(seed); }
  const Game& game() const override { return *game_; }
  int current_player() const override { return done_ ? kTerminalPlayer : 0; }
  bool is_terminal() const override { return done_; }
  std::vector<double> returns() const override { return {worth_, -worth_}; }
  Json result() const override { return Json{{"worth", worth_}, {"turn", 1}}; }
  void legal_actions(std::vector<Action>& out) const override {
    out.clear();
    if (done_) return;
    out.push_back(pick(kSafe));
    out.push_back(pick(kGamble));
  }
  Status check(const Action& a) const override {
    if (!done_ && a.nargs == 0 && (a.verb == kSafe || a.verb == kGamble)) return Status::ok();
    return Error{"not legal now", "gamble", ""};
  }
  std::unique_ptr<State> clone() const override { return std::make_unique<GambleState>(*this); }
  Json observation(int side) const override {
    (void)side;
    return full_json();
  }
  Json full_json() const override { return Json{{"done", done_}, {"worth", worth_}}; }
  uint64_t state_hash() const override { return splitmix64(static_cast<uint64_t>(worth_ * 100 + 1000)); }
  std::string action_to_string(const Action& a) const override { return a.verb == kSafe ? "safe" : "gamble"; }
  Result<Action> parse_action(std::string_view text) const override {
    return Error{"parsing is not needed by the fixture", "", std::string(text)};
  }
  static Action pick(uint16_t verb) {
    Action a;
    a.verb = verb;
    return a;
  }

 protected:
  void do_apply(const Action& a) override {
    worth_ = a.verb == kSafe ? 0.2 : (roll(6, "gamble", "") == 6 ? 1.0 : -0.5);
    done_ = true;
  }

 private:
  const GambleGame* game_;
  bool done_ = false;
  double worth_ = 0.0;
};

inline Result<std::unique_ptr<State>> GambleGame::new_state(const std::string& scenario,
                                                            uint64_t seed) const {
  if (scenario != "start") return Error{"unknown scenario '" + scenario + "'", "", "scenario"};
  return std::unique_ptr<State>(std::make_unique<GambleState>(*this, seed));
}

// The true value at the end (the search's evaluation is exact here).
class GambleHeuristics final : public ai::Heuristics {
 public:
  void evaluate(const State& state, std::vector<double>& values) const override { values = state.returns(); }
  bool has_evaluation() const override { return true; }
};

}  // namespace steppe::fixture
