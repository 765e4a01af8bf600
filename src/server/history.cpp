// A game's history as the API serves it: a side's log, a replay step, the save document,
// the timeline.
#include "server/room.h"

namespace steppe::server {

using namespace detail;

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

}  // namespace steppe::server
