// PostgreSQL backend of GameStore, for several server instances sharing one database
// (docs/deploy.md). Every change is one transaction that also sends a NOTIFY on channel
// steppe_games with "<instance tag> <game id>"; the other instances LISTEN and reload that
// game. An append locks the game's row (SELECT ... FOR UPDATE) and checks that the index is
// the next one, so two instances can never both append action N: the second is refused and
// catches up (service.cpp, RoomOps::catch_up).
#include <atomic>
#include <chrono>
#include <mutex>
#include <pqxx/pqxx>
#include <random>
#include <thread>

#include "server/store.h"

namespace steppe::server {
namespace {

constexpr const char* kChannel = "steppe_games";
// Taken (transaction-scoped) while creating or migrating the schema, so that instances
// starting together do not migrate twice: 'STPP'.
constexpr int64_t kSchemaLockKey = 0x53545050;

// Forward migrations: kPgMigrations[v] takes the schema from version v to v + 1.
const char* const kPgMigrations[] = {
    // 0 -> 1: games and their action logs (the SQLite schema version 2, in PostgreSQL types).
    "CREATE TABLE games ("
    "  id TEXT PRIMARY KEY,"
    "  game TEXT NOT NULL,"
    "  scenario TEXT NOT NULL,"
    "  seed BIGINT NOT NULL,"  // uint64 stored bit-for-bit as int64
    "  rules_hash TEXT NOT NULL,"
    "  seats TEXT NOT NULL,"  // JSON array of {side, kind, agent, token}
    "  created TEXT NOT NULL,"
    "  status TEXT NOT NULL,"
    "  result TEXT);"
    "CREATE TABLE actions ("
    "  game_id TEXT NOT NULL REFERENCES games(id),"
    "  idx INTEGER NOT NULL,"
    "  side INTEGER NOT NULL,"
    "  action TEXT NOT NULL,"
    "  accepted TIMESTAMPTZ NOT NULL DEFAULT now(),"
    "  PRIMARY KEY (game_id, idx));",
    // 1 -> 2: the creator's token of a game, the client's idempotency key of an action (as
    // the SQLite schema's 2 -> 3).
    "ALTER TABLE games ADD COLUMN creator_token TEXT;"
    "ALTER TABLE actions ADD COLUMN idempotency_key TEXT;",
    // 2 -> 3 (issue 29): positions beside the log, a migrated game's start, history and
    // upgrade reports (as the SQLite schema's 3 -> 4).
    "ALTER TABLE games ADD COLUMN engine_version TEXT NOT NULL DEFAULT '0.1.0';"
    "ALTER TABLE games ADD COLUMN start_position TEXT;"
    "ALTER TABLE games ADD COLUMN history TEXT;"
    "ALTER TABLE games ADD COLUMN migrations TEXT;"
    "CREATE TABLE positions ("
    "  game_id TEXT NOT NULL REFERENCES games(id),"
    "  after_actions INTEGER NOT NULL,"
    "  turn INTEGER NOT NULL,"
    "  turn_start BOOLEAN NOT NULL,"
    "  position TEXT NOT NULL,"
    "  PRIMARY KEY (game_id, after_actions));",
    // 3 -> 4: who chose the dice seed (as the SQLite schema's 4 -> 5).
    "ALTER TABLE games ADD COLUMN seed_from TEXT NOT NULL DEFAULT 'unknown';",
};
static_assert(std::size(kPgMigrations) == kPostgresSchemaVersion);

std::string random_tag() {
  std::random_device rd;
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (int i = 0; i < 12; ++i) s += digits[rd() & 15u];
  return s;
}

// The URL without its password, for messages and /api/health.
std::string redact(const std::string& url) {
  const auto scheme = url.find("://");
  if (scheme == std::string::npos) return url;
  const auto at = url.find('@', scheme + 3);
  if (at == std::string::npos) return url;
  const auto colon = url.find(':', scheme + 3);
  if (colon == std::string::npos || colon > at) return url;
  return url.substr(0, colon) + ":***" + url.substr(at);
}

StoredGame game_from_row(const pqxx::row& row) {
  StoredGame g;
  g.id = row[0].as<std::string>();
  g.game = row[1].as<std::string>();
  g.scenario = row[2].as<std::string>();
  g.seed = static_cast<uint64_t>(row[3].as<int64_t>());
  g.rules_hash = row[4].as<std::string>();
  g.seats = seats_from_json(Json::parse(row[5].as<std::string>(), nullptr, false));
  g.created = row[6].as<std::string>();
  g.status = row[7].as<std::string>();
  g.result = row[8].is_null() ? Json() : Json::parse(row[8].as<std::string>(), nullptr, false);
  g.creator_token = row[9].is_null() ? std::string() : row[9].as<std::string>();
  g.engine_version = row[10].as<std::string>();
  g.start_position = row[11].is_null() ? Json() : Json::parse(row[11].as<std::string>(), nullptr, false);
  g.history = row[12].is_null() ? std::vector<std::string>()
                                : history_from_json(Json::parse(row[12].as<std::string>(), nullptr, false));
  g.migrations = row[13].is_null() ? Json::array() : Json::parse(row[13].as<std::string>(), nullptr, false);
  if (!g.migrations.is_array()) g.migrations = Json::array();
  g.seed_from = row[14].as<std::string>();
  return g;
}

// Calls the store's watcher for every NOTIFY of another instance.
class Receiver final : public pqxx::notification_receiver {
 public:
  Receiver(pqxx::connection_base& c, std::string own_tag, std::function<void(const std::string&)>& changed)
      : pqxx::notification_receiver(c, kChannel), own_tag_(std::move(own_tag)), changed_(changed) {}
  void operator()(const std::string& payload, int backend_pid) override {
    (void)backend_pid;
    const auto sp = payload.find(' ');
    if (sp == std::string::npos || payload.compare(0, sp, own_tag_) == 0) return;
    changed_(payload.substr(sp + 1));
  }

 private:
  std::string own_tag_;
  std::function<void(const std::string&)>& changed_;
};

class PostgresStore final : public GameStore {
 public:
  PostgresStore(std::string url, std::unique_ptr<pqxx::connection> conn)
      : url_(std::move(url)), conn_(std::move(conn)), tag_(random_tag()) {}
  ~PostgresStore() override { stop_watching(); }

  std::string describe() const override { return redact(url_); }
  bool shared() const override { return true; }

  Status create_game(const StoredGame& g) override {
    return run("insert game '" + g.id + "'", [&](pqxx::work& w) -> Status {
      w.exec_params(
          "INSERT INTO games(id, game, scenario, seed, rules_hash, seats, created, status, result, "
          "creator_token, engine_version, start_position, history, migrations, seed_from) "
          "VALUES ($1,$2,$3,$4,$5,$6,$7,$8,NULLIF($9,''),NULLIF($10,''),$11,NULLIF($12,''),$13,$14,$15)",
          g.id, g.game, g.scenario, static_cast<int64_t>(g.seed), g.rules_hash, seats_to_json(g.seats).dump(),
          g.created.empty() ? now_iso() : g.created, g.status,
          g.result.is_null() ? std::string() : g.result.dump(), g.creator_token, g.engine_version,
          g.start_position.is_null() ? std::string() : g.start_position.dump(), Json(g.history).dump(),
          g.migrations.dump(), g.seed_from);
      notify(w, g.id);
      return Status::ok();
    });
  }

  Result<std::vector<StoredGame>> list_games() override {
    std::vector<StoredGame> out;
    Status s = run("read games", [&](pqxx::work& w) -> Status {
      for (const auto& row : w.exec(std::string(kSelectGames) + " ORDER BY created, id"))
        out.push_back(game_from_row(row));
      return Status::ok();
    });
    if (!s.is_ok()) return s.error();
    return out;
  }

  Result<std::optional<StoredGame>> find_game(const std::string& id) override {
    std::optional<StoredGame> out;
    Status s = run("read game '" + id + "'", [&](pqxx::work& w) -> Status {
      const auto r = w.exec_params(std::string(kSelectGames) + " WHERE id = $1", id);
      if (!r.empty()) out = game_from_row(r[0]);
      return Status::ok();
    });
    if (!s.is_ok()) return s.error();
    return out;
  }

  Result<std::vector<StoredAction>> actions(const std::string& id) override {
    std::vector<StoredAction> out;
    Status s = run("read actions of game '" + id + "'", [&](pqxx::work& w) -> Status {
      for (const auto& row : w.exec_params(
               "SELECT idx, side, action, idempotency_key FROM actions WHERE game_id = $1 ORDER BY idx", id))
        out.push_back({row[0].as<int>(), row[1].as<int>(), row[2].as<std::string>(),
                       row[3].is_null() ? std::string() : row[3].as<std::string>()});
      return Status::ok();
    });
    if (!s.is_ok()) return s.error();
    return out;
  }

  Result<bool> put_end_position(const std::string& id, const StoredPosition& p) override {
    bool written = false;
    Status s = run("write a position of game '" + id + "'", [&](pqxx::work& w) -> Status {
      // Under the game's row lock, as an append: the count cannot change meanwhile.
      if (w.exec_params("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", id).empty())
        return Error{"unknown game '" + id + "'", "", describe()};
      const auto n = w.exec_params("SELECT count(*) FROM actions WHERE game_id = $1", id)[0][0].as<int64_t>();
      written = n == p.after;
      if (written) {
        w.exec_params("DELETE FROM positions WHERE game_id = $1 AND NOT turn_start", id);
        put_position(w, id, StoredPosition{p.after, p.turn, false, p.position});
      }
      return Status::ok();
    });
    if (!s.is_ok()) return s.error();
    return written;
  }

  Status append_action(const std::string& id, const StoredAction& a,
                       const StoredPosition* position) override {
    return run("append action " + std::to_string(a.index) + " to game '" + id + "'",
               [&](pqxx::work& w) -> Status {
                 // The game's row lock: another instance appending to this game waits here until we
                 // commit, then sees our action in its count and is refused.
                 if (w.exec_params("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", id).empty())
                   return Error{"unknown game '" + id + "'", "", describe()};
                 const auto n =
                     w.exec_params("SELECT count(*) FROM actions WHERE game_id = $1", id)[0][0].as<int64_t>();
                 if (n != a.index)
                   return Error{"action " + std::to_string(a.index) + " is not the next action of game '" +
                                    id + "' (it has " + std::to_string(n) + ")",
                                "", describe()};
                 w.exec_params(
                     "INSERT INTO actions(game_id, idx, side, action, idempotency_key) VALUES "
                     "($1,$2,$3,$4,NULLIF($5,''))",
                     id, a.index, a.side, a.text, a.key);
                 if (position != nullptr) {
                   w.exec_params("DELETE FROM positions WHERE game_id = $1 AND NOT turn_start", id);
                   put_position(w, id, *position);
                 }
                 notify(w, id);
                 return Status::ok();
               });
  }

  Result<std::vector<StoredPosition>> positions(const std::string& id) override {
    std::vector<StoredPosition> out;
    Status s = run("read positions of game '" + id + "'", [&](pqxx::work& w) -> Status {
      for (const auto& row : w.exec_params("SELECT after_actions, turn, turn_start, position FROM positions "
                                           "WHERE game_id = $1 ORDER BY after_actions",
                                           id))
        out.push_back({row[0].as<int>(), row[1].as<int>(), row[2].as<bool>(),
                       Json::parse(row[3].as<std::string>(), nullptr, false)});
      return Status::ok();
    });
    if (!s.is_ok()) return s.error();
    return out;
  }

  Status migrate_game(const std::string& id, const StoredMigration& m, int migrations_seen,
                      int actions_seen) override {
    return run("migrate game '" + id + "'", [&](pqxx::work& w) -> Status {
      // The game's row lock, as append_action takes it.
      const auto row = w.exec_params("SELECT migrations FROM games WHERE id = $1 FOR UPDATE", id);
      if (row.empty()) return Error{"unknown game '" + id + "'", "", describe()};
      const Json had =
          row[0][0].is_null() ? Json::array() : Json::parse(row[0][0].as<std::string>(), nullptr, false);
      const auto n = w.exec_params("SELECT count(*) FROM actions WHERE game_id = $1", id)[0][0].as<int64_t>();
      if ((had.is_array() ? static_cast<int>(had.size()) : 0) != migrations_seen || n != actions_seen)
        return Error{
            "game '" + id + "' changed since it was read (another server instance migrated or played it)", "",
            describe()};
      w.exec_params(
          "UPDATE games SET rules_hash = $1, engine_version = $2, start_position = NULLIF($3,''), history = "
          "$4, "
          "migrations = $5 WHERE id = $6",
          m.rules_hash, m.engine_version,
          m.start_position.is_null() ? std::string() : m.start_position.dump(), Json(m.history).dump(),
          m.migrations.dump(), id);
      w.exec_params("DELETE FROM positions WHERE game_id = $1", id);
      w.exec_params("DELETE FROM actions WHERE game_id = $1", id);
      for (const auto& a : m.actions)
        w.exec_params(
            "INSERT INTO actions(game_id, idx, side, action, idempotency_key) VALUES "
            "($1,$2,$3,$4,NULLIF($5,''))",
            id, a.index, a.side, a.text, a.key);
      for (const auto& p : m.positions) put_position(w, id, p);
      notify(w, id);
      return Status::ok();
    });
  }

  Status truncate_actions(const std::string& id, int from_index, int count_seen) override {
    return run("truncate actions of game '" + id + "'", [&](pqxx::work& w) -> Status {
      // The game's row lock, as append_action takes it: an append of another instance either
      // committed before (and is counted here) or waits until this undo is done.
      if (w.exec_params("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", id).empty())
        return Error{"unknown game '" + id + "'", "", describe()};
      const auto n = w.exec_params("SELECT count(*) FROM actions WHERE game_id = $1", id)[0][0].as<int64_t>();
      if (n != count_seen)
        return Error{"game '" + id + "' has " + std::to_string(n) + " actions, not the " +
                         std::to_string(count_seen) + " the undo was decided on",
                     "", describe()};
      w.exec_params("DELETE FROM positions WHERE game_id = $1 AND after_actions > $2", id, from_index);
      w.exec_params("DELETE FROM actions WHERE game_id = $1 AND idx >= $2", id, from_index);
      notify(w, id);
      return Status::ok();
    });
  }

  Status set_status(const std::string& id, const std::string& status, const Json& result) override {
    return run("update status of game '" + id + "'", [&](pqxx::work& w) -> Status {
      const auto r = w.exec_params("UPDATE games SET status = $1, result = NULLIF($2,'') WHERE id = $3",
                                   status, result.is_null() ? std::string() : result.dump(), id);
      if (r.affected_rows() != 1) return Error{"unknown game '" + id + "'", "", describe()};
      notify(w, id);
      return Status::ok();
    });
  }

  Status watch(const std::function<void(const std::string&)>& changed) override {
    stop_watching();
    changed_ = changed;
    stop_ = false;
    // LISTEN is active when watch returns: no change committed after it is missed.
    std::unique_ptr<pqxx::connection> c;
    std::unique_ptr<Receiver> rcv;
    try {
      c = std::make_unique<pqxx::connection>(url_);
      rcv = std::make_unique<Receiver>(*c, tag_, changed_);
    } catch (const std::exception& e) {
      return Error{std::string("cannot LISTEN for other instances' changes: ") + e.what(), "", describe()};
    }
    listener_ = std::thread(
        [this, c = std::move(c), rcv = std::move(rcv)]() mutable { listen(std::move(c), std::move(rcv)); });
    return Status::ok();
  }

  void stop_watching() override {
    stop_ = true;
    if (listener_.joinable()) listener_.join();
  }

 private:
  static constexpr const char* kSelectGames =
      "SELECT id, game, scenario, seed, rules_hash, seats, created, status, result, creator_token, "
      "engine_version, start_position, history, migrations, seed_from FROM games";

  static void put_position(pqxx::work& w, const std::string& id, const StoredPosition& p) {
    w.exec_params(
        "INSERT INTO positions(game_id, after_actions, turn, turn_start, position) VALUES ($1,$2,$3,$4,$5) "
        "ON CONFLICT (game_id, after_actions) DO UPDATE SET turn = EXCLUDED.turn, turn_start = "
        "EXCLUDED.turn_start, position = EXCLUDED.position",
        id, p.after, p.turn, p.turn_start, p.position.dump());
  }

  // Runs `body` in one transaction on the store's connection (reconnecting once if the
  // connection was lost) and commits when it returns ok; rolls back otherwise.
  Status run(const std::string& what, const std::function<Status(pqxx::work&)>& body) {
    std::lock_guard lock(mu_);
    for (int attempt = 0;; ++attempt) {
      try {
        if (conn_ == nullptr) conn_ = std::make_unique<pqxx::connection>(url_);
        pqxx::work w(*conn_);
        Status s = body(w);
        if (!s.is_ok()) return s;  // the work's destructor rolls back
        w.commit();
        return Status::ok();
      } catch (const pqxx::in_doubt_error& e) {
        conn_.reset();
        return Error{
            "database error during " + what + " (the commit may or may not have happened): " + e.what(), "",
            describe()};
      } catch (const pqxx::broken_connection& e) {
        conn_.reset();
        if (attempt == 0) continue;
        return Error{"database connection lost during " + what + ": " + e.what(), "", describe()};
      } catch (const std::exception& e) {
        return Error{"database error during " + what + ": " + e.what(), "", describe()};
      }
    }
  }

  void notify(pqxx::work& w, const std::string& id) {
    w.exec_params("SELECT pg_notify($1, $2)", kChannel, tag_ + " " + id);
  }

  // The listener thread: waits for notifications; when the connection breaks, reconnects
  // and reports "anything may have changed" (empty id), since notifications were lost.
  void listen(std::unique_ptr<pqxx::connection> c, std::unique_ptr<Receiver> rcv) {
    while (!stop_) {
      try {
        if (c == nullptr) {
          c = std::make_unique<pqxx::connection>(url_);
          rcv = std::make_unique<Receiver>(*c, tag_, changed_);
          changed_("");
        }
        c->await_notification(0, 200000);
      } catch (const std::exception&) {
        rcv.reset();
        c.reset();
        for (int i = 0; i < 5 && !stop_; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
    }
    rcv.reset();
  }

  std::string url_;
  std::mutex mu_;
  std::unique_ptr<pqxx::connection> conn_;
  std::string tag_;  // this store's mark on its own notifications
  std::function<void(const std::string&)> changed_;
  std::atomic<bool> stop_{false};
  std::thread listener_;
};

}  // namespace

bool is_postgres_url(const std::string& s) {
  return s.starts_with("postgresql://") || s.starts_with("postgres://");
}

Result<std::unique_ptr<GameStore>> open_postgres_store(const std::string& url) {
  const std::string where = redact(url);
  std::unique_ptr<pqxx::connection> conn;
  try {
    conn = std::make_unique<pqxx::connection>(url);
  } catch (const std::exception& e) {
    return Error{std::string("cannot connect to the database: ") + e.what(), "", where};
  }
  try {
    pqxx::work w(*conn);
    w.exec_params("SELECT pg_advisory_xact_lock($1)", kSchemaLockKey);
    const bool has_version_table = !w.exec("SELECT to_regclass('steppe_schema')")[0][0].is_null();
    int version = 0;
    if (has_version_table) {
      const auto r = w.exec("SELECT version FROM steppe_schema");
      if (r.size() != 1)
        return Error{"table steppe_schema must have exactly one row; refusing to touch it", "", where};
      version = r[0][0].as<int>();
    } else if (!w.exec("SELECT to_regclass('games')")[0][0].is_null()) {
      return Error{
          "the database has a table 'games' that Steppe did not create (no steppe_schema); refusing to touch "
          "it",
          "", where};
    }
    if (version > kPostgresSchemaVersion)
      return Error{"the database has schema version " + std::to_string(version) +
                       ", newer than this build of Steppe understands (" +
                       std::to_string(kPostgresSchemaVersion) + "); upgrade Steppe or use another --database",
                   "", where};
    if (!has_version_table)
      w.exec("CREATE TABLE steppe_schema (version INTEGER NOT NULL); INSERT INTO steppe_schema VALUES (0)");
    for (int v = version; v < kPostgresSchemaVersion; ++v) {
      w.exec(kPgMigrations[v]);
      w.exec_params("UPDATE steppe_schema SET version = $1", v + 1);
    }
    w.commit();
  } catch (const std::exception& e) {
    return Error{std::string("cannot create or migrate the schema: ") + e.what(), "", where};
  }
  return std::unique_ptr<GameStore>(std::make_unique<PostgresStore>(url, std::move(conn)));
}

}  // namespace steppe::server
