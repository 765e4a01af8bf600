// GameStore: where games and their accepted actions live, so that a server can be killed
// at any moment and resume every game by replay. A game is saved as its set-up (game,
// scenario, seed, rules hash, seats) plus the ordered log of accepted actions in the
// kernel's notation; the state is recomputed by replay. Beside the log, positions (the
// whole state as JSON) at the start of every game turn and at the end of the log let a game
// whose log no longer replays under a new engine continue (issue 29, docs/saves.md).
//
// SQLite is the default backend (open_sqlite_store), for one server process. PostgreSQL
// (open_postgres_store, store_postgres.cpp) lets several server instances share one
// database: such a store is `shared()` and tells the service, through `watch`, which games
// another instance changed (docs/deploy.md).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kernel/state.h"

namespace steppe::server {

// Who sits at one side of a game.
struct StoredSeat {
  int side = 0;
  std::string kind;   // "human" or "agent"
  std::string agent;  // agent spec for kind == "agent" ("random", "mcts:2000")
  std::string token;  // secret join token (humans); empty for agents
};

struct StoredGame {
  std::string id;
  std::string game;      // game id ("bd")
  std::string scenario;  // scenario id
  uint64_t seed = 0;
  // Who chose the dice seed (docs/api.md, "Verifiable dice"): "server" (drawn by the server,
  // never sent to a client before the game ends, so its commitment proves the dice),
  // "creator" (given in the create request), or "unknown" (games stored before schema
  // version 5, whose seed the create answer sent to the creator).
  std::string seed_from = "unknown";
  std::string rules_hash;
  std::vector<StoredSeat> seats;
  std::string created;            // ISO-8601 UTC
  std::string status = "active";  // "active", "finished", "resigned"
  Json result;                    // null until the game ends
  // Secret of whoever created the game: it may stop the game (any game, agents-only ones
  // too). Empty for games stored before schema version 3.
  std::string creator_token;
  // The Steppe version that last wrote the game's log ("0.1.0" for games stored before
  // schema version 4: every earlier release was 0.1.0).
  std::string engine_version = STEPPE_VERSION;
  // A game continued under a new engine (issue 29, docs/saves.md "Upgrades"): its log starts
  // at this position document instead of the scenario's start (null: the scenario's start),
  // `history` holds the actions played before it (kept for the record, not replayed) and
  // `migrations` every upgrade's report (MigrationReport::to_json(), oldest first).
  Json start_position;
  std::vector<std::string> history;
  Json migrations = Json::array();
};

struct StoredAction {
  int index = 0;  // 0-based position in the game's action log
  int side = 0;
  std::string text;  // kernel notation, exactly as State::action_to_string printed it
  // The client's idempotency key for this action (empty: none given, or an agent's): a
  // retry with the same key gets the original answer and applies nothing again.
  std::string key;
};

// A position (kernel/position.h) kept beside the action log: the state after `after`
// actions, at the start of a game turn or at the end of the log. A game whose log no
// longer replays under the installed engine continues from the latest one that loads.
struct StoredPosition {
  int after = 0;
  int turn = 0;
  bool turn_start = true;  // false: only the end of the log, replaced by the next one
  Json position;
};

// What an upgrade made of a stored game (Service, when its log no longer replays): the
// game's new start, history and reports, and its new log and positions, which replace the
// old ones in one transaction.
struct StoredMigration {
  std::string rules_hash;      // the installed rules the game continues under
  std::string engine_version;  // the engine that continued it
  Json start_position;         // null: the scenario's start
  std::vector<std::string> history;
  Json migrations;  // every report so far, this one last
  std::vector<StoredAction> actions;
  std::vector<StoredPosition> positions;
};

class GameStore {
 public:
  virtual ~GameStore() = default;
  virtual std::string describe() const = 0;  // "sqlite:/path/to/steppe.db", "postgresql://u@host/db"

  virtual Status create_game(const StoredGame& g) = 0;
  virtual Result<std::vector<StoredGame>> list_games() = 0;
  virtual Result<std::optional<StoredGame>> find_game(const std::string& id) = 0;
  virtual Result<std::vector<StoredAction>> actions(const std::string& id) = 0;
  // Durable when it returns ok: the action survives a crash or SIGKILL right after.
  // Refuses an index that is not the next one of the game. `position`, if given, is the
  // position after this action, written in the same transaction: it replaces the game's
  // previous end-of-log position (one that is not a turn start).
  virtual Status append_action(const std::string& id, const StoredAction& a,
                               const StoredPosition* position = nullptr) = 0;
  // Writes `p` as the game's end-of-log position (replacing the previous one that is not a
  // turn start), only if the game still has exactly `p.after` actions: a position of a log
  // that changed since (an undo, another instance's action) is not written. Returns whether
  // it was written.
  virtual Result<bool> put_end_position(const std::string& id, const StoredPosition& p) = 0;
  // The game's positions, by `after`.
  virtual Result<std::vector<StoredPosition>> positions(const std::string& id) = 0;
  // Replaces the game's set-up and log by what an upgrade made of them (StoredMigration), in
  // one transaction, only if the game still has `migrations_seen` migrations and
  // `actions_seen` actions (another server instance may have migrated or played it since).
  virtual Status migrate_game(const std::string& id, const StoredMigration& m, int migrations_seen,
                              int actions_seen) = 0;
  // Removes actions with index >= from_index (undo), only if the game has exactly
  // `count_seen` actions: the log the caller decided on. Another server instance may have
  // appended an action since (PostgreSQL shared by several instances); deleting it would lose
  // a move that player was told was taken, so the store refuses and deletes nothing.
  // Positions after `from_index` actions go with the actions. Durable when it returns ok.
  virtual Status truncate_actions(const std::string& id, int from_index, int count_seen) = 0;
  virtual Status set_status(const std::string& id, const std::string& status, const Json& result) = 0;

  // True when other processes may change this store while it is open (PostgreSQL shared by
  // several server instances): the service then loads games it does not know on demand and
  // follows changes through `watch`.
  virtual bool shared() const { return false; }
  // Calls `changed(game_id)`, on a thread of the store's own, after another process
  // committed a change to that game (a new game, an action, an undo, a status); an empty
  // id means "any game may have changed" (the notification channel was lost and is back).
  // A store that no one else can change never calls it.
  virtual Status watch(const std::function<void(const std::string& game_id)>& changed) {
    (void)changed;
    return Status::ok();
  }
  // Stops calling the `watch` callback; when it returns, no call is running.
  virtual void stop_watching() {}
};

// The schema version this build writes. A database with a higher user_version is
// refused (it was written by a newer Steppe); lower versions are migrated forward.
constexpr int kStoreSchemaVersion = 5;

// Opens (creating if needed, with parent directories) an SQLite store at `path`, in WAL
// mode with synchronous=FULL, migrating an older schema forward.
Result<std::unique_ptr<GameStore>> open_sqlite_store(const std::filesystem::path& path);

// True for a PostgreSQL connection URL ("postgresql://..." or "postgres://...").
bool is_postgres_url(const std::string& s);

// Connects to the PostgreSQL database at `url` (libpq URL or key=value string), creating
// or migrating the schema (its version in table steppe_schema). Refuses a database with a
// newer schema, or one with a `games` table that Steppe did not create.
Result<std::unique_ptr<GameStore>> open_postgres_store(const std::string& url);

// The schema version open_postgres_store writes (independent of the SQLite one).
constexpr int kPostgresSchemaVersion = 4;

// What every store writes alike (store_common.cpp): the seats as a JSON array of {side,
// kind, agent, token}, and a timestamp.
Json seats_to_json(const std::vector<StoredSeat>& seats);
std::vector<StoredSeat> seats_from_json(const Json& a);     // not an array: no seats
std::vector<std::string> history_from_json(const Json& a);  // the strings of an array
std::string now_iso();                                      // now, ISO-8601 UTC ("2026-11-28T03:00:00Z")

// $XDG_DATA_HOME/steppe/steppe.db, else ~/.local/share/steppe/steppe.db.
std::filesystem::path default_db_path();

}  // namespace steppe::server
