// SQLite backend of GameStore. One connection, serialised by a mutex; WAL journal with
// synchronous=FULL so that a commit that returned is on disk before the server answers.
#include <sqlite3.h>

#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <vector>

#include "server/store.h"

namespace steppe::server {
namespace {

// 'STPP': marks the file as a Steppe database, so that opening some other SQLite file by
// mistake is refused instead of being "migrated".
constexpr int kApplicationId = 0x53545050;

// Forward migrations: kMigrations[v] takes a database from user_version v to v + 1.
const char* const kMigrations[] = {
    // 0 -> 1: games and their action logs.
    "CREATE TABLE games ("
    "  id TEXT PRIMARY KEY,"
    "  game TEXT NOT NULL,"
    "  scenario TEXT NOT NULL,"
    "  seed INTEGER NOT NULL,"  // uint64 stored bit-for-bit as int64
    "  rules_hash TEXT NOT NULL,"
    "  seats TEXT NOT NULL,"  // JSON array of {side, kind, agent, token}
    "  created TEXT NOT NULL,"
    "  status TEXT NOT NULL);"
    "CREATE TABLE actions ("
    "  game_id TEXT NOT NULL REFERENCES games(id),"
    "  idx INTEGER NOT NULL,"
    "  side INTEGER NOT NULL,"
    "  action TEXT NOT NULL,"
    "  PRIMARY KEY (game_id, idx));",
    // 1 -> 2: the result of a finished game, and when each action was accepted.
    "ALTER TABLE games ADD COLUMN result TEXT;"
    "ALTER TABLE actions ADD COLUMN accepted TEXT;",
    // 2 -> 3: the creator's token of a game, the client's idempotency key of an action.
    "ALTER TABLE games ADD COLUMN creator_token TEXT;"
    "ALTER TABLE actions ADD COLUMN idempotency_key TEXT;",
    // 3 -> 4 (issue 29): positions beside the log; a game continued under a new engine
    // starts at a position, keeps the actions before it as history and its upgrade reports.
    // Games stored before were all written by Steppe 0.1.0.
    "ALTER TABLE games ADD COLUMN engine_version TEXT NOT NULL DEFAULT '0.1.0';"
    "ALTER TABLE games ADD COLUMN start_position TEXT;"
    "ALTER TABLE games ADD COLUMN history TEXT;"
    "ALTER TABLE games ADD COLUMN migrations TEXT;"
    "CREATE TABLE positions ("
    "  game_id TEXT NOT NULL REFERENCES games(id),"
    "  after_actions INTEGER NOT NULL,"
    "  turn INTEGER NOT NULL,"
    "  turn_start INTEGER NOT NULL,"
    "  position TEXT NOT NULL,"
    "  PRIMARY KEY (game_id, after_actions));",
    // 4 -> 5: who chose the dice seed (the dice commitment, docs/api.md). Games stored
    // before: "unknown" (the create answer sent their seed to the creator).
    "ALTER TABLE games ADD COLUMN seed_from TEXT NOT NULL DEFAULT 'unknown';",
};
static_assert(std::size(kMigrations) == kStoreSchemaVersion);

// RAII prepared statement.
class Stmt {
 public:
  Stmt(sqlite3* db, const char* sql) { rc_ = sqlite3_prepare_v2(db, sql, -1, &s_, nullptr); }
  ~Stmt() { sqlite3_finalize(s_); }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;
  bool ok() const { return rc_ == SQLITE_OK; }
  void bind(int i, const std::string& v) {
    sqlite3_bind_text(s_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
  }
  void bind(int i, int64_t v) { sqlite3_bind_int64(s_, i, v); }
  void bind_null(int i) { sqlite3_bind_null(s_, i); }
  int step() { return sqlite3_step(s_); }
  std::string text(int col) const {
    const auto* p = sqlite3_column_text(s_, col);
    return p == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(p));
  }
  int64_t int64(int col) const { return sqlite3_column_int64(s_, col); }
  bool is_null(int col) const { return sqlite3_column_type(s_, col) == SQLITE_NULL; }

 private:
  sqlite3_stmt* s_ = nullptr;
  int rc_ = SQLITE_ERROR;
};

class SqliteStore final : public GameStore {
 public:
  SqliteStore(sqlite3* db, std::filesystem::path path) : db_(db), path_(std::move(path)) {}
  ~SqliteStore() override { sqlite3_close(db_); }

  std::string describe() const override { return "sqlite:" + path_.string(); }

  Status create_game(const StoredGame& g) override {
    std::lock_guard lock(mu_);
    Stmt st(db_,
            "INSERT INTO games(id, game, scenario, seed, rules_hash, seats, created, status, result, "
            "creator_token, engine_version, start_position, history, migrations, seed_from) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    if (!st.ok()) return err("prepare insert game");
    st.bind(1, g.id);
    st.bind(2, g.game);
    st.bind(3, g.scenario);
    st.bind(4, static_cast<int64_t>(g.seed));
    st.bind(5, g.rules_hash);
    st.bind(6, seats_to_json(g.seats).dump());
    st.bind(7, g.created.empty() ? now_iso() : g.created);
    st.bind(8, g.status);
    if (g.result.is_null())
      st.bind_null(9);
    else
      st.bind(9, g.result.dump());
    st.bind(10, g.creator_token);
    st.bind(11, g.engine_version);
    if (g.start_position.is_null())
      st.bind_null(12);
    else
      st.bind(12, g.start_position.dump());
    st.bind(13, Json(g.history).dump());
    st.bind(14, g.migrations.dump());
    st.bind(15, g.seed_from);
    if (st.step() != SQLITE_DONE) return err("insert game '" + g.id + "'");
    return Status::ok();
  }

  Result<std::vector<StoredGame>> list_games() override {
    std::lock_guard lock(mu_);
    return query_games(std::string(kSelectGames) + " ORDER BY created, id", nullptr);
  }

  Result<std::optional<StoredGame>> find_game(const std::string& id) override {
    std::lock_guard lock(mu_);
    auto r = query_games(std::string(kSelectGames) + " WHERE id = ?", &id);
    if (!r) return r.error();
    if (r->empty()) return std::optional<StoredGame>{};
    return std::optional<StoredGame>{r->front()};
  }

  Result<std::vector<StoredAction>> actions(const std::string& id) override {
    std::lock_guard lock(mu_);
    Stmt st(db_, "SELECT idx, side, action, idempotency_key FROM actions WHERE game_id = ? ORDER BY idx");
    if (!st.ok()) return err("prepare select actions");
    st.bind(1, id);
    std::vector<StoredAction> out;
    int rc;
    while ((rc = st.step()) == SQLITE_ROW)
      out.push_back({static_cast<int>(st.int64(0)), static_cast<int>(st.int64(1)), st.text(2), st.text(3)});
    if (rc != SQLITE_DONE) return err("read actions of game '" + id + "'");
    return out;
  }

  // Group commit (issue 21): an append waits in `queue_`; the first appender that finds no
  // commit running takes every waiting append and commits them in one transaction, each in
  // its own savepoint (a refused append is rolled back alone), so one fsync serves every game
  // that acted meanwhile; one commit per action capped the server at about 1 / fsync time
  // (5 ms here: 200 actions a second for all games together). An append still returns only
  // when its transaction is on disk: with WAL + synchronous=FULL, COMMIT returning means the
  // commit record is fsynced, with the action and its position.
  Status append_action(const std::string& id, const StoredAction& a,
                       const StoredPosition* position) override {
    PendingAppend me{&id, &a, position, Status::ok(), false};
    std::unique_lock q(queue_mu_);
    queue_.push_back(&me);
    while (!me.done) {
      if (committing_) {
        queue_cv_.wait(q);
        continue;
      }
      committing_ = true;
      std::vector<PendingAppend*> batch;
      batch.swap(queue_);
      q.unlock();
      commit_batch(batch);
      q.lock();
      for (PendingAppend* p : batch) p->done = true;
      committing_ = false;
      queue_cv_.notify_all();
    }
    return me.status;
  }

  Result<std::vector<StoredPosition>> positions(const std::string& id) override {
    std::lock_guard lock(mu_);
    Stmt st(db_,
            "SELECT after_actions, turn, turn_start, position FROM positions WHERE game_id = ? "
            "ORDER BY after_actions");
    if (!st.ok()) return err("prepare select positions");
    st.bind(1, id);
    std::vector<StoredPosition> out;
    int rc;
    while ((rc = st.step()) == SQLITE_ROW)
      out.push_back({static_cast<int>(st.int64(0)), static_cast<int>(st.int64(1)), st.int64(2) != 0,
                     Json::parse(st.text(3), nullptr, false)});
    if (rc != SQLITE_DONE) return err("read positions of game '" + id + "'");
    return out;
  }

  Status migrate_game(const std::string& id, const StoredMigration& m, int migrations_seen,
                      int actions_seen) override {
    std::lock_guard lock(mu_);
    if (!exec("BEGIN IMMEDIATE")) return err("begin the migration of game '" + id + "'");
    Status s = replace_game(id, m, migrations_seen, actions_seen);
    if (s.is_ok() && !exec("COMMIT")) s = err("commit the migration of game '" + id + "'");
    if (!s.is_ok()) (void)exec("ROLLBACK");
    return s;
  }

  Status truncate_actions(const std::string& id, int from_index, int count_seen) override {
    std::lock_guard lock(mu_);
    if (!exec("BEGIN IMMEDIATE")) return err("begin truncating game '" + id + "'");
    Status s = delete_tail(id, from_index, count_seen);
    if (s.is_ok() && !exec("COMMIT")) s = err("commit truncating game '" + id + "'");
    if (!s.is_ok()) (void)exec("ROLLBACK");
    return s;
  }

  Status set_status(const std::string& id, const std::string& status, const Json& result) override {
    std::lock_guard lock(mu_);
    Stmt st(db_, "UPDATE games SET status = ?, result = ? WHERE id = ?");
    if (!st.ok()) return err("prepare update status");
    st.bind(1, status);
    if (result.is_null())
      st.bind_null(2);
    else
      st.bind(2, result.dump());
    st.bind(3, id);
    if (st.step() != SQLITE_DONE) return err("update status of game '" + id + "'");
    if (sqlite3_changes(db_) != 1) return Error{"unknown game '" + id + "'", "", describe()};
    return Status::ok();
  }

 private:
  Error err(const std::string& what) const {
    return Error{"database error during " + what + ": " + sqlite3_errmsg(db_), "", describe()};
  }

  bool exec(const char* sql) { return sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) == SQLITE_OK; }

  int64_t count_actions(const std::string& id) {
    Stmt count(db_, "SELECT count(*) FROM actions WHERE game_id = ?");
    if (!count.ok()) return -1;
    count.bind(1, id);
    if (count.step() != SQLITE_ROW) return -1;
    return count.int64(0);
  }

  // The statements below run inside the caller's transaction.
  struct PendingAppend {
    const std::string* id;
    const StoredAction* action;
    const StoredPosition* position;
    Status status;
    bool done;
  };

  // One transaction for `batch` (append_action); sets each append's status.
  void commit_batch(const std::vector<PendingAppend*>& batch) {
    std::lock_guard lock(mu_);
    if (!exec("BEGIN IMMEDIATE")) {
      const Status s = err("begin appending actions");
      for (PendingAppend* p : batch) p->status = s;
      return;
    }
    for (PendingAppend* p : batch) {
      (void)exec("SAVEPOINT append");
      Status s = insert_action(*p->id, *p->action);
      if (s.is_ok() && p->position != nullptr) s = put_position(*p->id, *p->position, /*replace_end=*/true);
      if (!s.is_ok()) (void)exec("ROLLBACK TO append");
      (void)exec("RELEASE append");
      p->status = std::move(s);
    }
    if (!exec("COMMIT")) {
      const Status s = err("commit " + std::to_string(batch.size()) + " action(s)");
      (void)exec("ROLLBACK");
      for (PendingAppend* p : batch)
        if (p->status.is_ok()) p->status = s;
    }
  }

  Status insert_action(const std::string& id, const StoredAction& a) {
    Stmt st(db_,
            "INSERT INTO actions(game_id, idx, side, action, accepted, idempotency_key) "
            "SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE (SELECT COUNT(*) FROM actions WHERE game_id = ?1) = ?2 "
            "AND EXISTS (SELECT 1 FROM games WHERE id = ?1)");
    if (!st.ok()) return err("prepare insert action");
    st.bind(1, id);
    st.bind(2, static_cast<int64_t>(a.index));
    st.bind(3, static_cast<int64_t>(a.side));
    st.bind(4, a.text);
    st.bind(5, now_iso());
    if (a.key.empty())
      st.bind_null(6);
    else
      st.bind(6, a.key);
    if (st.step() != SQLITE_DONE)
      return err("append action " + std::to_string(a.index) + " to game '" + id + "'");
    if (sqlite3_changes(db_) != 1)
      return Error{"action " + std::to_string(a.index) + " is not the next action of game '" + id + "'", "",
                   describe()};
    return Status::ok();
  }

  Result<bool> put_end_position(const std::string& id, const StoredPosition& p) override {
    std::lock_guard lock(mu_);
    if (!exec("BEGIN IMMEDIATE")) return err("begin writing a position of game '" + id + "'");
    bool same = false;
    {
      Stmt count(db_, "SELECT COUNT(*) FROM actions WHERE game_id = ?");
      if (!count.ok()) {
        (void)exec("ROLLBACK");
        return err("prepare count actions");
      }
      count.bind(1, id);
      same = count.step() == SQLITE_ROW && count.int64(0) == p.after;
    }
    Status s =
        same ? put_position(id, StoredPosition{p.after, p.turn, false, p.position}, /*replace_end=*/true)
             : Status::ok();
    if (s.is_ok() && !exec("COMMIT")) s = err("commit a position of game '" + id + "'");
    if (!s.is_ok()) {
      (void)exec("ROLLBACK");
      return s.error();
    }
    return same;
  }

  // `replace_end`: the game's previous end-of-log position (not a turn start) goes.
  Status put_position(const std::string& id, const StoredPosition& p, bool replace_end) {
    if (replace_end) {
      Stmt del(db_, "DELETE FROM positions WHERE game_id = ? AND turn_start = 0");
      if (!del.ok()) return err("prepare delete position");
      del.bind(1, id);
      if (del.step() != SQLITE_DONE) return err("replace the last position of game '" + id + "'");
    }
    Stmt st(db_,
            "INSERT OR REPLACE INTO positions(game_id, after_actions, turn, turn_start, position) "
            "VALUES (?,?,?,?,?)");
    if (!st.ok()) return err("prepare insert position");
    st.bind(1, id);
    st.bind(2, static_cast<int64_t>(p.after));
    st.bind(3, static_cast<int64_t>(p.turn));
    st.bind(4, static_cast<int64_t>(p.turn_start ? 1 : 0));
    st.bind(5, p.position.dump());
    if (st.step() != SQLITE_DONE) return err("store a position of game '" + id + "'");
    return Status::ok();
  }

  Status delete_tail(const std::string& id, int from_index, int count_seen) {
    const int64_t n = count_actions(id);
    if (n < 0) return err("count actions of game '" + id + "'");
    if (n != count_seen)
      return Error{"game '" + id + "' has " + std::to_string(n) + " actions, not the " +
                       std::to_string(count_seen) + " the undo was decided on",
                   "", describe()};
    for (const char* sql : {"DELETE FROM positions WHERE game_id = ? AND after_actions > ?",
                            "DELETE FROM actions WHERE game_id = ? AND idx >= ?"}) {
      Stmt st(db_, sql);
      if (!st.ok()) return err("prepare truncate");
      st.bind(1, id);
      st.bind(2, static_cast<int64_t>(from_index));
      if (st.step() != SQLITE_DONE) return err("truncate actions of game '" + id + "'");
    }
    return Status::ok();
  }

  Status replace_game(const std::string& id, const StoredMigration& m, int migrations_seen,
                      int actions_seen) {
    {
      Stmt st(db_, "SELECT migrations FROM games WHERE id = ?");
      if (!st.ok()) return err("prepare select migrations");
      st.bind(1, id);
      if (st.step() != SQLITE_ROW) return Error{"unknown game '" + id + "'", "", describe()};
      const Json had = st.is_null(0) ? Json::array() : Json::parse(st.text(0), nullptr, false);
      const int64_t n = count_actions(id);
      if ((had.is_array() ? static_cast<int>(had.size()) : 0) != migrations_seen || n != actions_seen)
        return Error{
            "game '" + id + "' changed since it was read (another server instance migrated or played it)", "",
            describe()};
    }
    {
      Stmt st(db_,
              "UPDATE games SET rules_hash = ?, engine_version = ?, start_position = ?, history = ?, "
              "migrations = ? WHERE id = ?");
      if (!st.ok()) return err("prepare update game");
      st.bind(1, m.rules_hash);
      st.bind(2, m.engine_version);
      if (m.start_position.is_null())
        st.bind_null(3);
      else
        st.bind(3, m.start_position.dump());
      st.bind(4, Json(m.history).dump());
      st.bind(5, m.migrations.dump());
      st.bind(6, id);
      if (st.step() != SQLITE_DONE) return err("update the migrated game '" + id + "'");
    }
    for (const char* sql :
         {"DELETE FROM positions WHERE game_id = ?", "DELETE FROM actions WHERE game_id = ?"}) {
      Stmt st(db_, sql);
      if (!st.ok()) return err("prepare delete");
      st.bind(1, id);
      if (st.step() != SQLITE_DONE) return err("replace the log of game '" + id + "'");
    }
    for (const auto& a : m.actions)
      if (Status s = insert_action(id, a); !s.is_ok()) return s;
    for (const auto& p : m.positions)
      if (Status s = put_position(id, p, false); !s.is_ok()) return s;
    return Status::ok();
  }

  static constexpr const char* kSelectGames =
      "SELECT id, game, scenario, seed, rules_hash, seats, created, status, result, creator_token, "
      "engine_version, start_position, history, migrations, seed_from FROM games";

  Result<std::vector<StoredGame>> query_games(const std::string& sql, const std::string* id) {
    Stmt st(db_, sql.c_str());
    if (!st.ok()) return err("prepare select games");
    if (id != nullptr) st.bind(1, *id);
    std::vector<StoredGame> out;
    int rc;
    while ((rc = st.step()) == SQLITE_ROW) {
      StoredGame g;
      g.id = st.text(0);
      g.game = st.text(1);
      g.scenario = st.text(2);
      g.seed = static_cast<uint64_t>(st.int64(3));
      g.rules_hash = st.text(4);
      g.seats = seats_from_json(Json::parse(st.text(5), nullptr, false));
      g.created = st.text(6);
      g.status = st.text(7);
      const std::string res = st.text(8);
      g.result = res.empty() ? Json() : Json::parse(res, nullptr, false);
      g.creator_token = st.text(9);
      g.engine_version = st.text(10);
      g.start_position = st.is_null(11) ? Json() : Json::parse(st.text(11), nullptr, false);
      g.history = history_from_json(Json::parse(st.text(12), nullptr, false));
      g.migrations = st.is_null(13) ? Json::array() : Json::parse(st.text(13), nullptr, false);
      if (!g.migrations.is_array()) g.migrations = Json::array();
      g.seed_from = st.text(14);
      out.push_back(std::move(g));
    }
    if (rc != SQLITE_DONE) return err("read games");
    return out;
  }

  sqlite3* db_;
  std::filesystem::path path_;
  std::mutex mu_;
  std::mutex queue_mu_;  // the appends waiting for a commit (append_action)
  std::condition_variable queue_cv_;
  std::vector<PendingAppend*> queue_;
  bool committing_ = false;
};

int pragma_int(sqlite3* db, const char* sql) {
  Stmt st(db, sql);
  if (!st.ok() || st.step() != SQLITE_ROW) return -1;
  return static_cast<int>(st.int64(0));
}

}  // namespace

std::filesystem::path default_db_path() {
  if (const char* x = std::getenv("XDG_DATA_HOME"); x != nullptr && *x != '\0')
    return std::filesystem::path(x) / "steppe" / "steppe.db";
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home != nullptr && *home != '\0' ? home : ".") / ".local" / "share" /
         "steppe" / "steppe.db";
}

Result<std::unique_ptr<GameStore>> open_sqlite_store(const std::filesystem::path& path) {
  const std::string where = path.string();
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) return Error{"cannot create the directory for the database: " + ec.message(), "", where};
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(where.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                      nullptr) != SQLITE_OK) {
    std::string msg = db != nullptr ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    return Error{"cannot open the database: " + msg, "", where};
  }
  auto fail = [&](const std::string& msg) -> Result<std::unique_ptr<GameStore>> {
    sqlite3_close(db);
    return Error{msg, "", where};
  };
  auto exec = [&](const std::string& sql) -> std::string {
    char* e = nullptr;
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &e) == SQLITE_OK) return {};
    std::string msg = e != nullptr ? e : sqlite3_errmsg(db);
    sqlite3_free(e);
    return msg.empty() ? "unknown error" : msg;
  };
  sqlite3_busy_timeout(db, 5000);
  // Reading the header first also detects a file that is not a database at all.
  const int app_id = pragma_int(db, "PRAGMA application_id");
  if (app_id < 0) return fail(std::string("not a readable SQLite database: ") + sqlite3_errmsg(db));
  const int version = pragma_int(db, "PRAGMA user_version");
  if (app_id != 0 && app_id != kApplicationId)
    return fail("this SQLite file belongs to another application (application_id " + std::to_string(app_id) +
                "); refusing to use it as a Steppe database");
  if (version > kStoreSchemaVersion)
    return fail("the database has schema version " + std::to_string(version) +
                ", newer than this build of Steppe understands (" + std::to_string(kStoreSchemaVersion) +
                "); upgrade Steppe or use another --db");
  if (app_id == 0 && version != 0)
    return fail("the database has schema version " + std::to_string(version) +
                " but is not marked as a Steppe database; refusing to touch it");
  if (const auto e = exec("PRAGMA journal_mode=WAL"); !e.empty()) return fail("cannot enable WAL: " + e);
  if (const auto e = exec("PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON"); !e.empty())
    return fail("cannot set pragmas: " + e);
  for (int v = version; v < kStoreSchemaVersion; ++v) {
    const std::string sql = std::string("BEGIN IMMEDIATE;") + kMigrations[v] +
                            "PRAGMA application_id=" + std::to_string(kApplicationId) + ";" +
                            "PRAGMA user_version=" + std::to_string(v + 1) + ";COMMIT;";
    if (const auto e = exec(sql); !e.empty()) {
      (void)exec("ROLLBACK");
      return fail("migration of the database schema from version " + std::to_string(v) + " to " +
                  std::to_string(v + 1) + " failed: " + e);
    }
  }
  return std::unique_ptr<GameStore>(std::make_unique<SqliteStore>(db, path));
}

}  // namespace steppe::server
