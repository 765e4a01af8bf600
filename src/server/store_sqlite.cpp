// SQLite backend of GameStore. One connection, serialised by a mutex; WAL journal with
// synchronous=FULL so that a commit that returned is on disk before the server answers.
#include <sqlite3.h>

#include <cstdlib>
#include <mutex>

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
            "creator_token) VALUES (?,?,?,?,?,?,?,?,?,?)");
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
    if (st.step() != SQLITE_DONE) return err("insert game '" + g.id + "'");
    return Status::ok();
  }

  Result<std::vector<StoredGame>> list_games() override {
    std::lock_guard lock(mu_);
    return query_games(
        "SELECT id, game, scenario, seed, rules_hash, seats, created, status, result, creator_token "
        "FROM games ORDER BY created, id",
        nullptr);
  }

  Result<std::optional<StoredGame>> find_game(const std::string& id) override {
    std::lock_guard lock(mu_);
    auto r = query_games(
        "SELECT id, game, scenario, seed, rules_hash, seats, created, status, result, creator_token "
        "FROM games WHERE id = ?",
        &id);
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

  Status append_action(const std::string& id, const StoredAction& a) override {
    std::lock_guard lock(mu_);
    // The insert is its own transaction: with WAL + synchronous=FULL, sqlite3_step
    // returning SQLITE_DONE means the commit record is fsynced.
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

  Status truncate_actions(const std::string& id, int from_index, int count_seen) override {
    std::lock_guard lock(mu_);
    {
      Stmt count(db_, "SELECT count(*) FROM actions WHERE game_id = ?");
      if (!count.ok()) return err("prepare count actions");
      count.bind(1, id);
      if (count.step() != SQLITE_ROW) return err("count actions of game '" + id + "'");
      const int64_t n = count.int64(0);
      if (n != count_seen)
        return Error{"game '" + id + "' has " + std::to_string(n) + " actions, not the " +
                         std::to_string(count_seen) + " the undo was decided on",
                     "", describe()};
    }
    Stmt st(db_, "DELETE FROM actions WHERE game_id = ? AND idx >= ?");
    if (!st.ok()) return err("prepare delete actions");
    st.bind(1, id);
    st.bind(2, static_cast<int64_t>(from_index));
    if (st.step() != SQLITE_DONE) return err("truncate actions of game '" + id + "'");
    return Status::ok();
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

  Result<std::vector<StoredGame>> query_games(const char* sql, const std::string* id) {
    Stmt st(db_, sql);
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
      out.push_back(std::move(g));
    }
    if (rc != SQLITE_DONE) return err("read games");
    return out;
  }

  sqlite3* db_;
  std::filesystem::path path_;
  std::mutex mu_;
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
