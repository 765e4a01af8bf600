// The rooms of the game service: one game being played each (Service::Room), the helpers
// that read and write a room, and the operations on a room that need the service (RoomOps).
// Internal to steppe_server: service.cpp (the API), room.cpp (the helpers), room_ops.cpp (the
// operations) and history.cpp (log, replay, save, timeline); nothing outside includes it.
#pragma once

#include <algorithm>
#include <atomic>
#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>
#include <cctype>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <thread>

#include "ai/agent.h"
#include "kernel/match.h"
#include "kernel/notation.h"
#include "kernel/position.h"
#include "kernel/sha256.h"
#include "server/json_text.h"
#include "server/service.h"

namespace steppe::server {

using Clock = std::chrono::steady_clock;

struct Service::Pool {
  explicit Pool(int n) : pool(static_cast<size_t>(n < 1 ? 1 : n)) {}
  boost::asio::thread_pool pool;
};

namespace detail {
// One agent decision: its stop flag (cancel, undo, resign, shutdown) and its progress,
// shared by the room and the worker running it.
struct AgentJob {
  std::atomic<bool> stop{false};
  SearchProgress progress;
  double budget_ms = 0;  // the server's time budget (0 = none)
};

int default_agent_threads();
}  // namespace detail

struct Service::Room {
  std::mutex mu;
  std::condition_variable idle_cv;
  StoredGame meta;
  std::shared_ptr<const Game> game;
  std::unique_ptr<State> state;  // null when unavailable
  std::string unavailable;       // why this stored game cannot be played here
  std::vector<StoredAction> actions;
  struct Logged {
    Event event;
    int action_index;  // the action that produced it
  };
  std::vector<Logged> events;
  // Per side, the events it may see, in order, as sent (each with its "seq", 1-based per
  // side: the index + 1), appended as the game emits them: nothing is rebuilt or
  // re-serialised per action (issue 19.6). An undo cuts the list (the replay of the kept
  // actions gives the same events again, so the seqs stay a function of the history, equal
  // on every instance); `cuts` remembers each cut as {kept, had}: a client that last saw a
  // seq in (kept, had] saw undone events and is sent everything again.
  // The events are kept as their JSON text: a DOM per event per side was most of the
  // server's memory per action played (issue 21: about 6.7 KB per action).
  struct SideLog {
    std::vector<std::string> events;
    std::vector<std::pair<size_t, size_t>> cuts;
  };
  std::vector<SideLog> side_logs;
  uint64_t version = 0;       // bumped by every change of state, log or status
  size_t position_after = 0;  // the actions the newest stored end-of-log position follows
  // Per side, the state's part of its view as last built (seat_view): valid while the
  // version, the state object and whether it is the side's turn are the same.
  struct ViewCache {
    uint64_t version = 0;
    const State* state = nullptr;
    bool my_turn = false;
    std::shared_ptr<const std::string> text;
  };
  std::map<int, ViewCache> view_cache;
  uint64_t undos = 0;  // bumped by every undo: a timeline built before it is stale

  // Timeline points per viewing side, extended as actions come instead of replaying the
  // whole game for every request (Service::timeline). Its own lock: the replay runs
  // without the room's.
  struct Timeline {
    std::mutex mu;
    uint64_t undos = 0;
    size_t steps = 0;              // actions replayed into `state`
    std::unique_ptr<State> state;  // null: start again
    Json points = Json::array();
    bool has_losses = false;                            // points carry "losses"
    std::map<std::string, std::pair<int, int>> losses;  // side -> units, steps up to `steps`
  };
  std::map<int, std::shared_ptr<Timeline>> timelines;

  // The agent at the side to move, if any.
  bool thinking = false;
  int thinking_side = -1;
  Clock::time_point thinking_since;
  uint64_t agent_job = 0;                 // a finished job whose id differs from this was cancelled
  std::shared_ptr<detail::AgentJob> job;  // the running decision, if any
  bool agent_paused = false;
  std::string agent_error;
  double last_agent_ms = 0;
  // One agent object per agent seat, kept between its decisions so that a turn clock
  // (mcts turn_ms, docs/ai.md) spreads one budget over the whole turn. Its mutex keeps a
  // cancelled decision that is still finishing apart from the next one.
  struct SeatAgent {
    std::mutex mu;
    std::string spec;
    std::unique_ptr<Agent> agent;
  };
  std::map<int, std::shared_ptr<SeatAgent>> agents;

  struct Sub {
    int side;
    Push push;
    size_t sent = 0;       // the seq of the last event it was sent (0: none)
    size_t cuts_seen = 0;  // the side's cuts when it was last sent something
  };
  std::map<int, Sub> subs;
};

namespace detail {

std::string random_hex(size_t bytes);

// Token comparison in time independent of where the strings differ.
bool same_secret(const std::string& a, const std::string& b);

bool visible(const Event& e, int side);

std::vector<std::string> split_words(std::string_view s);

// Events turned into JSON, in all (the measure of issue 19.6: per action it must not grow
// with the length of the game; Service::events_serialized).
extern std::atomic<uint64_t> g_events_serialized;

Json event_json(const Service::Room::Logged& l, size_t seq);

std::string event_text(const Service::Room::Logged& l, size_t seq);

// Logs each event the game emits, and appends it to the list of each side that may see it.
class RoomSink final : public EventSink {
 public:
  RoomSink(Service::Room& room, int action_index) : room_(room), index_(action_index) {}
  void emit(Event e) override {
    if (room_.side_logs.size() < room_.meta.seats.size()) room_.side_logs.resize(room_.meta.seats.size());
    Service::Room::Logged l{std::move(e), index_};
    for (size_t side = 0; side < room_.side_logs.size(); ++side) {
      auto& log = room_.side_logs[side].events;
      if (visible(l.event, static_cast<int>(side))) log.push_back(event_text(l, log.size() + 1));
    }
    room_.events.push_back(std::move(l));
  }

 private:
  Service::Room& room_;
  int index_;
};

// Keeps the events of an action applied to a copy, for the room's log once it is stored.
class CollectingSink final : public EventSink {
 public:
  void emit(Event e) override { events.push_back(std::move(e)); }
  std::vector<Event> events;
};

const std::vector<std::string>& side_events(const Service::Room& r, int side);

// Whether a client that last saw `seq` of `side`'s events can be sent only what follows:
// not when `seq` is beyond the list, nor when a cut since (`cuts_from` on) took back an
// event at or before `seq` that the client may have seen.
bool resumable(const Service::Room& r, int side, size_t seq, size_t cuts_from = 0);

size_t cuts_of(const Service::Room& r, int side);

// {"type": "update", "reset": ..., "from": N, "events": [the side's events after N], "view": ...}
// as text; `view_text` is serialised once per side and shared by its messages.
std::string update_text(const Service::Room& r, int side, size_t from, bool reset,
                        const std::string& view_text);

std::string side_name(const Service::Room& r, int side);

const StoredSeat* seat_of(const Service::Room& r, int side);

int side_for_token(const Service::Room& r, const std::string& token);

bool is_active(const Service::Room& r);

// The dice commitment (docs/api.md, "Verifiable dice"): SHA-256 of the seed and the game's
// id, public from the game's creation; the seed itself only once the game is over.
Json dice_json(const Service::Room& r);

// The game as a save (docs/saves.md) from its stored log: the kernel replays it (Match), and
// `steppe verify` checks its dice against the commitment.
Json save_document(const Service::Room& r);

Json public_info(const Service::Room& r);

bool can_undo(const Service::Room& r, int side);

Json agent_json(const Service::Room& r);

// What `a` is (State::describe); an action the game cannot describe keeps its notation.
ActionDescription description(const State& st, const Action& a);

// One legal action as a client receives it: the description's fields, and the notation's
// words (kept for clients that match on them).
Json described(const State& st, const Action& a);

// The part of a seat's view that the game's state alone decides: the observation and the
// side's legal actions, the costly part (a BD observation is 20-40 KB). Built and
// serialised once per change of the room (Room::version, bumped by every change of state,
// log or status) and side, then shared by every GET, action answer and push until the next
// change. Returned as members without the braces, to be spliced into the view's object.
std::shared_ptr<const std::string> state_part_text(Service::Room& r, int side, const ServiceOptions& opts);

// Everything a seat may know now, as JSON text. Built only from observation(side), public
// facts (whose turn it is, the seats, the status) and that side's own legal actions. The
// public facts (small, and the agent's progress changes by the second) are built each time;
// the state's part comes from the room's cache.
std::shared_ptr<const std::string> seat_view(Service::Room& r, int side, const ServiceOptions& opts);

void notify_idle(Service::Room& r);

// Forgets the running decision and tells its search to stop. Caller holds r.mu.
void stop_agent(Service::Room& r);

ApiResult from_error(int status, const std::string& code, const Error& e);

ApiResult ok(Json body);

ApiResult with_view(ApiResult r, std::shared_ptr<const std::string> view);

// The state a stored game's log starts from: the scenario's start, or the position an
// upgrade continued it from (StoredGame::start_position).
Result<std::unique_ptr<State>> start_state(const Game& game, const StoredGame& meta);

// What an upgrade did (a MigrationReport's JSON), as side `side` may read it. The full
// report (kept in the store) quotes actions and refusals, which may name another side's
// hidden units; a side reads the text and refusal of a dropped action only if it was its
// own, and why the exact replay failed only when that was a change of the rules data.
std::string migration_text(const Json& m, int side, const std::vector<std::string>& side_names);

}  // namespace detail

// The operations on one room that need the service (store, pool, options).
struct RoomOps {
  using SeatViews = std::map<int, std::shared_ptr<const std::string>>;  // side -> its view's text
  // Sends each subscriber of the room what is new for its side. Caller holds r.mu. Each
  // side's view is built and serialised once (`views` keeps them for the caller's answer),
  // and a message is shared by the subscribers of a side that were sent the same events, so
  // the work grows with the sides and the new events, not with the subscribers or the game.
  static void push_updates(Service& svc, Service::Room& r, SeatViews* views = nullptr);

  // Stores the position at the end of the room's log when the newest one stored is older
  // (ServiceOptions::end_position_every). Caller holds r.mu. A failure is logged, not fatal:
  // the log itself is stored.
  static void store_end_position(Service& svc, Service::Room& r);

  // The seat's view after a change: the one push_updates built, else a new one.
  static std::shared_ptr<const std::string> view_after(Service& svc, Service::Room& r, int side,
                                                       SeatViews& views);

  // Replays stored actions from the scenario start. Caller holds r.mu (or owns r).
  static Status rebuild(Service::Room& r);

  // Applies `a` for `side`: checks, makes it durable, then changes the state. Caller
  // holds r.mu. On any refusal nothing changes.
  // `retried`: a second try after catching up with another instance (shared store).
  static ApiResult apply(Service& svc, Service::Room& r, int side, const Action& a,
                         const std::string& idempotency_key = "", bool retried = false);

  // --- Several instances on one shared store (PostgreSQL, docs/deploy.md) ---

  // Brings the room up to what the store holds after another instance changed the game:
  // new actions are applied (their events logged and pushed to this instance's sockets),
  // anything else (an undo) rebuilds. Caller holds r.mu. Returns whether anything changed.
  static bool catch_up(Service& svc, Service::Room& r);

  // Another instance appended first: catch up and try the same action once more on the
  // new position (it is checked again; "stale" if it no longer fits).
  static ApiResult retry_after_catch_up(Service& svc, Service::Room& r, int side, const std::string& text,
                                        const std::string& idempotency_key);

  // A Room for a stored game: replayed; when its log no longer replays under the installed
  // engine, upgraded (migrate); "unavailable" with the reason only when the game is not
  // installed or nothing of it loads.
  static std::shared_ptr<Service::Room> load(Service& svc, const StoredGame& g, bool* resumed);

  // Issue 29 (docs/saves.md, "Upgrades"): a stored game whose log no longer replays exactly
  // continues from its latest position that loads (else the scenario's start), with the
  // actions after it re-applied while they stay legal (Match::migrate_save_json). The
  // result replaces the stored game in one transaction (its actions before that position
  // kept as history, the report kept and shown in every side's log), so it is done once.
  static Status migrate(Service& svc, Service::Room& r);

  // The store says another instance changed game `id` (empty: any game): catch up and
  // push to this instance's sockets; a game not known here is loaded.
  static void on_store_changed(Service& svc, const std::string& id);

  // Starts the agent of the side to move, if that side is an agent seat. Caller holds r.mu.
  static void schedule_agent(Service& svc, const std::shared_ptr<Service::Room>& room);
};

#define STEPPE_FIND_ROOM(id)                                                                    \
  auto room = find_room(id);                                                                    \
  if (room == nullptr) return api_error(404, "unknown_game", "no game with id '" + (id) + "'"); \
  std::unique_lock lock(room->mu);                                                              \
  Room& r = *room

#define STEPPE_SEAT(token)                   \
  const int side = side_for_token(r, token); \
  if (side < 0) return api_error(403, "bad_token", "this token is not a seat of game '" + r.meta.id + "'")

}  // namespace steppe::server
