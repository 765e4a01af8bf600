// Positions: a whole game state as readable, versioned JSON (docs/saves.md, "Positions").
//
// A save is an action log replayed on load; a position is the state itself. Saves keep a
// position at the start of every game turn, so that a game whose log no longer replays
// under a new engine (a rule fix changed what an action does) is continued from the latest
// position that still loads instead of being lost (kernel/match.h, Match::migrate).
//
// The document is an envelope the kernel writes around the game's own part:
//   { "format": "steppe-position", "format_version": 1, "engine_version": "0.1.0",
//     "game": "moscow41", "rules_hash": "...", "turn": 3, "state": { ...the game's... } }
// The game writes "state" (State::position()) with names, not indices, and reads it
// (Game::state_from_position()) through JsonReader, so every error names the field:
//   "position: /state/blocks/Guderian/level: integer out of range 0..3 (value: 7)".
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "kernel/json_data.h"
#include "kernel/state.h"

namespace steppe {

constexpr const char* kPositionFormat = "steppe-position";
constexpr int kPositionFormatVersion = 1;

// The position document of `s` (the game's refusal if it has no position format).
Result<Json> position_document(const State& s);

// A state from a position document: the envelope is checked (format, version, game), then
// the game reads its part. The rules hash is not compared: a position is how a game
// crosses a change of rules. `where` names the document in errors.
Result<std::unique_ptr<State>> state_from_position_document(const Game& game, const Json& doc,
                                                            const std::string& where = "position");

// The usual Game::state_from_position(): a new state of the position's "scenario" and
// "options" from the installed data (which fixes the scenario's parameters), then
// S::read_position(JsonReader at /state) replaces everything that happened.
template <class S>
Result<std::unique_ptr<State>> new_state_from_position(const Game& game, const Json& position) {
  const JsonReader r(position, "position", "/state");
  if (!r.is_object()) return Error{"the position's state is not an object", "", r.where()};
  std::string scenario = r.str("scenario");
  for (const std::string& o : r.str_list_or_empty("options")) scenario += "+" + o;
  if (!r.ok()) return r.error();
  auto st = game.new_state(scenario, 0);
  if (!st) {
    Error e = st.error();
    e.where = r.where() + "/scenario";
    return e;
  }
  if (Status ok = static_cast<S*>(st->get())->read_position(r); !ok.is_ok()) return ok.error();
  return st;
}

// For games' writers and readers: the dice stream of a position, {"seed": S, "counter": N}.
void write_dice(Json& out, const Dice& d);
void read_dice(const JsonReader& r, Dice& d);

// For games' readers: the id at `x` (a unit, a hex, a zone) as the game's index, found by
// `find(id)` (-1 when unknown). An unknown id is an error naming it ("no <what> has this id
// (value: ...)"), a null is -1 when `nullable`; -1 either way.
template <class Find>
int read_id(const JsonReader& x, Find&& find, std::string_view what, bool nullable = false) {
  if (nullable && x.is_null()) return -1;
  const std::string id = x.as_str();
  if (!x.json().is_string()) return -1;  // as_str() has reported it
  const int i = find(std::string_view(id));
  if (i < 0) {
    std::string message = "no ";  // appended, not `"no " + std::string(...)`: see quoted()
    message += what;
    message += " has this id";
    x.fail_value(std::move(message));
  }
  return i;
}

// For games' readers: every key of the object `x` is an id `find` knows (an entity the
// position lists by id); an unknown one is an error naming it.
template <class Find>
void check_ids(const JsonReader& x, Find&& find, std::string_view what) {
  for (const auto& [id, v] : x.members())
    if (find(std::string_view(id)) < 0) {
      std::string message = "no ";
      message += what;
      message += " has the id ";
      message += steppe::quoted(id);
      v.fail(std::move(message));
    }
}

}  // namespace steppe
