#include "server/service.h"

#include <algorithm>
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

namespace steppe::server {

using Clock = std::chrono::steady_clock;

struct Service::Pool {
  explicit Pool(int n) : pool(static_cast<size_t>(n < 1 ? 1 : n)) {}
  boost::asio::thread_pool pool;
};

namespace {
// One agent decision: its stop flag (cancel, undo, resign, shutdown) and its progress,
// shared by the room and the worker running it.
struct AgentJob {
  std::atomic<bool> stop{false};
  SearchProgress progress;
  double budget_ms = 0;  // the server's time budget (0 = none)
};

int default_agent_threads() { return std::max(2, static_cast<int>(std::thread::hardware_concurrency())); }
}  // namespace

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
  uint64_t agent_job = 0;         // a finished job whose id differs from this was cancelled
  std::shared_ptr<AgentJob> job;  // the running decision, if any
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

namespace {

std::string random_hex(size_t bytes) {
  static thread_local std::random_device rd;
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < bytes; ++i) {
    const unsigned v = rd() & 0xFFu;
    s += digits[v >> 4];
    s += digits[v & 15u];
  }
  return s;
}

// Token comparison in time independent of where the strings differ.
bool same_secret(const std::string& a, const std::string& b) {
  if (a.size() != b.size() || a.empty()) return false;
  unsigned char d = 0;
  for (size_t i = 0; i < a.size(); ++i) d = static_cast<unsigned char>(d | (a[i] ^ b[i]));
  return d == 0;
}

bool visible(const Event& e, int side) {
  return side >= 0 && side < 32 && ((e.visible_to >> side) & 1u) != 0;
}

std::vector<std::string> split_words(std::string_view s) {
  std::vector<std::string> w;
  std::istringstream in{std::string(s)};
  std::string t;
  while (in >> t) w.push_back(t);
  return w;
}

// Events turned into JSON, in all (the measure of issue 19.6: per action it must not grow
// with the length of the game; Service::events_serialized).
std::atomic<uint64_t> g_events_serialized{0};

Json event_json(const Service::Room::Logged& l, size_t seq) {
  g_events_serialized.fetch_add(1, std::memory_order_relaxed);
  Json j{{"seq", seq},           {"kind", l.event.kind},       {"text", l.event.text},
         {"rule", l.event.rule}, {"reveals", l.event.reveals}, {"action_index", l.action_index}};
  if (!l.event.data.is_null()) j["data"] = l.event.data;
  return j;
}

std::string event_text(const Service::Room::Logged& l, size_t seq) {
  return to_json_text(event_json(l, seq));
}

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

const std::vector<std::string>& side_events(const Service::Room& r, int side) {
  static const std::vector<std::string> none;
  return side >= 0 && static_cast<size_t>(side) < r.side_logs.size()
             ? r.side_logs[static_cast<size_t>(side)].events
             : none;
}

// Whether a client that last saw `seq` of `side`'s events can be sent only what follows:
// not when `seq` is beyond the list, nor when a cut since (`cuts_from` on) took back an
// event at or before `seq` that the client may have seen.
bool resumable(const Service::Room& r, int side, size_t seq, size_t cuts_from = 0) {
  if (seq > side_events(r, side).size()) return false;
  if (side < 0 || static_cast<size_t>(side) >= r.side_logs.size()) return true;
  const auto& cuts = r.side_logs[static_cast<size_t>(side)].cuts;
  for (size_t i = cuts_from; i < cuts.size(); ++i)
    if (cuts[i].first < seq && seq <= cuts[i].second) return false;
  return true;
}

size_t cuts_of(const Service::Room& r, int side) {
  return side >= 0 && static_cast<size_t>(side) < r.side_logs.size()
             ? r.side_logs[static_cast<size_t>(side)].cuts.size()
             : 0;
}

// {"type": "update", "reset": ..., "from": N, "events": [the side's events after N], "view": ...}
// as text; `view_text` is serialised once per side and shared by its messages.
std::string update_text(const Service::Room& r, int side, size_t from, bool reset,
                        const std::string& view_text) {
  const auto& log = side_events(r, side);
  g_events_serialized.fetch_add(log.size() - std::min(from, log.size()), std::memory_order_relaxed);
  std::string text = R"({"type":"update","reset":)";
  text += reset ? "true" : "false";
  text += R"(,"from":)" + std::to_string(from) + R"(,"events":[)";
  for (size_t i = from; i < log.size(); ++i) {
    if (i > from) text += ',';
    text += log[i];
  }
  text += R"(],"view":)";
  text += view_text;
  text += '}';
  return text;
}

std::string side_name(const Service::Room& r, int side) {
  if (r.game == nullptr) return "side " + std::to_string(side);
  const auto names = r.game->side_names();
  return side >= 0 && static_cast<size_t>(side) < names.size() ? names[static_cast<size_t>(side)]
                                                               : "side " + std::to_string(side);
}

const StoredSeat* seat_of(const Service::Room& r, int side) {
  for (const auto& s : r.meta.seats)
    if (s.side == side) return &s;
  return nullptr;
}

int side_for_token(const Service::Room& r, const std::string& token) {
  int found = -1;
  for (const auto& s : r.meta.seats)
    if (s.kind == "human" && same_secret(s.token, token)) found = s.side;
  return found;
}

bool is_active(const Service::Room& r) { return r.state != nullptr && r.meta.status == "active"; }

// The dice commitment (docs/api.md, "Verifiable dice"): SHA-256 of the seed and the game's
// id, public from the game's creation; the seed itself only once the game is over.
Json dice_json(const Service::Room& r) {
  Json d{{"commitment", dice_commitment(r.meta.id, r.meta.seed)}, {"seed_from", r.meta.seed_from}};
  // As decimal text: a browser's JSON numbers cannot hold 64 bits.
  if (r.meta.status != "active") d["seed"] = std::to_string(r.meta.seed);
  return d;
}

// The game as a save (docs/saves.md) from its stored log: the kernel replays it (Match), and
// `steppe verify` checks its dice against the commitment.
Json save_document(const Service::Room& r) {
  Json save{{"format", kSaveFormat},
            {"format_version", kSaveFormatVersion},
            {"engine_version", r.meta.engine_version},
            {"game", r.meta.game},
            {"scenario", r.meta.scenario},
            {"seed", r.meta.seed},
            {"rules_hash", r.meta.rules_hash}};
  Json actions = Json::array();
  for (const auto& a : r.actions) actions.push_back(a.text);
  save["actions"] = std::move(actions);
  if (!r.meta.start_position.is_null())
    save["start"] = Json{{"position", r.meta.start_position}, {"history", r.meta.history}};
  save["migrations"] = r.meta.migrations;
  return save;
}

Json public_info(const Service::Room& r) {
  Json sides = Json::array();
  for (const auto& s : r.meta.seats)
    sides.push_back({{"side", s.side}, {"name", side_name(r, s.side)}, {"kind", s.kind}, {"agent", s.agent}});
  // "Grand Campaign (with Kiev VP 4.21)" for "grand-campaign+kiev-vp".
  std::string scenario_name = r.meta.scenario;
  const auto [base, options] = split_scenario_options(r.meta.scenario);
  if (r.game != nullptr)
    for (const auto& sc : r.game->scenarios()) {
      if (sc.id != base) continue;
      scenario_name = sc.name;
      std::string with;
      for (const auto& o : options) {
        std::string title = o;
        for (const auto& so : sc.options)
          if (so.id == o) title = so.name + " " + so.rule;
        with += (with.empty() ? "" : ", ") + title;
      }
      if (!with.empty()) scenario_name += " (with " + with + ")";
    }
  Json j{{"id", r.meta.id},
         {"game", r.meta.game},
         {"game_name", r.game != nullptr ? r.game->name() : r.meta.game},
         {"scenario", r.meta.scenario},
         {"scenario_name", scenario_name},
         {"status", r.unavailable.empty() ? r.meta.status : "unavailable"},
         {"created", r.meta.created},
         {"sides", sides},
         {"actions_count", r.actions.size()},
         {"dice", dice_json(r)}};
  if (!r.unavailable.empty()) j["unavailable"] = r.unavailable;
  if (!r.meta.result.is_null()) j["result"] = r.meta.result;
  // What upgrades did to this game (issue 29), in public terms: each side's log says more.
  if (!r.meta.migrations.empty()) {
    Json ups = Json::array();
    for (const auto& m : r.meta.migrations)
      if (m.is_object())
        ups.push_back(
            Json{{"engine_version", m.value("engine_version", "")},
                 {"rules_changed", m.value("rules_changed", false)},
                 {"from_scenario_start", m.value("from_scenario_start", false)},
                 {"base_turn", m.value("base_turn", 0)},
                 {"base_after", m.value("base_after", 0)},
                 {"replayed", m.value("replayed", 0)},
                 {"dropped", m.contains("dropped") && m["dropped"].is_array() ? m["dropped"].size() : 0}});
    j["upgrades"] = std::move(ups);
  }
  if (r.state != nullptr) {
    const int p = r.state->current_player();
    j["current_player"] = p;
    if (p >= 0) j["current_side"] = side_name(r, p);
  }
  return j;
}

bool can_undo(const Service::Room& r, int side) {
  if (!is_active(r) || r.actions.empty()) return false;
  const auto& last = r.actions.back();
  if (last.side != side) return false;
  // Undo never goes back past an event that revealed something (a die roll, a hidden unit).
  // The last action's events are the log's last ones.
  for (auto it = r.events.rbegin(); it != r.events.rend() && it->action_index == last.index; ++it)
    if (it->event.reveals) return false;
  return true;
}

Json agent_json(const Service::Room& r) {
  Json j{{"thinking", r.thinking}, {"paused", r.agent_paused}, {"last_ms", r.last_agent_ms}};
  if (r.thinking) {
    j["side"] = r.thinking_side;
    j["side_name"] = side_name(r, r.thinking_side);
    j["elapsed_ms"] =
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - r.thinking_since).count();
    if (const auto* s = seat_of(r, r.thinking_side)) j["agent"] = s->agent;
    if (r.job != nullptr) {
      j["iterations"] = r.job->progress.iterations.load(std::memory_order_relaxed);
      j["budget"] = r.job->progress.budget.load(std::memory_order_relaxed);
      j["budget_ms"] = r.job->budget_ms;
    }
  }
  if (!r.agent_error.empty()) j["error"] = r.agent_error;
  return j;
}

// What `a` is (State::describe); an action the game cannot describe keeps its notation.
ActionDescription description(const State& st, const Action& a) {
  auto d = st.describe(a);
  if (d) return std::move(d).value();
  ActionDescription plain;
  plain.text = st.action_to_string(a);
  plain.verb = plain.text.substr(0, plain.text.find(' '));
  plain.summary = plain.text;
  return plain;
}

// One legal action as a client receives it: the description's fields, and the notation's
// words (kept for clients that match on them).
Json described(const State& st, const Action& a) {
  const ActionDescription d = description(st, a);
  Json j = to_json(d);
  j["words"] = split_words(d.text);
  return j;
}

// The part of a seat's view that the game's state alone decides: the observation and the
// side's legal actions, the costly part (a BD observation is 20-40 KB). Built and
// serialised once per change of the room (Room::version, bumped by every change of state,
// log or status) and side, then shared by every GET, action answer and push until the next
// change. Returned as members without the braces, to be spliced into the view's object.
std::shared_ptr<const std::string> state_part_text(Service::Room& r, int side, const ServiceOptions& opts) {
  const bool my_turn = is_active(r) && r.state->current_player() == side;
  auto& cached = r.view_cache[side];
  if (cached.text != nullptr && cached.version == r.version && cached.state == r.state.get() &&
      cached.my_turn == my_turn)
    return cached.text;
  Json j;
  j["observation"] = r.state->observation(side);
  j["your_turn"] = my_turn;
  Json legal = Json::array();
  size_t count = 0;
  if (my_turn) {
    std::vector<Action> acts;
    r.state->legal_actions(acts);
    count = acts.size();
    if (count <= opts.max_legal_actions) {
      for (const Action& a : acts) legal.push_back(described(*r.state, a));
    } else {
      // Too many to ship: the actions that concern no unit (end the phase, pass) and the
      // units that have actions, which the client asks for one at a time (/actions?unit=).
      std::vector<std::string> units;
      for (const Action& a : acts) {
        const ActionDescription d = description(*r.state, a);
        if (d.units.empty())
          legal.push_back(described(*r.state, a));
        else
          units.insert(units.end(), d.units.begin(), d.units.end());
      }
      std::sort(units.begin(), units.end());
      units.erase(std::unique(units.begin(), units.end()), units.end());
      j["legal_units"] = units;
    }
  }
  j["legal_actions"] = std::move(legal);
  j["legal_count"] = count;
  std::string text = to_json_text(j);
  cached.version = r.version;
  cached.state = r.state.get();
  cached.my_turn = my_turn;
  cached.text = std::make_shared<const std::string>(text.substr(1, text.size() - 2));
  return cached.text;
}

// Everything a seat may know now, as JSON text. Built only from observation(side), public
// facts (whose turn it is, the seats, the status) and that side's own legal actions. The
// public facts (small, and the agent's progress changes by the second) are built each time;
// the state's part comes from the room's cache.
std::shared_ptr<const std::string> seat_view(Service::Room& r, int side, const ServiceOptions& opts) {
  Json j = public_info(r);
  j["side"] = side;
  j["side_name"] = side_name(r, side);
  j["can_undo"] = can_undo(r, side);
  j["agent"] = agent_json(r);
  j["log_count"] = side_events(r, side).size();
  std::string text = to_json_text(j);
  if (r.state != nullptr) {
    const auto part = state_part_text(r, side, opts);
    text.pop_back();  // '}'
    text += ',';
    text += *part;
    text += '}';
  }
  return std::make_shared<const std::string>(std::move(text));
}

void notify_idle(Service::Room& r) { r.idle_cv.notify_all(); }

// Forgets the running decision and tells its search to stop. Caller holds r.mu.
void stop_agent(Service::Room& r) {
  ++r.agent_job;
  if (r.job != nullptr) r.job->stop.store(true);
  r.job.reset();
}

}  // namespace

ApiResult api_error(int status, const std::string& code, const std::string& message,
                    const std::string& rule) {
  Json e{{"code", code}, {"message", message}};
  if (!rule.empty()) e["rule"] = rule;
  return {status, Json{{"ok", false}, {"error", e}}};
}

std::string ApiResult::text() const {
  return view_text != nullptr ? to_json_text_with(body, "view", *view_text) : to_json_text(body);
}

Json ApiResult::json() const {
  Json j = body;
  if (view_text != nullptr) j["view"] = Json::parse(*view_text);
  return j;
}

namespace {
ApiResult from_error(int status, const std::string& code, const Error& e) {
  return api_error(status, code, e.where.empty() ? e.message : e.where + ": " + e.message, e.rule);
}
ApiResult ok(Json body) {
  body["ok"] = true;
  return {200, std::move(body)};
}
ApiResult with_view(ApiResult r, std::shared_ptr<const std::string> view) {
  r.view_text = std::move(view);
  return r;
}
}  // namespace

namespace {

// The state a stored game's log starts from: the scenario's start, or the position an
// upgrade continued it from (StoredGame::start_position).
Result<std::unique_ptr<State>> start_state(const Game& game, const StoredGame& meta) {
  if (meta.start_position.is_null()) return game.new_state(meta.scenario, meta.seed);
  return state_from_position_document(game, meta.start_position, "game " + meta.id + ": start position");
}

// What an upgrade did (a MigrationReport's JSON), as side `side` may read it. The full
// report (kept in the store) quotes actions and refusals, which may name another side's
// hidden units; a side reads the text and refusal of a dropped action only if it was its
// own, and why the exact replay failed only when that was a change of the rules data.
std::string migration_text(const Json& m, int side, const std::vector<std::string>& side_names) {
  const auto n = [&m](const char* k) { return m.value(k, static_cast<size_t>(0)); };
  std::string t = "Continued under Steppe " + m.value("engine_version", std::string("?"));
  if (m.value("from_engine", std::string()) != m.value("engine_version", std::string()))
    t += " (the game was played under Steppe " + m.value("from_engine", std::string("?")) + ")";
  t += m.value("from_scenario_start", false)
           ? " from the scenario's start"
           : " from the position at game turn " + std::to_string(m.value("base_turn", 0)) +
                 " (after action " + std::to_string(n("base_after")) + ")";
  t += m.value("rules_changed", false) ? ": " + m.value("why", std::string("the rules data changed")) + ". "
                                       : ": the installed engine no longer replays the game's log exactly. ";
  const size_t base = n("base_after");
  const size_t replayed = n("replayed");
  t += replayed > 0
           ? "Actions " + std::to_string(base + 1) + "-" + std::to_string(base + replayed) + " replayed"
           : std::string("No action replayed");
  const Json dropped = m.contains("dropped") && m["dropped"].is_array() ? m["dropped"] : Json::array();
  if (dropped.empty()) {
    t += m.value("same_final_state", false) ? "; the game is exactly where it was."
                                            : "; the game continues from there.";
  } else {
    const int by = m.value("dropped_side", -1);
    t += "; action " + std::to_string(base + replayed + 1);
    if (by == side && dropped.front().is_string())
      t += " ('" + dropped.front().get<std::string>() +
           "') is no longer legal: " + m.value("refusal", std::string());
    else
      t +=
          std::string(" (") +
          (by >= 0 && static_cast<size_t>(by) < side_names.size() ? side_names[static_cast<size_t>(by)] + "'s"
                                                                  : "another side's") +
          ") is no longer legal under the installed rules";
    if (dropped.size() > 1)
      t += " (it and the " + std::to_string(dropped.size() - 1) + " actions after it were not replayed)";
    t += ".";
  }
  if (m.contains("skipped") && m["skipped"].is_array() && !m["skipped"].empty())
    t += " " + std::to_string(m["skipped"].size()) + " later position(s) of the game did not load.";
  return t;
}

}  // namespace

// The operations on one room that need the service (store, pool, options).
struct RoomOps {
  using SeatViews = std::map<int, std::shared_ptr<const std::string>>;  // side -> its view's text
  // Sends each subscriber of the room what is new for its side. Caller holds r.mu. Each
  // side's view is built and serialised once (`views` keeps them for the caller's answer),
  // and a message is shared by the subscribers of a side that were sent the same events, so
  // the work grows with the sides and the new events, not with the subscribers or the game.
  static void push_updates(Service& svc, Service::Room& r, SeatViews* views = nullptr) {
    SeatViews local;
    auto& built_views = views != nullptr ? *views : local;
    std::map<std::pair<int, size_t>, std::shared_ptr<const std::string>> built;
    for (auto& [id, sub] : r.subs) {
      (void)id;
      const bool reset = !resumable(r, sub.side, sub.sent, sub.cuts_seen);
      auto& msg_text = built[{sub.side, reset ? SIZE_MAX : sub.sent}];
      if (msg_text == nullptr) {
        auto v = built_views.find(sub.side);
        if (v == built_views.end())
          v = built_views.emplace(sub.side, seat_view(r, sub.side, svc.opts_)).first;
        msg_text = std::make_shared<const std::string>(
            update_text(r, sub.side, reset ? 0 : sub.sent, reset, *v->second));
      }
      sub.sent = side_events(r, sub.side).size();
      sub.cuts_seen = cuts_of(r, sub.side);
      sub.push(msg_text);
    }
  }

  // Stores the position at the end of the room's log when the newest one stored is older
  // (ServiceOptions::end_position_every). Caller holds r.mu. A failure is logged, not fatal:
  // the log itself is stored.
  static void store_end_position(Service& svc, Service::Room& r) {
    if (r.state == nullptr || r.actions.empty() || r.position_after == r.actions.size()) return;
    auto doc = position_document(*r.state);
    if (!doc) return;  // the game has no position format
    auto written = svc.store_->put_end_position(
        r.meta.id, StoredPosition{static_cast<int>(r.actions.size()), r.state->game_turn(), false,
                                  std::move(doc).value()});
    if (written && *written)
      r.position_after = r.actions.size();
    else if (!written)
      std::fprintf(stderr, "steppe: game %s: the end-of-log position was not stored: %s\n", r.meta.id.c_str(),
                   written.error().to_string().c_str());
  }

  // The seat's view after a change: the one push_updates built, else a new one.
  static std::shared_ptr<const std::string> view_after(Service& svc, Service::Room& r, int side,
                                                       SeatViews& views) {
    auto it = views.find(side);
    return it != views.end() ? it->second : seat_view(r, side, svc.opts_);
  }

  // Replays stored actions from the scenario start. Caller holds r.mu (or owns r).
  static Status rebuild(Service::Room& r) {
    auto st = start_state(*r.game, r.meta);
    if (!st) return st.error();
    r.state = std::move(st).value();
    ++r.version;  // every cached view is of the state before
    r.events.clear();
    std::vector<size_t> had;
    for (auto& log : r.side_logs) {
      had.push_back(log.events.size());
      log.events.clear();
    }
    // An upgraded game's log opens with what each upgrade did (issue 29): every side sees
    // it, in its own words (migration_text), before the actions replayed after it.
    if (r.side_logs.size() < r.meta.seats.size()) r.side_logs.resize(r.meta.seats.size());
    const auto names = r.game->side_names();
    for (const auto& m : r.meta.migrations) {
      for (size_t side = 0; side < r.side_logs.size(); ++side) {
        Service::Room::Logged l{
            Event{"upgrade", migration_text(m, static_cast<int>(side), names), "", 1u << side, false,
                  Json{{"engine_version", m.value("engine_version", "")}}},
            -1};
        auto& log = r.side_logs[side].events;
        log.push_back(event_text(l, log.size() + 1));
        r.events.push_back(std::move(l));
      }
    }
    // Each side's list is cut to what the replay gives again (an undo: the undone action's
    // events go).
    auto record_cuts = [&r, &had] {
      for (size_t side = 0; side < had.size() && side < r.side_logs.size(); ++side)
        if (r.side_logs[side].events.size() < had[side])
          r.side_logs[side].cuts.emplace_back(r.side_logs[side].events.size(), had[side]);
    };
    for (const auto& a : r.actions) {
      auto parsed = r.state->parse_action(a.text);
      if (!parsed) {
        record_cuts();
        return Error{"stored action " + std::to_string(a.index) + " '" + a.text +
                         "' no longer parses: " + parsed.error().to_string(),
                     "", ""};
      }
      if (r.state->current_player() != a.side) {
        record_cuts();
        return Error{"stored action " + std::to_string(a.index) + " was made by side " +
                         std::to_string(a.side) + " but replay has side " +
                         std::to_string(r.state->current_player()) + " to move",
                     "", ""};
      }
      RoomSink sink(r, a.index);
      r.state->set_event_sink(&sink);
      Status s = r.state->apply(*parsed);
      r.state->set_event_sink(nullptr);
      if (!s.is_ok()) {
        record_cuts();
        return Error{"stored action " + std::to_string(a.index) + " '" + a.text +
                         "' is refused on replay: " + s.error().to_string(),
                     "", ""};
      }
    }
    record_cuts();
    return Status::ok();
  }

  // Applies `a` for `side`: checks, makes it durable, then changes the state. Caller
  // holds r.mu. On any refusal nothing changes.
  // `retried`: a second try after catching up with another instance (shared store).
  static ApiResult apply(Service& svc, Service::Room& r, int side, const Action& a,
                         const std::string& idempotency_key = "", bool retried = false) {
    if (r.state == nullptr)
      return api_error(409, "unavailable", "this game cannot be played here: " + r.unavailable);
    if (r.meta.status != "active")
      return api_error(409, "game_over", "the game is over (" + r.meta.status + ")");
    const int to_move = r.state->current_player();
    if (to_move != side)
      return api_error(
          409, "not_your_turn",
          "it is not " + side_name(r, side) + "'s turn: " +
              (to_move >= 0 ? side_name(r, to_move) + " is to move" : std::string("nobody is to move")));
    if (Status s = r.state->check(a); !s.is_ok()) return from_error(422, "illegal_action", s.error());
    const std::string text = r.state->action_to_string(a);
    const StoredAction stored{static_cast<int>(r.actions.size()), side, text, idempotency_key};
    // Applied to a copy first: the position after the action is stored with it (issue 29:
    // the start of every game turn, and the end of the log), and nothing of the room changes
    // until the store has both.
    std::unique_ptr<State> next = r.state->clone();
    CollectingSink collected;
    next->set_event_sink(&collected);
    Status applied = next->apply(a);
    next->set_event_sink(nullptr);
    if (!applied.is_ok()) return from_error(500, "internal", applied.error());  // check() passed: a game bug
    std::optional<StoredPosition> position;
    const bool turn_start = next->game_turn() != r.state->game_turn();
    const size_t after = r.actions.size() + 1;
    if (turn_start || next->is_terminal() || after >= r.position_after + svc.opts_.end_position_every)
      if (auto doc = position_document(*next))
        position = StoredPosition{stored.index + 1, next->game_turn(), turn_start, std::move(doc).value()};
    if (Status s = svc.store_->append_action(r.meta.id, stored, position ? &*position : nullptr);
        !s.is_ok()) {
      if (svc.store_->shared() && !retried) return retry_after_catch_up(svc, r, side, text, idempotency_key);
      return from_error(503, "storage_failed", s.error());
    }
    r.state = std::move(next);
    RoomSink sink(r, stored.index);
    for (auto& e : collected.events) sink.emit(std::move(e));
    r.actions.push_back(stored);
    if (position) r.position_after = r.actions.size();
    ++r.version;
    stop_agent(r);
    if (r.state->is_terminal()) {
      r.meta.status = "finished";
      r.meta.result = r.state->result();
      if (Status s = svc.store_->set_status(r.meta.id, r.meta.status, r.meta.result); !s.is_ok())
        return from_error(503, "storage_failed", s.error());
    }
    return ok(Json{{"action", text}, {"index", stored.index}});
  }

  // --- Several instances on one shared store (PostgreSQL, docs/deploy.md) ---

  // Brings the room up to what the store holds after another instance changed the game:
  // new actions are applied (their events logged and pushed to this instance's sockets),
  // anything else (an undo) rebuilds. Caller holds r.mu. Returns whether anything changed.
  static bool catch_up(Service& svc, Service::Room& r) {
    if (r.game == nullptr || !r.unavailable.empty()) return false;
    auto meta = svc.store_->find_game(r.meta.id);
    auto stored = svc.store_->actions(r.meta.id);
    if (!meta || !meta->has_value() || !stored) return false;
    bool changed = false;
    if ((**meta).status != r.meta.status || (**meta).result != r.meta.result) {
      r.meta.status = (**meta).status;
      r.meta.result = (**meta).result;
      changed = true;
    }
    const bool upgraded = (**meta).migrations.size() != r.meta.migrations.size();
    if (upgraded) {
      // Another instance upgraded the game (issue 29): its new start, history and log.
      r.meta.rules_hash = (**meta).rules_hash;
      r.meta.engine_version = (**meta).engine_version;
      r.meta.start_position = (**meta).start_position;
      r.meta.history = (**meta).history;
      r.meta.migrations = (**meta).migrations;
      changed = true;
    }
    bool prefix = !upgraded && stored->size() >= r.actions.size();
    for (size_t i = 0; prefix && i < r.actions.size(); ++i)
      prefix = (*stored)[i].text == r.actions[i].text && (*stored)[i].side == r.actions[i].side;
    if (prefix && stored->size() > r.actions.size()) {
      for (size_t i = r.actions.size(); i < stored->size() && r.state != nullptr; ++i) {
        const StoredAction& a = (*stored)[i];
        auto parsed = r.state->parse_action(a.text);
        RoomSink sink(r, a.index);
        r.state->set_event_sink(&sink);
        const Status s = parsed ? r.state->apply(*parsed) : Status(parsed.error());
        r.state->set_event_sink(nullptr);
        if (!s.is_ok()) {
          r.state.reset();
          r.unavailable = "action " + std::to_string(a.index) +
                          " of another instance is refused here: " + s.error().to_string();
          break;
        }
        r.actions.push_back(a);
      }
      changed = true;
    } else if (!prefix) {
      r.actions = std::move(stored).value();
      ++r.undos;
      if (Status s = rebuild(r); !s.is_ok()) {
        r.state.reset();
        r.unavailable = s.error().to_string();
      }
      changed = true;
    }
    if (changed) {
      ++r.version;
      r.position_after = r.actions.size();  // the instance that played them stored their positions
      stop_agent(r);
      r.thinking = false;
    }
    return changed;
  }

  // Another instance appended first: catch up and try the same action once more on the
  // new position (it is checked again; "stale" if it no longer fits).
  static ApiResult retry_after_catch_up(Service& svc, Service::Room& r, int side, const std::string& text,
                                        const std::string& idempotency_key) {
    catch_up(svc, r);
    push_updates(svc, r);
    const std::string stale = "another server instance advanced this game first; the view is updated";
    if (r.state == nullptr || r.meta.status != "active" || r.state->current_player() != side)
      return api_error(409, "stale", stale);
    auto parsed = r.state->parse_action(text);
    if (!parsed || !r.state->check(*parsed).is_ok()) return api_error(409, "stale", stale);
    return apply(svc, r, side, *parsed, idempotency_key, true);
  }

  // A Room for a stored game: replayed; when its log no longer replays under the installed
  // engine, upgraded (migrate); "unavailable" with the reason only when the game is not
  // installed or nothing of it loads.
  static std::shared_ptr<Service::Room> load(Service& svc, const StoredGame& g, bool* resumed) {
    auto room = std::make_shared<Service::Room>();
    room->meta = g;
    const CatalogEntry* title = svc.find_title(g.game);
    if (title == nullptr || title->game == nullptr) {
      room->unavailable = "game '" + g.game + "' is not installed" +
                          (title != nullptr ? " (" + title->load_error + ")" : std::string());
      return room;
    }
    room->game = title->game;
    auto acts = svc.store_->actions(g.id);
    if (!acts) {
      room->unavailable = acts.error().to_string();
      return room;
    }
    room->actions = std::move(acts).value();
    room->position_after = room->actions.size();  // as stored: at most end_position_every behind
    Status replayed = title->game->rules_hash() == g.rules_hash
                          ? rebuild(*room)
                          : Status(Error{"the rules data changed since this game was stored (rules hash " +
                                             g.rules_hash + ", installed " + title->game->rules_hash() + ")",
                                         "", ""});
    if (!replayed.is_ok()) replayed = migrate(svc, *room);
    if (!replayed.is_ok()) {
      room->state.reset();
      room->unavailable = replayed.error().to_string();
    } else if (resumed != nullptr) {
      *resumed = true;
    }
    return room;
  }

  // Issue 29 (docs/saves.md, "Upgrades"): a stored game whose log no longer replays exactly
  // continues from its latest position that loads (else the scenario's start), with the
  // actions after it re-applied while they stay legal (Match::migrate_save_json). The
  // result replaces the stored game in one transaction (its actions before that position
  // kept as history, the report kept and shown in every side's log), so it is done once.
  static Status migrate(Service& svc, Service::Room& r) {
    const Game& game = *r.game;
    auto positions = svc.store_->positions(r.meta.id);
    if (!positions) return positions.error();
    Json save = save_document(r);
    Json ps = Json::array();
    for (const auto& p : *positions)
      ps.push_back(Json{{"after", static_cast<size_t>(p.after)}, {"turn", p.turn}, {"position", p.position}});
    save["positions"] = std::move(ps);
    auto m = Match::migrate_save_json(save, game, "game " + r.meta.id);
    if (!m) return m.error();
    const Match& match = **m;
    // The log replays as a save (the kernel does not check whose move each was): nothing to
    // upgrade, and the stored log stays as it is, with the reason it cannot be served.
    if (match.migrations().size() == r.meta.migrations.size())
      return Error{"the stored log replays, but not as it was played (whose move each action was)", "", ""};
    Json report = match.migrations().back();
    if (report.value("rules_changed", false))
      report["why"] = "the rules data changed since this game was stored (rules hash " + r.meta.rules_hash +
                      ", installed " + game.rules_hash() + ")";
    const auto base = report.value("base_after", static_cast<size_t>(0));
    const auto replayed = report.value("replayed", static_cast<size_t>(0));
    if (base + replayed < r.actions.size()) report["dropped_side"] = r.actions[base + replayed].side;

    StoredMigration sm;
    sm.rules_hash = game.rules_hash();
    sm.engine_version = STEPPE_VERSION;
    sm.start_position = match.start_position();
    sm.history = match.history();
    sm.migrations = r.meta.migrations;
    sm.migrations.push_back(report);
    for (size_t i = 0; i < match.log().size(); ++i) {
      const LogEntry& le = match.log()[i];
      // The replayed actions keep their idempotency keys: a client's retry still finds them.
      sm.actions.push_back(StoredAction{static_cast<int>(i), le.side, le.action, r.actions[base + i].key});
    }
    for (const auto& p : match.positions())
      sm.positions.push_back(StoredPosition{static_cast<int>(p.after), p.turn, true, p.position});
    if (sm.positions.empty() || static_cast<size_t>(sm.positions.back().after) != match.size())
      if (auto doc = position_document(match.state()))
        sm.positions.push_back(StoredPosition{static_cast<int>(match.size()), match.state().game_turn(),
                                              false, std::move(doc).value()});
    if (Status s = svc.store_->migrate_game(r.meta.id, sm, static_cast<int>(r.meta.migrations.size()),
                                            static_cast<int>(r.actions.size()));
        !s.is_ok()) {
      // Another instance upgraded (or played) it first: take the game as the store now has it.
      auto fresh = svc.store_->find_game(r.meta.id);
      auto acts = svc.store_->actions(r.meta.id);
      if (!fresh || !fresh->has_value() || !acts || (**fresh).rules_hash != game.rules_hash()) return s;
      r.meta = **fresh;
      r.actions = std::move(acts).value();
      return rebuild(r);
    }
    r.meta.rules_hash = sm.rules_hash;
    r.meta.engine_version = sm.engine_version;
    r.meta.start_position = sm.start_position;
    r.meta.history = sm.history;
    r.meta.migrations = sm.migrations;
    r.actions = sm.actions;
    if (Status s = rebuild(r); !s.is_ok()) return s;
    if (r.meta.status == "active" && r.state->is_terminal()) {
      // Under the installed rules the game is over where it now stands (a scenario's last
      // turn moved earlier): it ends with the result those rules give.
      r.meta.status = "finished";
      r.meta.result = r.state->result();
      if (Status s = svc.store_->set_status(r.meta.id, r.meta.status, r.meta.result); !s.is_ok()) return s;
    }
    return Status::ok();
  }

  // The store says another instance changed game `id` (empty: any game): catch up and
  // push to this instance's sockets; a game not known here is loaded.
  static void on_store_changed(Service& svc, const std::string& id) {
    if (svc.stopping_) return;
    std::vector<std::shared_ptr<Service::Room>> rooms;
    if (id.empty()) {
      std::lock_guard lock(svc.rooms_mu_);
      for (auto& [rid, room] : svc.rooms_) rooms.push_back(room);
    } else if (auto room = svc.find_room(id)) {
      rooms.push_back(room);
    }
    for (auto& room : rooms) {
      std::lock_guard lock(room->mu);
      if (!catch_up(svc, *room)) continue;
      push_updates(svc, *room);
      schedule_agent(svc, room);
      notify_idle(*room);
    }
  }

  // Starts the agent of the side to move, if that side is an agent seat. Caller holds r.mu.
  static void schedule_agent(Service& svc, const std::shared_ptr<Service::Room>& room) {
    Service::Room& r = *room;
    if (svc.stopping_ || !is_active(r) || r.thinking || r.agent_paused) return;
    const int side = r.state->current_player();
    const StoredSeat* seat = seat_of(r, side);
    if (seat == nullptr || seat->kind != "agent") return;
    r.thinking = true;
    r.thinking_side = side;
    r.thinking_since = Clock::now();
    r.agent_error.clear();
    const uint64_t job = ++r.agent_job;
    auto ctl = std::make_shared<AgentJob>();
    ctl->budget_ms = svc.opts_.agent_budget_ms;
    r.job = ctl;
    std::shared_ptr<const State> snapshot(r.state->clone());
    const std::string spec = seat->agent;
    const uint64_t seed =
        splitmix64(r.meta.seed ^ splitmix64(r.actions.size() * 31 + static_cast<uint64_t>(side)));
    // `random` decides in microseconds: its own lane, so that no search delays it.
    auto& lane = spec == "random" ? svc.quick_pool_->pool : svc.pool_->pool;
    auto& slot = r.agents[side];
    if (!slot) slot = std::make_shared<Service::Room::SeatAgent>();
    boost::asio::post(lane, [&svc, room, snapshot, spec, seed, job, side, ctl, slot] {
      ++svc.agents_running_;
      std::string error;
      Action chosen;
      const auto t0 = Clock::now();
      // The budget runs from when the decision starts, not from when it was queued.
      SearchLimits limits;
      limits.stop = &ctl->stop;
      limits.progress = &ctl->progress;
      if (ctl->budget_ms > 0)
        limits.deadline = t0 + std::chrono::microseconds(static_cast<int64_t>(ctl->budget_ms * 1000.0));
      if (!ctl->stop.load()) {
        std::lock_guard agent_lock(slot->mu);
        if (!slot->agent || slot->spec != spec) {
          auto agent = make_agent(spec, seed);
          if (agent) {
            slot->agent = std::move(agent).value();
            slot->spec = spec;
          } else {
            error = agent.error().to_string();
          }
        }
        if (error.empty()) chosen = slot->agent->choose_within(*snapshot, limits);
      }
      const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
      std::lock_guard lock(room->mu);
      --svc.agents_running_;
      Service::Room& rr = *room;
      if (rr.agent_job != job) return;  // cancelled, or the position changed meanwhile
      rr.thinking = false;
      rr.job.reset();
      rr.last_agent_ms = ms;
      if (error.empty()) {
        ApiResult res = apply(svc, rr, side, chosen);
        const bool stale = res.status == 409 && res.body["error"].value("code", "") == "stale";
        if (res.status != 200 && !stale) error = res.body["error"].value("message", "refused");
      }
      if (!error.empty()) {
        rr.agent_error = "agent '" + spec + "' failed: " + error;
        rr.agent_paused = true;
      }
      push_updates(svc, rr);
      schedule_agent(svc, room);
      notify_idle(rr);
    });
  }
};

Service::Service(GameCatalog catalog, std::unique_ptr<GameStore> store, ServiceOptions opts)
    : catalog_(std::move(catalog)),
      store_(std::move(store)),
      opts_(std::move(opts)),
      pool_(std::make_unique<Pool>(opts_.agent_threads > 0 ? opts_.agent_threads : default_agent_threads())),
      quick_pool_(std::make_unique<Pool>(1)) {
  ticker_ = std::thread([this] { tick_progress(); });
}

const std::vector<std::string>& Service::offered_agents() {
  static const std::vector<std::string> agents{"random", "mcts:easy", "mcts:normal"};
  return agents;
}

// While an agent thinks, its progress (elapsed time, simulations) reaches the seats'
// sockets twice a second as {"type": "agent", "agent": {...}}: a small message, not the
// whole view.
void Service::tick_progress() {
  std::unique_lock lock(ticker_mu_);
  while (!stopping_) {
    ticker_cv_.wait_for(lock, std::chrono::milliseconds(500), [this] { return stopping_.load(); });
    if (stopping_) break;
    for (auto& r : rooms_snapshot()) {
      std::lock_guard rl(r->mu);
      if (!r->thinking || r->subs.empty()) continue;
      const auto msg = std::make_shared<const std::string>(
          to_json_text(Json{{"type", "agent"}, {"agent", agent_json(*r)}}));
      for (auto& [sid, sub] : r->subs) {
        (void)sid;
        sub.push(msg);
      }
    }
  }
}

Service::~Service() { shutdown(); }

void Service::shutdown() {
  if (stopping_.exchange(true)) return;
  store_->stop_watching();
  {
    std::lock_guard lock(rooms_mu_);
    for (auto& [id, r] : rooms_) {
      (void)id;
      std::lock_guard rl(r->mu);
      stop_agent(*r);
      r->thinking = false;
      r->subs.clear();
      RoomOps::store_end_position(*this, *r);
      notify_idle(*r);
    }
  }
  {
    std::lock_guard lock(ticker_mu_);
    ticker_cv_.notify_all();
  }
  if (ticker_.joinable()) ticker_.join();
  quick_pool_->pool.join();
  pool_->pool.join();
}

const CatalogEntry* Service::find_title(const std::string& game_id) const {
  for (const auto& e : catalog_)
    if (e.id == game_id) return &e;
  return nullptr;
}

// Every room, taken under rooms_mu_ and then released: a caller that locks each room in turn
// never holds both locks.
std::vector<std::shared_ptr<Service::Room>> Service::rooms_snapshot() {
  std::lock_guard lock(rooms_mu_);
  std::vector<std::shared_ptr<Room>> out;
  out.reserve(rooms_.size());
  for (auto& [id, r] : rooms_) out.push_back(r);
  return out;
}

std::shared_ptr<Service::Room> Service::find_room(const std::string& id) {
  {
    std::lock_guard lock(rooms_mu_);
    auto it = rooms_.find(id);
    if (it != rooms_.end() || !store_->shared()) return it == rooms_.end() ? nullptr : it->second;
  }
  // Shared store: a game another instance created (a client may connect to any instance).
  auto stored = store_->find_game(id);
  if (!stored || !stored->has_value()) return nullptr;
  auto room = RoomOps::load(*this, **stored, nullptr);
  std::lock_guard lock(rooms_mu_);
  auto [it, fresh] = rooms_.emplace(id, room);
  if (fresh) {
    std::lock_guard rl(room->mu);
    RoomOps::schedule_agent(*this, room);
  }
  return it->second;
}

int Service::resume_all() {
  // Shared store: listen before loading, so that no change of another instance is missed.
  if (store_->shared())
    (void)store_->watch([this](const std::string& id) { RoomOps::on_store_changed(*this, id); });
  auto games = store_->list_games();
  if (!games) return 0;
  int resumed = 0;
  for (auto& g : *games) {
    bool ok_replay = false;
    auto room = RoomOps::load(*this, g, &ok_replay);
    resumed += ok_replay ? 1 : 0;
    std::lock_guard lock(rooms_mu_);
    rooms_[g.id] = room;
  }
  std::lock_guard lock(rooms_mu_);
  for (auto& [id, r] : rooms_) {
    (void)id;
    std::lock_guard rl(r->mu);
    RoomOps::schedule_agent(*this, r);
  }
  return resumed;
}

ApiResult Service::health() const {
  return ok(
      Json{{"version", STEPPE_VERSION}, {"store", store_->describe()}, {"games_installed", catalog_.size()}});
}

ApiResult Service::catalog() const {
  Json games = Json::array();
  for (const auto& e : catalog_) {
    Json g{{"id", e.id}, {"name", e.name}, {"available", e.game != nullptr}};
    if (e.game == nullptr) {
      g["error"] = e.load_error;
    } else {
      g["sides"] = e.game->side_names();
      Json sc = Json::array();
      for (const auto& s : e.game->scenarios()) {
        Json options = Json::array();
        for (const auto& o : s.options) options.push_back({{"id", o.id}, {"name", o.name}, {"rule", o.rule}});
        sc.push_back({{"id", s.id},
                      {"name", s.name},
                      {"description", s.description},
                      {"first_turn", s.first_turn},
                      {"last_turn", s.last_turn},
                      {"options", options}});
      }
      g["scenarios"] = sc;
    }
    games.push_back(std::move(g));
  }
  return ok(Json{{"games", games}, {"agents", offered_agents()}, {"agent_budget_ms", opts_.agent_budget_ms}});
}

ApiResult Service::catalog_map(const std::string& game_id) const {
  const CatalogEntry* e = find_title(game_id);
  if (e == nullptr) return api_error(404, "unknown_game", "no game '" + game_id + "' is installed");
  if (e->game == nullptr) return api_error(409, "unavailable", e->load_error);
  return ok(Json{{"map", e->game->map_json()}});
}

ApiResult Service::list_games() {
  Json list = Json::array();
  for (auto& r : rooms_snapshot()) {
    std::lock_guard lock(r->mu);
    list.push_back(public_info(*r));
  }
  return ok(Json{{"games", list}});
}

int Service::take_create_token(const std::string& client) {
  if (client.empty() || opts_.create_per_minute <= 0) return 0;
  const auto now = std::chrono::steady_clock::now();
  const double per_second = opts_.create_per_minute / 60.0;
  const double burst = std::max(1, opts_.create_burst);
  std::lock_guard lock(create_mu_);
  auto refill = [&](CreateBucket& b) {
    b.games = std::min(burst, b.games + std::chrono::duration<double>(now - b.at).count() * per_second);
    b.at = now;
  };
  if (create_buckets_.size() > 10000) {  // forget clients whose bucket is full again
    for (auto it = create_buckets_.begin(); it != create_buckets_.end();) {
      refill(it->second);
      it = it->second.games >= burst ? create_buckets_.erase(it) : std::next(it);
    }
  }
  auto [it, fresh] = create_buckets_.try_emplace(client, CreateBucket{burst, now});
  if (!fresh) refill(it->second);
  if (it->second.games >= 1) {
    it->second.games -= 1;
    return 0;
  }
  return std::max(1, static_cast<int>(std::ceil((1 - it->second.games) / per_second)));
}

ApiResult Service::create_game(const Json& req, const std::string& client) {
  if (const int wait = take_create_token(client); wait > 0) {
    ApiResult r =
        api_error(429, "too_many_games",
                  "too many games created from this address: at most " + std::to_string(opts_.create_burst) +
                      " at once, then " + std::to_string(opts_.create_per_minute) + " a minute; retry in " +
                      std::to_string(wait) + " s");
    r.retry_after_seconds = wait;
    return r;
  }
  if (!req.is_object()) return api_error(400, "bad_request", "the request body must be a JSON object");
  if (!req.contains("game") || !req["game"].is_string())
    return api_error(400, "bad_request", "field 'game' (string) is required");
  const std::string game_id = req["game"].get<std::string>();
  const CatalogEntry* title = find_title(game_id);
  if (title == nullptr) return api_error(404, "unknown_game", "no game '" + game_id + "' is installed");
  if (title->game == nullptr)
    return api_error(409, "unavailable", "game '" + game_id + "': " + title->load_error);
  const auto& game = title->game;
  std::string scenario;
  if (req.contains("scenario")) {
    if (!req["scenario"].is_string())
      return api_error(400, "bad_request", "field 'scenario' must be a string");
    scenario = req["scenario"].get<std::string>();
  } else {
    const auto scs = game->scenarios();
    if (scs.empty()) return api_error(400, "bad_request", "field 'scenario' is required");
    scenario = scs.front().id;
  }
  // An option given twice (`+blizzard+blizzard`) is a mistake, not a stronger option; a
  // thousand of them made a stored scenario name of any length.
  {
    auto options = split_scenario_options(scenario).second;
    std::sort(options.begin(), options.end());
    if (auto twice = std::adjacent_find(options.begin(), options.end()); twice != options.end())
      return api_error(400, "bad_scenario", "scenario option '" + *twice + "' is given more than once");
  }
  uint64_t seed = 0;
  std::string seed_from = "server";
  if (req.contains("seed")) {
    if (!req["seed"].is_number_unsigned() && !req["seed"].is_number_integer())
      return api_error(400, "bad_request", "field 'seed' must be a non-negative integer");
    if (req["seed"].is_number_integer() && req["seed"].get<int64_t>() < 0)
      return api_error(400, "bad_request", "field 'seed' must be a non-negative integer");
    seed = req["seed"].get<uint64_t>();
    seed_from = "creator";
  } else {
    std::random_device rd;
    seed = (static_cast<uint64_t>(rd()) << 32) ^ rd();
  }
  const auto sides = game->side_names();
  StoredGame g;
  g.game = game_id;
  g.scenario = scenario;
  g.seed = seed;
  g.seed_from = seed_from;
  g.rules_hash = game->rules_hash();
  g.created = now_iso();
  for (size_t i = 0; i < sides.size(); ++i) g.seats.push_back({static_cast<int>(i), "human", "", ""});
  if (req.contains("seats")) {
    const Json& seats = req["seats"];
    if (!seats.is_array() || seats.size() != sides.size())
      return api_error(
          400, "bad_request",
          "field 'seats' must be an array with one entry per side (" + std::to_string(sides.size()) + ")");
    for (size_t i = 0; i < seats.size(); ++i) {
      const Json& s = seats[i];
      const std::string path = "seats[" + std::to_string(i) + "]";
      if (!s.is_object() || !s.contains("kind") || !s["kind"].is_string())
        return api_error(400, "bad_request", path + ".kind must be \"human\" or \"agent\"");
      const std::string kind = s["kind"].get<std::string>();
      if (kind == "agent") {
        const std::string spec =
            s.contains("agent") && s["agent"].is_string() ? s["agent"].get<std::string>() : "random";
        if (auto a = make_agent(spec, 0); !a) return from_error(400, "bad_request", a.error());
        g.seats[i].kind = "agent";
        g.seats[i].agent = spec;
      } else if (kind != "human") {
        return api_error(400, "bad_request",
                         path + ".kind must be \"human\" or \"agent\", not \"" + kind + "\"");
      }
    }
  }
  const bool agents_only =
      std::all_of(g.seats.begin(), g.seats.end(), [](const StoredSeat& s) { return s.kind == "agent"; });
  if (agents_only && opts_.max_agent_games > 0) {
    int running = 0;
    for (auto& rm : rooms_snapshot()) {
      std::lock_guard rl(rm->mu);
      if (is_active(*rm) && std::all_of(rm->meta.seats.begin(), rm->meta.seats.end(),
                                        [](const StoredSeat& s) { return s.kind == "agent"; }))
        ++running;
    }
    if (running >= opts_.max_agent_games)
      return api_error(429, "too_many_agent_games",
                       "this server already runs " + std::to_string(running) +
                           " games between agents, its limit; stop one (its creator token may) or wait for "
                           "one to end");
  }
  for (auto& s : g.seats)
    if (s.kind == "human") s.token = random_hex(16);
  g.creator_token = random_hex(16);
  auto room = std::make_shared<Room>();
  room->game = game;
  auto st = game->new_state(scenario, seed);
  if (!st) return from_error(400, "bad_scenario", st.error());
  room->state = std::move(st).value();
  {
    std::lock_guard lock(rooms_mu_);
    do g.id = random_hex(6);
    while (rooms_.count(g.id) != 0);
  }
  room->meta = g;
  if (Status s = store_->create_game(g); !s.is_ok()) return from_error(503, "storage_failed", s.error());
  Json seats = Json::array();
  for (const auto& s : g.seats) {
    Json j{{"side", s.side}, {"name", sides[static_cast<size_t>(s.side)]}, {"kind", s.kind}};
    if (s.kind == "agent") j["agent"] = s.agent;
    if (!s.token.empty()) {
      j["token"] = s.token;
      j["join_path"] = "/play/" + g.id + "?token=" + s.token;
    }
    seats.push_back(std::move(j));
  }
  Json info;
  {
    std::lock_guard lock(rooms_mu_);
    rooms_[g.id] = room;
  }
  {
    std::lock_guard lock(room->mu);
    info = public_info(*room);
    RoomOps::schedule_agent(*this, room);
  }
  // The seed the server drew is not sent (it would tell every die roll to come); the game's
  // info carries its commitment, and its seed once the game is over. A seed the creator gave
  // is echoed.
  Json answer{{"game", info}, {"seats", seats}, {"creator_token", g.creator_token}};
  if (seed_from == "creator") answer["seed"] = seed;
  return ok(std::move(answer));
}

#define STEPPE_FIND_ROOM(id)                                                                    \
  auto room = find_room(id);                                                                    \
  if (room == nullptr) return api_error(404, "unknown_game", "no game with id '" + (id) + "'"); \
  std::unique_lock lock(room->mu);                                                              \
  Room& r = *room

#define STEPPE_SEAT(token)                   \
  const int side = side_for_token(r, token); \
  if (side < 0) return api_error(403, "bad_token", "this token is not a seat of game '" + r.meta.id + "'")

ApiResult Service::game_info(const std::string& id) {
  STEPPE_FIND_ROOM(id);
  return ok(Json{{"game", public_info(r)}});
}

ApiResult Service::game_map(const std::string& id) {
  STEPPE_FIND_ROOM(id);
  if (r.game == nullptr) return api_error(409, "unavailable", r.unavailable);
  return ok(Json{{"map", r.game->map_json()}});
}

ApiResult Service::view(const std::string& id, const std::string& token) {
  STEPPE_FIND_ROOM(id);
  STEPPE_SEAT(token);
  return with_view(ok(Json::object()), seat_view(r, side, opts_));
}

ApiResult Service::act(const std::string& id, const std::string& token, const std::string& action_text,
                       const std::string& idempotency_key) {
  if (idempotency_key.size() > 128 ||
      !std::all_of(idempotency_key.begin(), idempotency_key.end(), [](char c) { return c > ' ' && c < 127; }))
    return api_error(400, "bad_request", "an idempotency key is at most 128 printable ASCII characters");
  STEPPE_FIND_ROOM(id);
  STEPPE_SEAT(token);
  if (!idempotency_key.empty()) {
    // A retry of an action already in the log: answer as the first time, apply nothing.
    for (const auto& a : r.actions)
      if (a.side == side && a.key == idempotency_key)
        return with_view(ok(Json{{"action", a.text}, {"index", a.index}, {"replayed", true}}),
                         seat_view(r, side, opts_));
  }
  if (r.state == nullptr)
    return api_error(409, "unavailable", "this game cannot be played here: " + r.unavailable);
  if (r.meta.status != "active")
    return api_error(409, "game_over", "the game is over (" + r.meta.status + ")");
  if (r.state->current_player() != side) {
    const int p = r.state->current_player();
    return api_error(409, "not_your_turn",
                     "it is not " + side_name(r, side) + "'s turn: " +
                         (p >= 0 ? side_name(r, p) + " is to move" : std::string("nobody is to move")));
  }
  auto parsed = r.state->parse_action(action_text);
  if (!parsed) return from_error(400, "bad_action", parsed.error());
  ApiResult res = RoomOps::apply(*this, r, side, *parsed, idempotency_key);
  if (res.status != 200) return res;
  // The agent to move starts first, so that every view says it is thinking.
  RoomOps::schedule_agent(*this, room);
  RoomOps::SeatViews views;
  RoomOps::push_updates(*this, r, &views);
  return with_view(std::move(res), RoomOps::view_after(*this, r, side, views));
}

ApiResult Service::undo(const std::string& id, const std::string& token) {
  STEPPE_FIND_ROOM(id);
  STEPPE_SEAT(token);
  if (!can_undo(r, side)) {
    std::string why = "nothing to undo";
    if (!is_active(r))
      why = "the game is not active";
    else if (!r.actions.empty() && r.actions.back().side != side)
      why = "the last action was not " + side_name(r, side) + "'s";
    else if (!r.actions.empty())
      why = "the last action revealed information (a die roll or a hidden unit), so it cannot be taken back";
    return api_error(409, "cannot_undo", why);
  }
  const int last = r.actions.back().index;
  // Refused when another server instance appended to this game since this one last loaded it
  // (its action is kept; the player sees the game as it now is and may undo again).
  if (Status s = store_->truncate_actions(r.meta.id, last, static_cast<int>(r.actions.size())); !s.is_ok())
    return from_error(409, "game_changed", s.error());
  const StoredAction undone = r.actions.back();
  r.actions.pop_back();
  r.position_after = 0;  // the truncation may have taken the end-of-log position with it
  ++r.undos;
  if (Status s = RoomOps::rebuild(r); !s.is_ok()) {
    r.state.reset();
    r.unavailable = s.error().to_string();
    return from_error(500, "internal", s.error());
  }
  ++r.version;
  stop_agent(r);
  r.thinking = false;
  RoomOps::schedule_agent(*this, room);
  RoomOps::SeatViews views;
  RoomOps::push_updates(*this, r, &views);
  notify_idle(r);
  return with_view(ok(Json{{"undone", undone.text}}), RoomOps::view_after(*this, r, side, views));
}

ApiResult Service::resign(const std::string& id, const std::string& token) {
  STEPPE_FIND_ROOM(id);
  if (!token.empty() && token == r.meta.creator_token && side_for_token(r, token) < 0) {
    if (!is_active(r)) return api_error(409, "game_over", "the game is not active (" + r.meta.status + ")");
    const Json result{{"cancelled", "by its creator"}, {"turn_actions", r.actions.size()}};
    if (Status s = store_->set_status(r.meta.id, "cancelled", result); !s.is_ok())
      return from_error(503, "storage_failed", s.error());
    r.meta.status = "cancelled";
    r.meta.result = result;
    ++r.version;
    stop_agent(r);
    r.thinking = false;
    RoomOps::push_updates(*this, r);
    notify_idle(r);
    return ok(Json{{"game", public_info(r)}});
  }
  STEPPE_SEAT(token);
  if (!is_active(r)) return api_error(409, "game_over", "the game is not active (" + r.meta.status + ")");
  Json result{{"resigned", side_name(r, side)}, {"turn_actions", r.actions.size()}};
  if (r.meta.seats.size() == 2) result["winner"] = side_name(r, 1 - side);
  if (Status s = store_->set_status(r.meta.id, "resigned", result); !s.is_ok())
    return from_error(503, "storage_failed", s.error());
  r.meta.status = "resigned";
  r.meta.result = result;
  ++r.version;
  stop_agent(r);
  r.thinking = false;
  RoomOps::SeatViews views;
  RoomOps::push_updates(*this, r, &views);
  notify_idle(r);
  return with_view(ok(Json::object()), RoomOps::view_after(*this, r, side, views));
}

ApiResult Service::log(const std::string& id, const std::string& token, size_t since) {
  STEPPE_FIND_ROOM(id);
  STEPPE_SEAT(token);
  const auto& evs = side_events(r, side);
  // A `since` beyond the list, or one an undo took back, gets everything ("reset").
  const bool reset = !resumable(r, side, since);
  const size_t from = reset ? 0 : since;
  Json out = Json::array();
  for (size_t i = from; i < evs.size(); ++i) out.push_back(Json::parse(evs[i], nullptr, false));
  g_events_serialized.fetch_add(evs.size() - from, std::memory_order_relaxed);
  Json own = Json::array();
  for (const auto& a : r.actions)
    if (a.side == side) own.push_back({{"index", a.index}, {"text", a.text}});
  return ok(
      Json{{"events", out}, {"from", from}, {"reset", reset}, {"count", evs.size()}, {"own_actions", own}});
}

ApiResult Service::replay(const std::string& id, const std::string& token, int step) {
  Room scratch;
  int side = -1;
  {
    STEPPE_FIND_ROOM(id);
    const int s = side_for_token(r, token);
    if (s < 0) return api_error(403, "bad_token", "this token is not a seat of game '" + r.meta.id + "'");
    side = s;
    if (r.game == nullptr) return api_error(409, "unavailable", r.unavailable);
    if (step < 0 || static_cast<size_t>(step) > r.actions.size())
      return api_error(
          400, "bad_request",
          "step must be between 0 and " + std::to_string(r.actions.size()) + ", not " + std::to_string(step));
    scratch.meta = r.meta;
    scratch.game = r.game;
    scratch.actions.assign(r.actions.begin(), r.actions.begin() + step);
  }
  // Replayed outside the room's lock: a long replay never blocks the game.
  if (Status s = RoomOps::rebuild(scratch); !s.is_ok()) return from_error(500, "internal", s.error());
  Json evs = Json::array();
  size_t seq = 0;
  for (const auto& l : scratch.events) {
    if (!visible(l.event, side)) continue;
    ++seq;
    if (l.action_index == step - 1) evs.push_back(event_json(l, seq));
  }
  Json j{{"step", step},
         {"observation", scratch.state->observation(side)},
         {"events", evs},
         {"current_player", scratch.state->current_player()}};
  if (step > 0) {
    const auto& a = scratch.actions.back();
    j["action_side"] = a.side;
    // Another side's action text may carry what that side alone knows; only events tell.
    if (a.side == side) j["action"] = a.text;
  }
  return ok(std::move(j));
}

ApiResult Service::save(const std::string& id, const std::string& token) {
  STEPPE_FIND_ROOM(id);
  STEPPE_SEAT(token);
  (void)side;
  if (r.meta.status == "active")
    return api_error(
        409, "game_active",
        "the save is given when the game is over: it names the dice seed, which would tell every "
        "roll to come (docs/api.md, \"Verifiable dice\")");
  Json save = save_document(r);
  if (r.state != nullptr) save["final_hash"] = hash_to_hex(r.state->state_hash());
  save["dice"] = Json{{"game_id", r.meta.id},
                      {"commitment", dice_commitment(r.meta.id, r.meta.seed)},
                      {"seed_from", r.meta.seed_from}};
  save["result"] = r.meta.result;
  save["status"] = r.meta.status;
  return ok(Json{{"save", std::move(save)}});
}

ApiResult Service::timeline(const std::string& id, const std::string& token) {
  int viewer = -1;
  std::shared_ptr<const Game> game;
  StoredGame meta;
  std::vector<StoredAction> all;
  uint64_t undos = 0;
  std::shared_ptr<Room::Timeline> tl;
  // Losses per side up to each action, from the events this seat sees whose data carries
  // {"loss": {"side", "units", "steps"}} (BD's eliminations).
  std::map<int, std::map<std::string, std::pair<int, int>>> loss_at;  // action index -> side -> units, steps
  bool has_losses = false;
  {
    STEPPE_FIND_ROOM(id);
    const int s = side_for_token(r, token);
    if (s < 0) return api_error(403, "bad_token", "this token is not a seat of game '" + r.meta.id + "'");
    if (r.game == nullptr) return api_error(409, "unavailable", r.unavailable);
    viewer = s;
    game = r.game;
    meta = r.meta;
    all = r.actions;
    undos = r.undos;
    for (const auto& l : r.events) {
      if (!visible(l.event, viewer) || !l.event.data.is_object() || !l.event.data.contains("loss")) continue;
      const Json& x = l.event.data["loss"];
      if (!x.is_object() || !x.contains("side") || !x["side"].is_string()) continue;
      auto& cell = loss_at[l.action_index][x["side"].get<std::string>()];
      cell.first += x.value("units", 0);
      cell.second += x.value("steps", 0);
      has_losses = true;
    }
    auto& slot = r.timelines[s];
    if (!slot) slot = std::make_shared<Room::Timeline>();
    tl = slot;
  }
  std::lock_guard lock(tl->mu);
  // Each point is taken from the seat's observation only.
  auto point = [&](size_t step) {
    const Json o = tl->state->observation(viewer);
    Json p{{"step", step}};
    for (const char* k : {"turn", "phase", "vp"})
      if (o.is_object() && o.contains(k)) p[k] = o[k];
    if (tl->has_losses) {
      Json l = Json::object();
      for (const auto& [side, n] : tl->losses) l[side] = Json{{"units", n.first}, {"steps", n.second}};
      p["losses"] = std::move(l);
    }
    tl->points.push_back(std::move(p));
  };
  // Start again after an undo, and when the first loss appears (the points so far lack it).
  if (tl->state == nullptr || tl->undos != undos || tl->steps > all.size() || has_losses != tl->has_losses) {
    auto st = start_state(*game, meta);
    if (!st) return from_error(500, "internal", st.error());
    tl->state = std::move(st).value();
    tl->undos = undos;
    tl->steps = 0;
    tl->points = Json::array();
    tl->has_losses = has_losses;
    tl->losses.clear();
    if (has_losses)
      for (const auto& name : game->side_names()) {
        std::string lower = name;
        for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        tl->losses[lower] = {0, 0};
      }
    point(0);
  }
  for (size_t i = tl->steps; i < all.size(); ++i) {
    auto a = tl->state->parse_action(all[i].text);
    if (!a || !tl->state->apply(*a).is_ok()) {
      tl->state.reset();
      return api_error(500, "internal", "replay failed at action " + std::to_string(i));
    }
    if (auto it = loss_at.find(all[i].index); it != loss_at.end())
      for (const auto& [side, n] : it->second) {
        tl->losses[side].first += n.first;
        tl->losses[side].second += n.second;
      }
    tl->steps = i + 1;
    point(i + 1);
  }
  return ok(Json{{"points", tl->points}});
}

ApiResult Service::game_data(const std::string& game_id, const std::string& file) const {
  const CatalogEntry* e = find_title(game_id);
  if (e == nullptr) return api_error(404, "unknown_game", "no game '" + game_id + "' is installed");
  bool good = file.size() > 5 && file.size() < 64 && file.ends_with(".json");
  for (char c : file.substr(0, file.size() - 5))
    if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) ||
          c == '-'))
      good = false;
  if (!good)
    return api_error(400, "bad_request",
                     "a data file name is lower-case letters, digits and '-', ending in .json");
  if (opts_.data_dir.empty()) return api_error(404, "not_found", "this server has no data directory");
  const auto path = opts_.data_dir / game_id / file;
  std::ifstream in(path);
  if (!in) return api_error(404, "not_found", "no data file " + game_id + "/" + file);
  Json j = Json::parse(in, nullptr, false);
  if (j.is_discarded())
    return api_error(500, "internal", "data file " + game_id + "/" + file + " is not valid JSON");
  return ok(Json{{"data", std::move(j)}});
}

namespace {
// A seed for one determinization: a fresh sample per request, so that repeating a question
// never narrows down what is hidden.
uint64_t fresh_seed() {
  std::random_device rd;
  return (static_cast<uint64_t>(rd()) << 32) ^ rd();
}

// A query parameter a client names a unit or an action with: printable, of bounded length.
std::optional<ApiResult> bad_parameter(const std::string& name, const std::string& value) {
  if (value.empty()) return api_error(400, "bad_request", "parameter '" + name + "' is required");
  if (value.size() > 512) return api_error(400, "bad_request", "parameter '" + name + "' is too long");
  return std::nullopt;
}
}  // namespace

// Takes the seat's determinized copy of the game under the room's lock and answers from it
// without the lock: a preview or a reach search never blocks the game.
#define STEPPE_SEAT_COPY(id, token)                                                                        \
  std::unique_ptr<State> copy;                                                                             \
  int side = -1;                                                                                           \
  {                                                                                                        \
    STEPPE_FIND_ROOM(id);                                                                                  \
    const int s = side_for_token(r, token);                                                                \
    if (s < 0) return api_error(403, "bad_token", "this token is not a seat of game '" + r.meta.id + "'"); \
    if (r.state == nullptr) return api_error(409, "unavailable", r.unavailable);                           \
    side = s;                                                                                              \
    copy = r.state->clone();                                                                               \
  }                                                                                                        \
  copy->resample_hidden(side, fresh_seed())

ApiResult Service::preview(const std::string& id, const std::string& token, const std::string& action_text) {
  if (auto bad = bad_parameter("action", action_text)) return *bad;
  STEPPE_SEAT_COPY(id, token);
  // Parsed on the sample too: whether a text names something hidden is not told by the
  // real state.
  auto parsed = copy->parse_action(action_text);
  if (!parsed) return from_error(400, "bad_action", parsed.error());
  auto p = copy->preview(*parsed, side);
  if (!p) return from_error(422, "preview_refused", p.error());
  return ok(Json{{"preview", to_json(*p)}});
}

ApiResult Service::reach(const std::string& id, const std::string& token, const std::string& unit) {
  if (auto bad = bad_parameter("unit", unit)) return *bad;
  STEPPE_SEAT_COPY(id, token);
  auto res = copy->reach(unit, side);
  if (!res) return from_error(422, "preview_refused", res.error());
  return ok(Json{{"reach", to_json(*res)}});
}

#undef STEPPE_SEAT_COPY

ApiResult Service::unit_actions(const std::string& id, const std::string& token, const std::string& unit) {
  if (auto bad = bad_parameter("unit", unit)) return *bad;
  STEPPE_FIND_ROOM(id);
  STEPPE_SEAT(token);
  if (r.state == nullptr) return api_error(409, "unavailable", r.unavailable);
  // Legal actions are the side to move's: another seat has none (as in its view).
  Json list = Json::array();
  if (is_active(r) && r.state->current_player() == side) {
    std::vector<Action> acts;
    r.state->legal_actions_for(unit, acts);
    for (const Action& a : acts) list.push_back(described(*r.state, a));
  }
  return ok(Json{{"unit", unit}, {"actions", std::move(list)}});
}

ApiResult Service::agent_control(const std::string& id, const std::string& token,
                                 const std::string& command) {
  STEPPE_FIND_ROOM(id);
  STEPPE_SEAT(token);
  (void)side;
  if (command == "cancel") {
    if (!r.thinking) return api_error(409, "not_thinking", "no agent is thinking in this game");
    stop_agent(r);
    r.thinking = false;
    r.agent_paused = true;
  } else if (command == "resume") {
    r.agent_paused = false;
    r.agent_error.clear();
    RoomOps::schedule_agent(*this, room);
  } else {
    return api_error(400, "bad_request", "command must be 'cancel' or 'resume', not '" + command + "'");
  }
  RoomOps::push_updates(*this, r);
  notify_idle(r);
  return ok(Json{{"agent", agent_json(r)}});
}

ApiResult Service::debug_hash(const std::string& id) {
  if (!opts_.debug_state)
    return api_error(404, "not_found", "debug endpoints are disabled (serve --debug-state)");
  STEPPE_FIND_ROOM(id);
  if (r.state == nullptr) return api_error(409, "unavailable", r.unavailable);
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(r.state->state_hash()));
  return ok(Json{{"state_hash", buf}, {"actions_count", r.actions.size()}});
}

Service::Subscription Service::subscribe(const std::string& id, const std::string& token, Push push,
                                         size_t since) {
  auto room = find_room(id);
  // As before: a socket's refusal names no more than "bad_token" (the message says which).
  if (room == nullptr) return {0, api_error(403, "bad_token", "no game with id '" + id + "'")};
  std::lock_guard lock(room->mu);
  const int side = side_for_token(*room, token);
  if (side < 0) return {0, api_error(403, "bad_token", "this token is not a seat of game '" + id + "'")};
  const auto same_seat = std::count_if(room->subs.begin(), room->subs.end(),
                                       [side](const auto& kv) { return kv.second.side == side; });
  if (same_seat >= opts_.max_subscriptions_per_seat)
    return {0, api_error(429, "too_many_subscriptions",
                         "this seat already has " + std::to_string(same_seat) +
                             " open sockets, the limit; close one before opening another")};
  const int sub = next_sub_++;
  room->subs[sub] = Room::Sub{side, std::move(push), 0, 0};
  // The first message: the whole view and the events after `since` (a reconnecting
  // client's last seq), or all of them ("reset") when it has none or they cannot follow.
  auto& s = room->subs[sub];
  const bool reset = since == kNoEvents || !resumable(*room, side, since);
  s.push(std::make_shared<const std::string>(
      update_text(*room, side, reset ? 0 : since, reset, *seat_view(*room, side, opts_))));
  s.sent = side_events(*room, side).size();
  s.cuts_seen = cuts_of(*room, side);
  return {sub, {}};
}

void Service::unsubscribe(const std::string& id, int subscription) {
  auto room = find_room(id);
  if (room == nullptr) return;
  std::lock_guard lock(room->mu);
  room->subs.erase(subscription);
}

uint64_t Service::events_serialized() { return g_events_serialized.load(); }

bool Service::wait_idle(const std::string& id, int timeout_ms) {
  auto room = find_room(id);
  if (room == nullptr) return false;
  std::unique_lock lock(room->mu);
  return room->idle_cv.wait_for(lock, std::chrono::milliseconds(timeout_ms), [&] { return !room->thinking; });
}

}  // namespace steppe::server
