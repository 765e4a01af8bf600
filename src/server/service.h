// The game service: every game the server hosts, its seats, agents and event log, behind
// a transport-free API (HTTP and WebSocket in server.cpp only translate). The server is
// authoritative: a client's action is text in the kernel notation, parsed and checked by
// the game; anything sent to a seat is built from observation(side) and the events whose
// visible_to includes that side, never from the full state.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "server/store.h"

namespace steppe::server {

// One game title the server can host. `game` is null when it failed to load
// (`load_error` says why); such games are listed but cannot be created.
struct CatalogEntry {
  std::string id;
  std::string name;
  std::shared_ptr<const Game> game;
  std::string load_error;
};
using GameCatalog = std::vector<CatalogEntry>;

// An API answer: HTTP status and JSON body ({"ok": true, ...} or {"ok": false, "error": {...}}).
struct ApiResult {
  int status = 200;
  Json body;
  int retry_after_seconds = 0;  // > 0: sent as Retry-After (429, 503)
  // The seat's view, already serialised, when the answer carries one: the answer is `body`
  // with "view" set to this text. A view is built and serialised once per change of its
  // game and side and shared by every answer and push until the next change (issue 21: it
  // was most of the server's time, built again for every poll).
  std::shared_ptr<const std::string> view_text = nullptr;

  std::string text() const;  // the whole answer as JSON text (what the transports send)
  Json json() const;         // the whole answer as a document (tests, tools)
};

ApiResult api_error(int status, const std::string& code, const std::string& message,
                    const std::string& rule = "");

struct ServiceOptions {
  // Worker threads for searching agents (mcts, greedy); 0 = max(2, hardware threads).
  // The `random` agent runs on a lane of its own, so it never queues behind a search.
  int agent_threads = 0;
  // Wall-time budget of one agent decision, milliseconds (0 = none): the search then
  // plays the best move found so far. Bounds how long a game's turn, and a queued job
  // of another game, can wait for an agent.
  double agent_budget_ms = 5000;
  // Exposes the full-state hash (GET /api/games/{id}/debug/hash): for tests of replay and
  // durability only, since a hash of the full state could be used to guess hidden
  // information.
  bool debug_state = false;
  // A view lists every legal action up to this many; beyond, it lists only the actions that
  // concern no unit and names the units that have actions ("legal_units"), which the client
  // asks for one by one (GET /api/games/{id}/actions?unit=).
  size_t max_legal_actions = 1000;
  // The position at the end of a game's log (issue 29) is stored with every action that
  // starts a game turn or ends the game, with every `end_position_every`-th action after the
  // last one stored, and for every game at shutdown. Building and storing it took about 40%
  // of the server's CPU when it went with every action (issue 21); a kill loses at most the
  // newest positions, never an action (the log is durable per action).
  size_t end_position_every = 32;
  // Where the games' public data files live (counters, map): served read-only as
  // /api/catalog/{game}/data/{file}.json for the UI. Empty: not served.
  std::filesystem::path data_dir;
  // Open WebSocket subscriptions per seat (one token) at most; one more is refused with
  // "too_many_subscriptions", so a token cannot make every action fan out without bound.
  int max_subscriptions_per_seat = 8;
  // Games one client address may create: a bucket of `create_burst` games that refills at
  // `create_per_minute` (beyond: 429 with Retry-After). 0 per minute: no limit.
  double create_per_minute = 20;
  int create_burst = 10;
  // Games whose every seat is an agent, active at once, at most (beyond: 429
  // "too_many_agent_games"); each keeps an agent worker busy. 0: no limit.
  int max_agent_games = 4;
};

class Service {
 public:
  Service(GameCatalog catalog, std::unique_ptr<GameStore> store, ServiceOptions opts = {});
  ~Service();
  Service(const Service&) = delete;
  Service& operator=(const Service&) = delete;

  // Loads every stored game and replays its actions. Games that cannot be replayed (game
  // not installed, rules changed, action refused) stay listed as "unavailable" with the
  // reason. Returns how many games were resumed.
  int resume_all();
  // Cancels thinking agents and waits for the worker pool.
  void shutdown();

  ApiResult health() const;
  ApiResult catalog() const;
  ApiResult catalog_map(const std::string& game_id) const;
  ApiResult list_games();
  // `client` identifies the creator for the rate limit (the peer address); empty: none.
  ApiResult create_game(const Json& request, const std::string& client = "");
  ApiResult game_info(const std::string& id);
  ApiResult game_map(const std::string& id);
  ApiResult view(const std::string& id, const std::string& token);
  // `idempotency_key` (optional, at most 128 printable ASCII characters): if this seat's
  // action with the same key is in the game's log, the original answer is returned and
  // nothing is applied again (a retry after a lost acknowledgement, even across a restart).
  ApiResult act(const std::string& id, const std::string& token, const std::string& action_text,
                const std::string& idempotency_key = "");
  ApiResult undo(const std::string& id, const std::string& token);
  // A seat's token resigns its side; the game's creator token cancels the game (status
  // "cancelled"), agents-only games included.
  ApiResult resign(const std::string& id, const std::string& token);
  // The seat's events after seq `since` (all of them, "reset", when `since` cannot follow).
  ApiResult log(const std::string& id, const std::string& token, size_t since);
  ApiResult replay(const std::string& id, const std::string& token, int step);
  ApiResult timeline(const std::string& id, const std::string& token);
  // The game as a save (docs/saves.md) with its dice commitment, for `steppe verify`: to a
  // seat's token, once the game is over (before, the seed would tell the rolls to come).
  ApiResult save(const std::string& id, const std::string& token);
  ApiResult game_data(const std::string& game_id, const std::string& file) const;
  // Typed views (kernel/views.h), each asked on a copy of the state determinized for the
  // seat (resample_hidden), so that an answer can depend only on what the seat may know; a
  // game's refusal (a preview that would tell something hidden, BD 11.7) is 422
  // "preview_refused" citing its rule. Never the scenario-test hooks.
  // What the action (kernel notation) would lead to: odds, shifts with reasons, outcomes.
  ApiResult preview(const std::string& id, const std::string& token, const std::string& action_text);
  // Where `unit` can go now, with cost and path.
  ApiResult reach(const std::string& id, const std::string& token, const std::string& unit);
  // The seat's legal actions that concern `unit` (State::legal_actions_for), described.
  ApiResult unit_actions(const std::string& id, const std::string& token, const std::string& unit);
  ApiResult agent_control(const std::string& id, const std::string& token, const std::string& command);
  ApiResult debug_hash(const std::string& id);

  // WebSocket push: `push` receives serialized JSON messages for the seat (called with
  // the game's lock held: it must only queue). A message is shared by every subscriber it
  // goes to, so a push copies no text. Returns the subscription id (> 0), or `refusal`
  // (bad token: 403; too many subscriptions of the seat: 429).
  using Push = std::function<void(std::shared_ptr<const std::string>)>;
  struct Subscription {
    int id = 0;
    ApiResult refusal;
  };
  // `since`: the seq of the last event the client has (a reconnection); the first message
  // then carries only the events after it, unless they cannot follow (beyond the list, or
  // an undo took back what it saw): then, as with kNoEvents, everything ("reset": true).
  static constexpr size_t kNoEvents = SIZE_MAX;
  Subscription subscribe(const std::string& id, const std::string& token, Push push,
                         size_t since = kNoEvents);
  void unsubscribe(const std::string& id, int subscription);

  // Waits until no agent is thinking in game `id` (tests), at most `timeout_ms`.
  bool wait_idle(const std::string& id, int timeout_ms);
  // Agent decisions executing on a worker thread right now, including ones cancelled but
  // not yet stopped (tests: a cancelled search must actually stop).
  int agents_running() const { return agents_running_.load(); }
  // The agent specs offered to clients (GET /api/catalog "agents").
  static const std::vector<std::string>& offered_agents();
  // Events turned into JSON by every Service of the process so far (tests and benches of
  // the work per action, issue 19.6: a number of events, not a time).
  static uint64_t events_serialized();

  struct Room;

 private:
  std::shared_ptr<Room> find_room(const std::string& id);
  std::vector<std::shared_ptr<Room>> rooms_snapshot();
  const CatalogEntry* find_title(const std::string& game_id) const;

  GameCatalog catalog_;
  std::unique_ptr<GameStore> store_;
  ServiceOptions opts_;
  std::mutex rooms_mu_;
  std::map<std::string, std::shared_ptr<Room>> rooms_;
  struct Pool;
  std::unique_ptr<Pool> pool_;        // searching agents
  std::unique_ptr<Pool> quick_pool_;  // `random`: never queued behind a search
  std::atomic<int> agents_running_{0};
  void tick_progress();
  std::mutex ticker_mu_;
  std::condition_variable ticker_cv_;
  std::thread ticker_;  // pushes agent progress to the sockets
  std::atomic<int> next_sub_{1};
  struct CreateBucket {
    double games = 0;
    std::chrono::steady_clock::time_point at;
  };
  std::mutex create_mu_;
  std::map<std::string, CreateBucket> create_buckets_;  // by client address
  // Takes one game from `client`'s bucket; returns 0, or the seconds until one is there.
  int take_create_token(const std::string& client);
  std::atomic<bool> stopping_{false};

  friend struct RoomOps;
};

}  // namespace steppe::server
