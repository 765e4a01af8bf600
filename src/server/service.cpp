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
#include "server/room.h"

namespace steppe::server {

using namespace detail;

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
