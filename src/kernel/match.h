// Match: one game being played. It wraps a Game and a State with everything needed to
// replay, undo and save it: the scenario, the seed, the applied actions (in the game's
// text notation) and the event log (the adjudication log: every action's events, as the
// State reported them to its EventSink). The state is a fold of the action log: replaying
// the log from new_state(scenario, seed) reproduces the state bit for bit, which the
// stable state hash checks (after every action, at undo, and when loading a save).
//
// Undo goes back one action at a time, but never past an action that revealed
// information (an event with reveals=true: a die roll, a hidden unit shown): the player
// has seen it. Undo is done by replaying the prefix, so it can never leave a state that
// a replay would not reproduce.
//
// Saves (docs/saves.md) are JSON: a header (format, engine version, game, scenario,
// seed, rules hash), the action list, state-hash checkpoints and the final hash. Loading
// replays and verifies; a save made with other rules data is refused with a message that
// says so. Saves are written atomically (temp file, fsync, rename).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kernel/state.h"

namespace steppe {

constexpr const char* kSaveFormat = "steppe-save";
constexpr int kSaveFormatVersion = 1;

// One applied action and what it caused.
struct LogEntry {
  std::string action;  // notation, as action_to_string printed it
  int side = -1;       // the side that decided it
  std::vector<Event> events;
  uint64_t hash_after = 0;  // state hash right after the action
  bool reveals() const;
};

// A position the match keeps (kernel/position.h): the state after `after` actions of the
// log, taken at the start of every game turn and at the start of the match.
struct PositionCheckpoint {
  size_t after = 0;
  int turn = 0;
  Json position;  // the position document
};

// What an upgrade did to a game whose log no longer replays under the installed engine
// (Match::migrate_save_json): shown to the players, kept in the save, never silent.
struct MigrationReport {
  std::string engine_version;  // the engine that continued the game
  std::string from_engine;     // the engine that wrote the save
  bool rules_changed = false;  // the rules data's hash differs
  std::string why;             // what stopped the exact replay
  size_t base_after = 0;       // actions of the old log before the position the game continues from
  int base_turn = 0;
  bool from_scenario_start = false;  // no position loaded: the scenario's start under the new rules
  size_t replayed = 0;               // actions re-applied after the base
  bool same_final_state = false;     // every action replayed and the final hash is the recorded one
  std::vector<std::string> dropped;  // actions no longer legal: the first and every one after it
  std::string refusal;               // why the first dropped action was refused
  std::vector<std::string> skipped;  // later positions that did not load, with the reason
  std::string text() const;          // one paragraph for the log and the UI
  Json to_json() const;
};

// Header fields of a save.
struct SaveHeader {
  std::string engine_version;
  std::string game;
  std::string scenario;
  uint64_t seed = 0;
  std::string rules_hash;
};

class Match {
 public:
  // Starts a match at the beginning of `scenario`. `game` must outlive the match.
  static Result<std::unique_ptr<Match>> start(const Game& game, const std::string& scenario, uint64_t seed);
  // Loads a save (already parsed JSON): checks the header and the rules hash, replays every
  // action and verifies every recorded hash. `where` names the file in error messages.
  static Result<std::unique_ptr<Match>> from_save_json(const Json& save, const Game& game,
                                                       const std::string& where = "save");
  // Loads a save as from_save_json does; when its log no longer replays exactly under the
  // installed engine (other rules data, an action refused, a hash that diverges), the game
  // is not dropped: it continues from the latest position of the save that loads (else
  // the scenario's start), re-applying the actions after it while they stay legal, and
  // migrations().back() says what happened. Fails only when nothing of the save loads.
  static Result<std::unique_ptr<Match>> migrate_save_json(const Json& save, const Game& game,
                                                          const std::string& where = "save");

  Match(const Match&) = delete;
  Match& operator=(const Match&) = delete;
  ~Match();

  const Game& game() const { return *game_; }
  const std::string& scenario() const { return scenario_; }
  uint64_t seed() const { return seed_; }
  const State& state() const { return *state_; }
  const std::vector<LogEntry>& log() const { return log_; }
  std::vector<std::string> actions() const;
  size_t size() const { return log_.size(); }
  uint64_t initial_hash() const { return initial_hash_; }

  // Applies `a` for the side to move and logs it with its events. An illegal action is
  // refused (the game's Error, citing the rule) and nothing changes.
  Status apply(const Action& a);
  // Parses the notation and applies it.
  Status apply_text(std::string_view text);

  // How many of the last actions may be undone: those after the last action whose events
  // revealed information.
  size_t undoable() const;
  // Takes back the last `n` actions by replaying the prefix; refuses (changing nothing)
  // when that would go back past revealed information.
  Status undo(size_t n = 1);

  // A fresh state after the first `n` actions of the log (replayed, no event sink).
  Result<std::unique_ptr<State>> replay(size_t n) const;

  // The event log as `side` may see it (events filtered by visible_to; another side's
  // action text is shown only through the events it caused). side < 0: everything.
  Json log_json(int side) const;

  // The save document; a checkpoint hash is recorded every `checkpoint_every` actions.
  // The save also holds the positions (one at the start of every game turn and one after the
  // last action) and, for a migrated game, the position it continued from.
  Json save_json(int checkpoint_every = 50) const;
  Status save_file(const std::filesystem::path& file, int checkpoint_every = 50) const;

  // The positions kept so far (games with a position format; empty otherwise).
  const std::vector<PositionCheckpoint>& positions() const { return positions_; }
  // Upgrades this game went through, oldest first (MigrationReport::to_json()).
  const std::vector<Json>& migrations() const { return migrations_; }
  // Actions of the game before the position the log starts from (a migrated game): kept for
  // the record, not replayed.
  const std::vector<std::string>& history() const { return history_; }
  // The position the log starts from (a migrated game); null: the scenario's start.
  const Json& start_position() const { return base_position_; }

 private:
  Match(const Game& game, std::string scenario, uint64_t seed, std::unique_ptr<State> state);
  class Sink;
  // The state the log starts from: the scenario's start, or the position a migrated game
  // continued from.
  Result<std::unique_ptr<State>> fresh_start() const;
  // A match whose log starts at a position document (a migrated game).
  static Result<std::unique_ptr<Match>> at_position(const Game& game, const std::string& scenario,
                                                    uint64_t seed, const Json& doc, const std::string& where);
  void keep_position_if_new_turn();

  const Game* game_;
  std::string scenario_;
  uint64_t seed_;
  std::unique_ptr<State> state_;
  std::unique_ptr<Sink> sink_;
  std::vector<LogEntry> log_;
  uint64_t initial_hash_ = 0;
  std::unique_ptr<State> base_;  // null: the log starts at new_state(scenario, seed)
  Json base_position_;           // base_'s position document
  std::vector<std::string> history_;
  std::vector<Json> migrations_;
  std::vector<PositionCheckpoint> positions_;
};

// Reads a save file's JSON (clear errors for a missing, unreadable or non-JSON file, or a
// JSON document that is not a steppe save).
Result<Json> read_save_file(const std::filesystem::path& file);
// The header of a parsed save, validated (so a caller can pick the game to load).
Result<SaveHeader> read_save_header(const Json& save, const std::string& where = "save");

// Writes `contents` to `file` so that a crash or kill at any moment leaves either the old
// file or the new one, never a truncated mix: temp file beside it, fsync, rename, fsync dir.
Status write_file_atomically(const std::filesystem::path& file, std::string_view contents);

// JSON of one event (kind, text, rule, visible_to, reveals, data).
Json event_to_json(const Event& e);

}  // namespace steppe
