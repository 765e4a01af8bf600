// The one interface every game and every agent speaks (OpenSpiel's State is the model).
//
// A Game is the immutable rules + data of one title (loaded and validated once). A State
// is one position of it. Randomness lives inside the State (Dice), so there are no chance
// nodes: apply() rolls what it needs and reports the rolls as events. Everything that
// happens is reported to an optional EventSink (the Match's event log); searches clone
// states without a sink, so cloning stays cheap.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kernel/action.h"
#include "kernel/dice.h"
#include "kernel/error.h"
#include "kernel/views.h"

namespace steppe {

using Json = nlohmann::json;

constexpr int kTerminalPlayer = -4;

// One thing that happened, in the adjudication log: "Soviet 16A retreats to 2311 (11.12)".
struct Event {
  std::string kind;  // "roll", "move", "combat", "control", "vp", "phase", "reveal", ...
  std::string text;  // readable sentence
  std::string rule;  // rulebook section cited, empty if none
  // Which sides may see this event: bit i set = side i sees it. Hidden moves of a block
  // game reach the other side only in the form its observation allows.
  uint32_t visible_to = 0xFFFFFFFFu;
  // True when the event revealed information a player could not have known (a die roll,
  // a hidden unit shown). Undo never goes back past such an event.
  bool reveals = false;
  Json data;  // machine-readable detail for the UI (optional)
};

class EventSink {
 public:
  virtual ~EventSink() = default;
  virtual void emit(Event e) = 0;
};

// An optional rule the players may agree on before play. It rides on the scenario id with
// a '+' ("grand-campaign+kiev-vp"), so saves and replays record it.
struct ScenarioOption {
  std::string id;    // "kiev-vp"
  std::string name;  // "Kiev VP"
  std::string rule;  // rulebook section, "4.21"
};

struct ScenarioInfo {
  std::string id;    // stable id used on the command line and in saves ("grand-campaign")
  std::string name;  // display name
  std::string description;
  int first_turn = 1;
  int last_turn = 1;
  std::vector<ScenarioOption> options = {};  // the optional rules this scenario offers
};

// "grand-campaign+forgiveness-points+kiev-vp" -> {"grand-campaign", {"forgiveness-points",
// "kiev-vp"}} (an empty name between two '+' is kept, for the game to refuse).
std::pair<std::string, std::vector<std::string>> split_scenario_options(const std::string& scenario);

class State;

class Game {
 public:
  virtual ~Game() = default;
  virtual std::string id() const = 0;                       // "bd"
  virtual std::string name() const = 0;                     // "Barbarossa Deluxe"
  virtual std::vector<std::string> side_names() const = 0;  // index = side id
  virtual std::vector<ScenarioInfo> scenarios() const = 0;
  // A fresh game at the start of `scenario`. The scenario "empty" (for tests) is an empty
  // map at the first turn; every game supports it.
  virtual Result<std::unique_ptr<State>> new_state(const std::string& scenario, uint64_t seed) const = 0;
  // Hash of the rules data this game was loaded from; saves record it so that a save
  // made with other data is refused clearly instead of silently diverging.
  virtual std::string rules_hash() const = 0;
  // Map data for the UI and `steppe map`: the whole map, and one location (hex or area).
  virtual Json map_json() const = 0;
  virtual Result<Json> describe_location(const std::string& id) const = 0;
  // What one side sees, as lines of text for the terminal (`steppe play`), drawn only from
  // that side's `observation` so it can show nothing hidden. Empty: the game has none, and
  // the terminal shows the observation's scalars only.
  virtual std::string describe_situation(const Json& observation) const {
    (void)observation;
    return {};
  }
  // A state from the "state" part of a position document (kernel/position.h), which the
  // game's State::position() wrote, perhaps under older rules data: the scenario's fixed
  // parameters come from the installed data, everything that happened from the position.
  // Every field is validated; an error names it (JsonReader paths). Games without a
  // position format refuse.
  virtual Result<std::unique_ptr<State>> state_from_position(const Json& position) const {
    (void)position;
    return Error{"game '" + id() + "' has no position format yet", "", ""};
  }
};

class State {
 public:
  virtual ~State() = default;

  virtual const Game& game() const = 0;
  // Side to decide now (0..n-1), or kTerminalPlayer when the game is over.
  virtual int current_player() const = 0;
  virtual bool is_terminal() const = 0;
  // Per side: +1 win, -1 loss, 0 draw; only meaningful when is_terminal().
  virtual std::vector<double> returns() const = 0;
  // Scenario-level result: {"winner": side name or "draw", "turn": N, "vp": ...}.
  virtual Json result() const = 0;

  // Every legal action now, in a deterministic order. Appends to `out` (cleared first).
  virtual void legal_actions(std::vector<Action>& out) const = 0;
  // A form of action that check() may accept though legal_actions() never lists it, because
  // listing every instance would multiply the list: Barbarossa Deluxe's prepared assault by
  // any subset of the units able to attack a hex (11.6), whose whole-hex and one-unit forms
  // are listed. Such an action is checked and applied like any other; the conformance suite
  // exempts only these from "accepted means listed". Most games have none.
  virtual bool unlisted_form(const Action& /*a*/) const { return false; }
  // Why `a` is illegal now (the Error cites the rule), or ok.
  virtual Status check(const Action& a) const = 0;
  // Applies a legal action; an illegal one is refused with check()'s error and the state
  // is left exactly as it was.
  Status apply(const Action& a) {
    Status s = check(a);
    if (!s.is_ok()) return s;
    do_apply(a);
    return Status::ok();
  }

  // Applies an action this state's own legal_actions() just produced (agents, self-play),
  // without checking it again: generation and check are one rule, proved equal by the
  // conformance suite. Outside input (a client, a save, the CLI) always goes through apply().
  void apply_generated(const Action& a) { do_apply(a); }

  // The legal actions that concern one unit (its moves, its attacks), in the order
  // legal_actions() gives them: a UI asks per unit instead of receiving every action. The
  // default filters legal_actions() by describe(); a game with many actions overrides it.
  virtual void legal_actions_for(std::string_view unit, std::vector<Action>& out) const;

  // ---- Typed views (kernel/views.h). Each is answered from the rules code itself. ----
  // What `a` means: verb, units, locations, a sentence. The default gives the notation only.
  virtual Result<ActionDescription> describe(const Action& a) const;
  // What `a` would lead to, as `viewer` may know it: a combat's odds, shifts with reasons
  // and rules, the outcome distribution. A game with hidden information refuses, citing the
  // rule, a preview that would tell `viewer` something hidden (BD 11.7). `a` need not be
  // legal now (a player may look at an attack before the combat phase), only well formed.
  virtual Result<Preview> preview(const Action& a, int viewer) const;
  // Where `unit` can go now, with cost and path, as `viewer` may know it.
  virtual Result<Reach> reach(std::string_view unit, int viewer) const;

  virtual std::unique_ptr<State> clone() const = 0;
  // The whole state as readable, versioned JSON (docs/saves.md, "Positions"): units by
  // name, places by id, phases by name, hidden information and the dice stream's position
  // included. Game::state_from_position() reads it back with the same state_hash().
  virtual Result<Json> position() const { return Error{"this game has no position format yet", "", ""}; }
  // The game turn the state is in (a position is checkpointed when it changes); 0 if the
  // game has no turns.
  virtual int game_turn() const { return 0; }
  // What `side` may see, with everything hidden from it removed. Must be a function of
  // the side's information set only (the conformance suite checks this by resampling).
  virtual Json observation(int side) const = 0;
  // Full state, for saves' debugging and the state hash; never sent to a client.
  virtual Json full_json() const = 0;
  // Stable hash of the full state (including dice counter), equal across replays.
  virtual uint64_t state_hash() const = 0;

  virtual std::string action_to_string(const Action& a) const = 0;
  virtual Result<Action> parse_action(std::string_view text) const = 0;

  // Determinization for search with hidden information: replace everything `viewer`
  // cannot know (enemy hidden identities, future dice) with a sample consistent with what
  // `viewer` has seen. Games with open information only reseed the dice.
  virtual void resample_hidden(int viewer, uint64_t seed) {
    (void)viewer;
    dice_.reseed(seed);
  }

  // Scenario-test hooks (docs/scenario-tests.md): game-specific set-up words
  // ("place german 4Pz 2514", "turn 3", "phase german-movement") and queries
  // ("unit 4Pz hex", "odds attack 2614 from 2514", "supply 2614 german").
  virtual Status test_set(const std::vector<std::string>& words) {
    (void)words;
    return Error{"this game has no scenario-test set-up words", "", ""};
  }
  virtual Result<std::string> test_query(const std::vector<std::string>& words) const {
    (void)words;
    return Error{"this game has no scenario-test queries", "", ""};
  }

  // Whether `side` may have the answer to the query `words` (the server answers previews and
  // movement costs from a determinized copy): a game with hidden information refuses, citing
  // the rule, a query about a unit or stack whose hidden part the rules keep from that side
  // (BD 11.7: the German learns a Soviet stack's defence only once the attack is committed),
  // since no sample can answer it without telling something. Open-information games allow all.
  virtual Status query_allowed(int side, const std::vector<std::string>& words) const {
    (void)side;
    (void)words;
    return Status::ok();
  }

  Dice& dice() { return dice_; }
  const Dice& dice() const { return dice_; }
  void set_event_sink(EventSink* sink) { sink_ = sink; }
  EventSink* event_sink() const { return sink_; }

 protected:
  State() = default;
  // A copy never inherits the event sink: clones made by a search must not write into
  // the match's log.
  State(const State& o) : dice_(o.dice_) {}
  State& operator=(const State& o) {
    if (this != &o) dice_ = o.dice_;
    return *this;
  }

  // Precondition: check(a).is_ok().
  virtual void do_apply(const Action& a) = 0;

  void emit(Event e) const {
    if (sink_ != nullptr) sink_->emit(std::move(e));
  }
  // A die roll that is logged as a revealing event.
  int roll(int sides, const std::string& why, const std::string& rule) {
    const int v = dice_.roll(sides);
    if (sink_ != nullptr) {
      Event e;
      e.kind = "roll";
      e.text = why + ": rolled " + std::to_string(v);
      e.rule = rule;
      e.reveals = true;
      e.data = Json{{"sides", sides}, {"value", v}};
      sink_->emit(std::move(e));
    }
    return v;
  }

  Dice dice_;
  EventSink* sink_ = nullptr;  // not owned; never copied
};

}  // namespace steppe
