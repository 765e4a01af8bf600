// The operations on one room that need the service: pushing updates, storing, replaying,
// applying an action, catching up with other instances, loading and upgrading a stored game,
// scheduling the agent.
#include "server/room.h"

namespace steppe::server {

using namespace detail;

void RoomOps::push_updates(Service& svc, Service::Room& r, SeatViews* views) {
  SeatViews local;
  auto& built_views = views != nullptr ? *views : local;
  std::map<std::pair<int, size_t>, std::shared_ptr<const std::string>> built;
  for (auto& [id, sub] : r.subs) {
    (void)id;
    const bool reset = !resumable(r, sub.side, sub.sent, sub.cuts_seen);
    auto& msg_text = built[{sub.side, reset ? SIZE_MAX : sub.sent}];
    if (msg_text == nullptr) {
      auto v = built_views.find(sub.side);
      if (v == built_views.end()) v = built_views.emplace(sub.side, seat_view(r, sub.side, svc.opts_)).first;
      msg_text = std::make_shared<const std::string>(
          update_text(r, sub.side, reset ? 0 : sub.sent, reset, *v->second));
    }
    sub.sent = side_events(r, sub.side).size();
    sub.cuts_seen = cuts_of(r, sub.side);
    sub.push(msg_text);
  }
}

void RoomOps::store_end_position(Service& svc, Service::Room& r) {
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

std::shared_ptr<const std::string> RoomOps::view_after(Service& svc, Service::Room& r, int side,
                                                       SeatViews& views) {
  auto it = views.find(side);
  return it != views.end() ? it->second : seat_view(r, side, svc.opts_);
}

Status RoomOps::rebuild(Service::Room& r) {
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

ApiResult RoomOps::apply(Service& svc, Service::Room& r, int side, const Action& a,
                         const std::string& idempotency_key, bool retried) {
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
  if (Status s = svc.store_->append_action(r.meta.id, stored, position ? &*position : nullptr); !s.is_ok()) {
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

bool RoomOps::catch_up(Service& svc, Service::Room& r) {
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

ApiResult RoomOps::retry_after_catch_up(Service& svc, Service::Room& r, int side, const std::string& text,
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

std::shared_ptr<Service::Room> RoomOps::load(Service& svc, const StoredGame& g, bool* resumed) {
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

Status RoomOps::migrate(Service& svc, Service::Room& r) {
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
      sm.positions.push_back(StoredPosition{static_cast<int>(match.size()), match.state().game_turn(), false,
                                            std::move(doc).value()});
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

void RoomOps::on_store_changed(Service& svc, const std::string& id) {
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

void RoomOps::schedule_agent(Service& svc, const std::shared_ptr<Service::Room>& room) {
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

}  // namespace steppe::server
