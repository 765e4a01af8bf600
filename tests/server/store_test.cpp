// GameStore: round trips, durability across reopen and SIGKILL, the append checks, for
// both backends (SQLite, and PostgreSQL on a throw-away cluster, pg_cluster.h); per backend,
// forward migration and refusal of databases it must not touch; for PostgreSQL, two stores
// on one database (two server instances): one append of an index wins, and each hears of
// the other's changes.
#include "server/store.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <pqxx/pqxx>
#include <thread>

#include "pg_cluster.h"

namespace fs = std::filesystem;
using namespace steppe;
using namespace steppe::server;
using steppe::testing::PgCluster;

namespace {

fs::path temp_dir(const std::string& name) {
  fs::path p = fs::temp_directory_path() / ("steppe-store-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

StoredGame sample_game(const std::string& id) {
  StoredGame g;
  g.id = id;
  g.game = "duel";
  g.scenario = "short";
  g.seed = 0xFEDCBA9876543210ULL;  // above INT64_MAX: must survive the int64 column
  g.rules_hash = "duel-1";
  g.seats = {{0, "human", "", "tok0"}, {1, "agent", "random", ""}};
  g.created = "2026-11-23T00:00:00Z";
  return g;
}

void exec_sql(const fs::path& db, const std::string& sql) {
  sqlite3* h = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &h), SQLITE_OK);
  char* err = nullptr;
  ASSERT_EQ(sqlite3_exec(h, sql.c_str(), nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "");
  sqlite3_close(h);
}

int user_version(const fs::path& db) {
  sqlite3* h = nullptr;
  sqlite3_open(db.c_str(), &h);
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(h, "PRAGMA user_version", -1, &st, nullptr);
  sqlite3_step(st);
  const int v = sqlite3_column_int(st, 0);
  sqlite3_finalize(st);
  sqlite3_close(h);
  return v;
}

}  // namespace

TEST(Store, CreatesDatabaseWithParentDirectoriesAndCurrentSchema) {
  const fs::path dir = temp_dir("create");
  const fs::path db = dir / "a" / "b" / "steppe.db";
  auto s = open_sqlite_store(db);
  ASSERT_TRUE(s.is_ok()) << s.error().to_string();
  EXPECT_TRUE(fs::exists(db));
  EXPECT_EQ(user_version(db), kStoreSchemaVersion);
}

enum class Backend { kSqlite, kPostgres };

// The behaviour every store must have, run on each backend. `open()` opens the test's own
// store location again (a file, or a fresh database of the throw-away cluster).
class StoreBehaviour : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    if (GetParam() == Backend::kSqlite) {
      location_ =
          (temp_dir(::testing::UnitTest::GetInstance()->current_test_info()->name()) / "s.db").string();
    } else {
      auto& pg = PgCluster::shared();
      ASSERT_TRUE(pg.ok()) << pg.error();
      location_ = pg.fresh_database();
    }
  }
  Result<std::unique_ptr<GameStore>> open() const {
    return GetParam() == Backend::kSqlite ? open_sqlite_store(location_) : open_postgres_store(location_);
  }
  std::string location_;
};

INSTANTIATE_TEST_SUITE_P(Backends, StoreBehaviour, ::testing::Values(Backend::kSqlite, Backend::kPostgres),
                         [](const auto& param_info) {
                           return param_info.param == Backend::kSqlite ? "Sqlite" : "Postgres";
                         });

TEST_P(StoreBehaviour, GameRoundTripKeepsEveryField) {
  auto s = open();
  ASSERT_TRUE(s.is_ok());
  ASSERT_TRUE((*s)->create_game(sample_game("g1")).is_ok());
  auto found = (*s)->find_game("g1");
  ASSERT_TRUE(found.is_ok());
  ASSERT_TRUE(found->has_value());
  const StoredGame& g = **found;
  EXPECT_EQ(g.seed, 0xFEDCBA9876543210ULL);
  EXPECT_EQ(g.rules_hash, "duel-1");
  ASSERT_EQ(g.seats.size(), 2u);
  EXPECT_EQ(g.seats[0].token, "tok0");
  EXPECT_EQ(g.seats[1].agent, "random");
  EXPECT_EQ(g.status, "active");
  EXPECT_TRUE(g.result.is_null());
  auto none = (*s)->find_game("nope");
  ASSERT_TRUE(none.is_ok());
  EXPECT_FALSE(none->has_value());
  EXPECT_FALSE((*s)->create_game(sample_game("g1")).is_ok()) << "duplicate id must be refused";
}

TEST_P(StoreBehaviour, ActionsSurviveReopenInOrder) {
  {
    auto s = open();
    ASSERT_TRUE(s.is_ok());
    ASSERT_TRUE((*s)->create_game(sample_game("g1")).is_ok());
    for (int i = 0; i < 5; ++i)
      ASSERT_TRUE((*s)->append_action("g1", {i, i % 2, "move " + std::to_string(i), ""}).is_ok());
    ASSERT_TRUE((*s)->set_status("g1", "finished", Json{{"winner", "Red"}}).is_ok());
  }
  auto s = open();
  ASSERT_TRUE(s.is_ok());
  auto acts = (*s)->actions("g1");
  ASSERT_TRUE(acts.is_ok());
  ASSERT_EQ(acts->size(), 5u);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ((*acts)[static_cast<size_t>(i)].index, i);
    EXPECT_EQ((*acts)[static_cast<size_t>(i)].side, i % 2);
    EXPECT_EQ((*acts)[static_cast<size_t>(i)].text, "move " + std::to_string(i));
  }
  auto g = (*s)->find_game("g1");
  EXPECT_EQ((**g).status, "finished");
  EXPECT_EQ((**g).result["winner"], "Red");
}

TEST_P(StoreBehaviour, AppendRefusesGapDuplicateAndUnknownGame) {
  auto s = open();
  ASSERT_TRUE(s.is_ok());
  ASSERT_TRUE((*s)->create_game(sample_game("g1")).is_ok());
  ASSERT_TRUE((*s)->append_action("g1", {0, 0, "pass", ""}).is_ok());
  EXPECT_FALSE((*s)->append_action("g1", {0, 0, "pass", ""}).is_ok()) << "duplicate index";
  EXPECT_FALSE((*s)->append_action("g1", {2, 0, "pass", ""}).is_ok()) << "gap";
  EXPECT_FALSE((*s)->append_action("nope", {0, 0, "pass", ""}).is_ok()) << "unknown game";
  EXPECT_EQ((*s)->actions("g1")->size(), 1u);
}

TEST_P(StoreBehaviour, TruncateRemovesTheTail) {
  auto s = open();
  ASSERT_TRUE(s.is_ok());
  ASSERT_TRUE((*s)->create_game(sample_game("g1")).is_ok());
  for (int i = 0; i < 4; ++i) ASSERT_TRUE((*s)->append_action("g1", {i, 0, "pass", ""}).is_ok());
  ASSERT_TRUE((*s)->truncate_actions("g1", 2, 4).is_ok());
  EXPECT_EQ((*s)->actions("g1")->size(), 2u);
  EXPECT_TRUE((*s)->append_action("g1", {2, 1, "scout", ""}).is_ok()) << "index 2 is next again";
}

// An undo decided on a log of N actions deletes nothing when the log has another length (an
// action appended since by another server instance must not be lost to it).
TEST_P(StoreBehaviour, TruncateOfALogThatChangedSinceDeletesNothing) {
  auto s = open();
  ASSERT_TRUE(s.is_ok());
  ASSERT_TRUE((*s)->create_game(sample_game("g1")).is_ok());
  for (int i = 0; i < 3; ++i) ASSERT_TRUE((*s)->append_action("g1", {i, 0, "pass", ""}).is_ok());
  const Status refused = (*s)->truncate_actions("g1", 1, 2);  // decided when it had 2
  ASSERT_FALSE(refused.is_ok());
  EXPECT_NE(refused.error().message.find("has 3 actions"), std::string::npos) << refused.error().message;
  EXPECT_EQ((*s)->actions("g1")->size(), 3u);
  EXPECT_FALSE((*s)->truncate_actions("g1", 2, 4).is_ok());
  EXPECT_EQ((*s)->actions("g1")->size(), 3u);
}

TEST(Store, MigratesVersion1DatabaseForward) {
  const fs::path db = temp_dir("migrate") / "old.db";
  // A database as the first schema version wrote it.
  exec_sql(db,
           "CREATE TABLE games (id TEXT PRIMARY KEY, game TEXT NOT NULL, scenario TEXT NOT NULL, seed "
           "INTEGER NOT NULL,"
           " rules_hash TEXT NOT NULL, seats TEXT NOT NULL, created TEXT NOT NULL, status TEXT NOT NULL);"
           "CREATE TABLE actions (game_id TEXT NOT NULL REFERENCES games(id), idx INTEGER NOT NULL,"
           " side INTEGER NOT NULL, action TEXT NOT NULL, PRIMARY KEY (game_id, idx));"
           "INSERT INTO games VALUES "
           "('old1','duel','short',7,'duel-1','[{\"side\":0,\"kind\":\"human\",\"token\":\"t\"}]',"
           " '2026-01-01T00:00:00Z','active');"
           "INSERT INTO actions VALUES ('old1',0,0,'move 0102');"
           "PRAGMA application_id=1398034512; PRAGMA user_version=1;");
  auto s = open_sqlite_store(db);
  ASSERT_TRUE(s.is_ok()) << s.error().to_string();
  EXPECT_EQ(user_version(db), kStoreSchemaVersion);
  auto g = (*s)->find_game("old1");
  ASSERT_TRUE(g.is_ok() && g->has_value());
  EXPECT_EQ((**g).seed, 7u);
  EXPECT_TRUE((**g).result.is_null());
  auto acts = (*s)->actions("old1");
  ASSERT_EQ(acts->size(), 1u);
  EXPECT_EQ((*acts)[0].text, "move 0102");
  ASSERT_TRUE((*s)->set_status("old1", "finished", Json{{"winner", "Blue"}}).is_ok()) << "v2 column usable";
  EXPECT_EQ((**g).creator_token, "") << "a game from before schema 3 has no creator";
  EXPECT_EQ((*acts)[0].key, "");
  ASSERT_TRUE((*s)->append_action("old1", {1, 0, "pass", "key-1"}).is_ok()) << "v3 column usable";
}

// Schema 3: the creator token of a game and the idempotency key of an action are kept.
TEST_P(StoreBehaviour, CreatorTokenAndIdempotencyKeysSurviveReopen) {
  {
    auto s = open();
    ASSERT_TRUE(s.is_ok());
    StoredGame g = sample_game("g1");
    g.creator_token = "creator-secret";
    ASSERT_TRUE((*s)->create_game(g).is_ok());
    ASSERT_TRUE((*s)->append_action("g1", {0, 0, "pass", "k-0"}).is_ok());
    ASSERT_TRUE((*s)->append_action("g1", {1, 1, "pass", ""}).is_ok());
  }
  auto s = open();
  ASSERT_TRUE(s.is_ok());
  EXPECT_EQ((*(*s)->find_game("g1"))->creator_token, "creator-secret");
  auto acts = (*s)->actions("g1");
  ASSERT_TRUE(acts.is_ok());
  ASSERT_EQ(acts->size(), 2u);
  EXPECT_EQ((*acts)[0].key, "k-0");
  EXPECT_EQ((*acts)[1].key, "");
}

// Schema 4 (issue 29): positions beside the log. A turn start's position stays; the
// end-of-log one is replaced by the next action's; an undo takes the positions after what it
// keeps; everything survives a reopen.
TEST_P(StoreBehaviour, PositionsAreKeptBesideTheLog) {
  {
    auto s = open();
    ASSERT_TRUE(s.is_ok());
    ASSERT_TRUE((*s)->create_game(sample_game("g1")).is_ok());
    for (int i = 0; i < 5; ++i) {
      const StoredPosition p{i + 1, i < 2 ? 1 : 2, i == 2, Json{{"after", i + 1}}};
      ASSERT_TRUE((*s)->append_action("g1", {i, 0, "pass", ""}, &p).is_ok());
    }
    // An append that is refused stores no position either.
    const StoredPosition stray{9, 3, true, Json{{"after", 9}}};
    EXPECT_FALSE((*s)->append_action("g1", {9, 0, "pass", ""}, &stray).is_ok());
  }
  auto s = open();
  ASSERT_TRUE(s.is_ok());
  auto ps = (*s)->positions("g1");
  ASSERT_TRUE(ps.is_ok()) << ps.error().to_string();
  ASSERT_EQ(ps->size(), 2u) << "the turn start (after 3) and the end of the log (after 5)";
  EXPECT_EQ((*ps)[0].after, 3);
  EXPECT_TRUE((*ps)[0].turn_start);
  EXPECT_EQ((*ps)[0].turn, 2);
  EXPECT_EQ((*ps)[1].after, 5);
  EXPECT_FALSE((*ps)[1].turn_start);
  EXPECT_EQ((*ps)[1].position["after"], 5);
  ASSERT_TRUE((*s)->truncate_actions("g1", 2, 5).is_ok());
  EXPECT_TRUE((*s)->positions("g1")->empty()) << "positions after the kept actions go with them";
}

// The end-of-log position written on its own (the service writes it every few actions and
// at shutdown, issue 21): it replaces the previous end position, keeps the turn starts, and
// is refused for a log that is no longer that long (an undo, another instance's action).
TEST_P(StoreBehaviour, EndPositionIsWrittenOnlyForTheLogItFollows) {
  auto s = open();
  ASSERT_TRUE(s.is_ok());
  ASSERT_TRUE((*s)->create_game(sample_game("g1")).is_ok());
  const StoredPosition start{1, 2, true, Json{{"after", 1}}};
  ASSERT_TRUE((*s)->append_action("g1", {0, 0, "pass", ""}, &start).is_ok());
  for (int i = 1; i < 4; ++i) ASSERT_TRUE((*s)->append_action("g1", {i, 0, "pass", ""}).is_ok());
  auto stale = (*s)->put_end_position("g1", StoredPosition{3, 2, false, Json{{"after", 3}}});
  ASSERT_TRUE(stale.is_ok()) << stale.error().to_string();
  EXPECT_FALSE(*stale) << "the log has 4 actions, not 3";
  auto written = (*s)->put_end_position("g1", StoredPosition{4, 2, false, Json{{"after", 4}}});
  ASSERT_TRUE(written.is_ok()) << written.error().to_string();
  EXPECT_TRUE(*written);
  ASSERT_TRUE((*s)->append_action("g1", {4, 0, "pass", ""}).is_ok());
  ASSERT_TRUE(*(*s)->put_end_position("g1", StoredPosition{5, 2, false, Json{{"after", 5}}}));
  auto ps = (*s)->positions("g1");
  ASSERT_TRUE(ps.is_ok());
  ASSERT_EQ(ps->size(), 2u) << "the turn start and one end position";
  EXPECT_TRUE((*ps)[0].turn_start);
  EXPECT_EQ((*ps)[1].after, 5);
  EXPECT_FALSE((*ps)[1].turn_start);
  EXPECT_EQ((*ps)[1].position["after"], 5);
}

// An upgrade replaces a game's set-up, log and positions in one transaction, only when the
// game is still as the caller read it.
TEST_P(StoreBehaviour, MigrateGameReplacesTheLogOnceAndRefusesAStaleOne) {
  auto s = open();
  ASSERT_TRUE(s.is_ok());
  ASSERT_TRUE((*s)->create_game(sample_game("g1")).is_ok());
  for (int i = 0; i < 4; ++i)
    ASSERT_TRUE((*s)->append_action("g1", {i, i % 2, "move " + std::to_string(i), ""}).is_ok());
  StoredMigration m;
  m.rules_hash = "duel-2";
  m.engine_version = "9.9.9";
  m.start_position = Json{{"format", "steppe-position"}, {"turn", 2}};
  m.history = {"move 0", "move 1"};
  m.migrations = Json::array({Json{{"text", "Continued under Steppe 9.9.9"}}});
  m.actions = {{0, 0, "move 2", "k-2"}};
  m.positions = {{0, 2, true, Json{{"at", 0}}}, {1, 2, false, Json{{"at", 1}}}};
  const Status stale = (*s)->migrate_game("g1", m, 0, 3);
  EXPECT_FALSE(stale.is_ok()) << "the game has 4 actions, not the 3 the upgrade was decided on";
  EXPECT_EQ((*s)->actions("g1")->size(), 4u);
  ASSERT_TRUE((*s)->migrate_game("g1", m, 0, 4).is_ok());
  EXPECT_FALSE((*s)->migrate_game("g1", m, 0, 1).is_ok()) << "another upgrade happened since";
  auto s2 = open();
  ASSERT_TRUE(s2.is_ok());
  const StoredGame g = **(*s2)->find_game("g1");
  EXPECT_EQ(g.rules_hash, "duel-2");
  EXPECT_EQ(g.engine_version, "9.9.9");
  EXPECT_EQ(g.start_position["turn"], 2);
  EXPECT_EQ(g.history, (std::vector<std::string>{"move 0", "move 1"}));
  ASSERT_EQ(g.migrations.size(), 1u);
  EXPECT_EQ(g.seats.size(), 2u) << "the seats are kept";
  auto acts = (*s2)->actions("g1");
  ASSERT_EQ(acts->size(), 1u);
  EXPECT_EQ((*acts)[0].text, "move 2");
  EXPECT_EQ((*acts)[0].key, "k-2");
  auto ps = (*s2)->positions("g1");
  ASSERT_EQ(ps->size(), 2u);
  EXPECT_EQ((*ps)[1].position["at"], 1);
  EXPECT_TRUE((*s2)->append_action("g1", {1, 1, "move 3", ""}).is_ok()) << "the new log goes on";
}

// A database of schema 3 (the server's store of 2026-11-28) opens at schema 4: its games
// kept, counted as written by Steppe 0.1.0, with no positions yet.
TEST(Store, MigratesTheVersion3FixtureForwardKeepingEveryGame) {
  const fs::path db = temp_dir("v3") / "steppe.db";
  fs::copy_file("tests/upgrade/server-2026-11-28.db", db);
  ASSERT_EQ(user_version(db), 3);
  auto s = open_sqlite_store(db);
  ASSERT_TRUE(s.is_ok()) << s.error().to_string();
  EXPECT_EQ(user_version(db), kStoreSchemaVersion);
  auto games = (*s)->list_games();
  ASSERT_TRUE(games.is_ok());
  ASSERT_EQ(games->size(), 10u);
  for (const auto& g : *games) {
    EXPECT_EQ(g.engine_version, "0.1.0");
    EXPECT_TRUE(g.start_position.is_null());
    EXPECT_TRUE(g.migrations.empty());
    EXPECT_FALSE((*s)->actions(g.id)->empty());
    EXPECT_TRUE((*s)->positions(g.id)->empty());
  }
}

TEST(Store, RefusesDatabaseFromNewerSchema) {
  const fs::path db = temp_dir("newer") / "new.db";
  exec_sql(db, "CREATE TABLE games (id TEXT); PRAGMA application_id=1398034512; PRAGMA user_version=99;");
  auto s = open_sqlite_store(db);
  ASSERT_FALSE(s.is_ok());
  EXPECT_NE(s.error().message.find("newer"), std::string::npos) << s.error().to_string();
  EXPECT_NE(s.error().message.find("99"), std::string::npos);
  EXPECT_EQ(user_version(db), 99) << "a refused database is left untouched";
}

TEST(Store, RefusesSqliteFileOfAnotherApplication) {
  const fs::path db = temp_dir("foreign") / "other.db";
  exec_sql(db, "CREATE TABLE t (x); PRAGMA application_id=42;");
  auto s = open_sqlite_store(db);
  ASSERT_FALSE(s.is_ok());
  EXPECT_NE(s.error().message.find("another application"), std::string::npos) << s.error().to_string();
}

TEST(Store, RefusesUnmarkedDatabaseWithAVersion) {
  const fs::path db = temp_dir("unmarked") / "other.db";
  exec_sql(db, "CREATE TABLE t (x); PRAGMA user_version=1;");
  EXPECT_FALSE(open_sqlite_store(db).is_ok());
}

TEST(Store, RefusesAFileThatIsNotADatabase) {
  const fs::path db = temp_dir("garbage") / "junk.db";
  std::ofstream(db) << "this is not an SQLite database, just some text that is long enough to have a header";
  auto s = open_sqlite_store(db);
  ASSERT_FALSE(s.is_ok());
  EXPECT_EQ(s.error().where, db.string());
}

// A child process appends actions and reports each acknowledged index through a pipe;
// the parent kills it with SIGKILL mid-stream. Every acknowledged action must be there.
TEST_P(StoreBehaviour, SigkillLosesNoAcknowledgedAction) {
  {
    auto s = open();
    ASSERT_TRUE(s.is_ok());
    ASSERT_TRUE((*s)->create_game(sample_game("g1")).is_ok());
  }
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    close(fds[0]);
    auto s = open();
    if (!s) _exit(2);
    for (int i = 0; i < 100000; ++i) {
      if (!(*s)->append_action("g1", {i, i % 2, "pass", ""}).is_ok()) _exit(3);
      if (write(fds[1], &i, sizeof i) != sizeof i) _exit(4);
    }
    _exit(0);
  }
  close(fds[1]);
  int last_ack = -1, v = 0;
  // Let it run for a while, then kill it while it is writing.
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(400);
  while (std::chrono::steady_clock::now() < until && read(fds[0], &v, sizeof v) == sizeof v) last_ack = v;
  kill(pid, SIGKILL);
  while (read(fds[0], &v, sizeof v) == sizeof v) last_ack = v;
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the writer should have been killed mid-stream";
  ASSERT_GT(last_ack, 0);
  auto s = open();
  ASSERT_TRUE(s.is_ok()) << s.error().to_string();
  auto acts = (*s)->actions("g1");
  ASSERT_TRUE(acts.is_ok());
  EXPECT_GE(static_cast<int>(acts->size()), last_ack + 1);
  for (size_t i = 0; i < acts->size(); ++i) ASSERT_EQ((*acts)[i].index, static_cast<int>(i));
}

namespace {

// A fresh database of the throw-away cluster (the test fails if there is none).
std::string pg_database() {
  auto& pg = PgCluster::shared();
  EXPECT_TRUE(pg.ok()) << pg.error();
  return pg.ok() ? pg.fresh_database() : std::string();
}

void pg_exec(const std::string& url, const std::string& sql) {
  pqxx::connection c(url);
  pqxx::nontransaction w(c);
  w.exec(sql);
}

int pg_schema_version(const std::string& url) {
  pqxx::connection c(url);
  pqxx::nontransaction w(c);
  return w.exec("SELECT version FROM steppe_schema")[0][0].as<int>();
}

}  // namespace

TEST(PostgresStore, CreatesTheSchemaWithItsVersionAndOpensItAgain) {
  const std::string url = pg_database();
  ASSERT_FALSE(url.empty());
  ASSERT_TRUE(open_postgres_store(url).is_ok());
  EXPECT_EQ(pg_schema_version(url), kPostgresSchemaVersion);
  auto again = open_postgres_store(url);
  ASSERT_TRUE(again.is_ok()) << again.error().to_string();
  EXPECT_EQ((*again)->describe(), url);
  EXPECT_TRUE((*again)->shared());
}

// A database of PostgreSQL schema 2 (before positions) opens at schema 3 with its games.
TEST(PostgresStore, MigratesASchema2DatabaseForwardKeepingItsGames) {
  const std::string url = pg_database();
  ASSERT_FALSE(url.empty());
  pg_exec(
      url,
      "CREATE TABLE steppe_schema (version INTEGER NOT NULL); INSERT INTO steppe_schema VALUES (2);"
      "CREATE TABLE games (id TEXT PRIMARY KEY, game TEXT NOT NULL, scenario TEXT NOT NULL, seed BIGINT NOT "
      "NULL, rules_hash TEXT NOT NULL, seats TEXT NOT NULL, created TEXT NOT NULL, status TEXT NOT NULL, "
      "result TEXT, creator_token TEXT);"
      "CREATE TABLE actions (game_id TEXT NOT NULL REFERENCES games(id), idx INTEGER NOT NULL, side INTEGER "
      "NOT NULL, action TEXT NOT NULL, accepted TIMESTAMPTZ NOT NULL DEFAULT now(), idempotency_key TEXT, "
      "PRIMARY KEY (game_id, idx));"
      "INSERT INTO games VALUES ('old1','duel','short',7,'duel-1','[]','2026-11-28T00:00:00Z','active',NULL,"
      "'c');"
      "INSERT INTO actions(game_id, idx, side, action) VALUES ('old1',0,0,'move 0102');");
  auto s = open_postgres_store(url);
  ASSERT_TRUE(s.is_ok()) << s.error().to_string();
  EXPECT_EQ(pg_schema_version(url), kPostgresSchemaVersion);
  auto g = (*s)->find_game("old1");
  ASSERT_TRUE(g.is_ok() && g->has_value());
  EXPECT_EQ((**g).engine_version, "0.1.0");
  EXPECT_TRUE((**g).migrations.empty());
  EXPECT_EQ((*s)->actions("old1")->size(), 1u);
  const StoredPosition p{2, 1, true, Json{{"x", 1}}};
  ASSERT_TRUE((*s)->append_action("old1", {1, 0, "pass", ""}, &p).is_ok()) << "the positions table is usable";
  EXPECT_EQ((*s)->positions("old1")->size(), 1u);
}

TEST(PostgresStore, InstancesStartingTogetherCreateTheSchemaOnce) {
  const std::string url = pg_database();
  ASSERT_FALSE(url.empty());
  std::vector<std::thread> ts;
  std::atomic<int> good{0};
  for (int i = 0; i < 4; ++i)
    ts.emplace_back([&] {
      if (open_postgres_store(url).is_ok()) ++good;
    });
  for (auto& t : ts) t.join();
  EXPECT_EQ(good.load(), 4);
  EXPECT_EQ(pg_schema_version(url), kPostgresSchemaVersion);
}

TEST(PostgresStore, RefusesDatabaseFromNewerSchema) {
  const std::string url = pg_database();
  ASSERT_FALSE(url.empty());
  pg_exec(url,
          "CREATE TABLE steppe_schema (version INTEGER NOT NULL); INSERT INTO steppe_schema VALUES (99)");
  auto s = open_postgres_store(url);
  ASSERT_FALSE(s.is_ok());
  EXPECT_NE(s.error().message.find("newer"), std::string::npos) << s.error().to_string();
  EXPECT_EQ(pg_schema_version(url), 99) << "a refused database is left untouched";
}

TEST(PostgresStore, RefusesAGamesTableSteppeDidNotCreate) {
  const std::string url = pg_database();
  ASSERT_FALSE(url.empty());
  pg_exec(url, "CREATE TABLE games (x INTEGER)");
  auto s = open_postgres_store(url);
  ASSERT_FALSE(s.is_ok());
  EXPECT_NE(s.error().message.find("did not create"), std::string::npos) << s.error().to_string();
}

TEST(PostgresStore, RefusesAnUnreachableServerWithAClearError) {
  auto s = open_postgres_store("postgresql://steppe@127.0.0.1:1/none?connect_timeout=2");
  ASSERT_FALSE(s.is_ok());
  EXPECT_NE(s.error().message.find("cannot connect"), std::string::npos) << s.error().to_string();
}

// Two instances race to append the same index of one game, 40 times: the game's row lock
// and the index check let exactly one of them win each time, so the log never forks.
TEST(PostgresStore, TwoInstancesAppendingTheSameIndexOneWins) {
  const std::string url = pg_database();
  ASSERT_FALSE(url.empty());
  auto a = open_postgres_store(url);
  auto b = open_postgres_store(url);
  ASSERT_TRUE(a.is_ok() && b.is_ok());
  ASSERT_TRUE((*a)->create_game(sample_game("g1")).is_ok());
  for (int i = 0; i < 40; ++i) {
    bool ok_a = false, ok_b = false;
    std::thread ta([&] { ok_a = (*a)->append_action("g1", {i, 0, "from a", ""}).is_ok(); });
    std::thread tb([&] { ok_b = (*b)->append_action("g1", {i, 0, "from b", ""}).is_ok(); });
    ta.join();
    tb.join();
    ASSERT_NE(ok_a, ok_b) << "index " << i << ": exactly one instance must win";
  }
  auto acts = (*a)->actions("g1");
  ASSERT_TRUE(acts.is_ok());
  ASSERT_EQ(acts->size(), 40u);
  for (size_t i = 0; i < acts->size(); ++i) EXPECT_EQ((*acts)[i].index, static_cast<int>(i));
}

// Instance A undoes its last action while instance B appends the next one: either B's append
// came first and A's undo is refused (B's action kept), or A's undo came first and B's append,
// made for a log that no longer has that length, is refused. Never both, never a lost action.
TEST(PostgresStore, AnUndoRacingAnotherInstancesAppendLosesNoAction) {
  const std::string url = pg_database();
  ASSERT_FALSE(url.empty());
  auto a = open_postgres_store(url);
  auto b = open_postgres_store(url);
  ASSERT_TRUE(a.is_ok() && b.is_ok());
  for (int round = 0; round < 30; ++round) {
    const std::string id = "race" + std::to_string(round);
    ASSERT_TRUE((*a)->create_game(sample_game(id)).is_ok());
    ASSERT_TRUE((*a)->append_action(id, {0, 0, "first", ""}).is_ok());
    bool undone = false, appended = false;
    std::thread ta([&] { undone = (*a)->truncate_actions(id, 0, 1).is_ok(); });
    std::thread tb([&] { appended = (*b)->append_action(id, {1, 1, "second", ""}).is_ok(); });
    ta.join();
    tb.join();
    ASSERT_NE(undone, appended) << id << ": exactly one of the undo and the append must win";
    const auto acts = (*a)->actions(id);
    ASSERT_TRUE(acts.is_ok());
    EXPECT_EQ(acts->size(), appended ? 2u : 0u) << id;
  }
}

// An instance hears (LISTEN/NOTIFY) of every change another instance commits to a game:
// creation, action, undo, status; never of its own.
TEST(PostgresStore, WatchReportsTheOtherInstancesChangesOnly) {
  const std::string url = pg_database();
  ASSERT_FALSE(url.empty());
  auto a = open_postgres_store(url);
  auto b = open_postgres_store(url);
  ASSERT_TRUE(a.is_ok() && b.is_ok());
  std::mutex mu;
  std::vector<std::string> heard_by_b;
  ASSERT_TRUE((*b)->watch([&](const std::string& id) {
                    std::lock_guard lock(mu);
                    heard_by_b.push_back(id);
                  })
                  .is_ok());
  ASSERT_TRUE((*a)->create_game(sample_game("g1")).is_ok());
  ASSERT_TRUE((*a)->append_action("g1", {0, 0, "pass", ""}).is_ok());
  ASSERT_TRUE((*a)->truncate_actions("g1", 0, 1).is_ok());
  ASSERT_TRUE((*a)->set_status("g1", "resigned", Json{{"winner", "Blue"}}).is_ok());
  ASSERT_TRUE((*b)->create_game(sample_game("own")).is_ok());  // b's own: not reported to b
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    {
      std::lock_guard lock(mu);
      if (heard_by_b.size() >= 4) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // anything extra would arrive by now
  (*b)->stop_watching();
  std::lock_guard lock(mu);
  EXPECT_EQ(heard_by_b, (std::vector<std::string>{"g1", "g1", "g1", "g1"}));
}
