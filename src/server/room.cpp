#include "server/room.h"

namespace steppe::server::detail {

int default_agent_threads() { return std::max(2, static_cast<int>(std::thread::hardware_concurrency())); }

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

const std::vector<std::string>& side_events(const Service::Room& r, int side) {
  static const std::vector<std::string> none;
  return side >= 0 && static_cast<size_t>(side) < r.side_logs.size()
             ? r.side_logs[static_cast<size_t>(side)].events
             : none;
}

bool resumable(const Service::Room& r, int side, size_t seq, size_t cuts_from) {
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

Json dice_json(const Service::Room& r) {
  Json d{{"commitment", dice_commitment(r.meta.id, r.meta.seed)}, {"seed_from", r.meta.seed_from}};
  // As decimal text: a browser's JSON numbers cannot hold 64 bits.
  if (r.meta.status != "active") d["seed"] = std::to_string(r.meta.seed);
  return d;
}

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

ActionDescription description(const State& st, const Action& a) {
  auto d = st.describe(a);
  if (d) return std::move(d).value();
  ActionDescription plain;
  plain.text = st.action_to_string(a);
  plain.verb = plain.text.substr(0, plain.text.find(' '));
  plain.summary = plain.text;
  return plain;
}

Json described(const State& st, const Action& a) {
  const ActionDescription d = description(st, a);
  Json j = to_json(d);
  j["words"] = split_words(d.text);
  return j;
}

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

void stop_agent(Service::Room& r) {
  ++r.agent_job;
  if (r.job != nullptr) r.job->stop.store(true);
  r.job.reset();
}

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

Result<std::unique_ptr<State>> start_state(const Game& game, const StoredGame& meta) {
  if (meta.start_position.is_null()) return game.new_state(meta.scenario, meta.seed);
  return state_from_position_document(game, meta.start_position, "game " + meta.id + ": start position");
}

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

}  // namespace steppe::server::detail
