#include "kernel/match.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "kernel/notation.h"
#include "race_game.h"

namespace steppe {
namespace {

using testing::RaceGame;

std::unique_ptr<Match> started(const Game& g, const std::string& scen = "standard", uint64_t seed = 7) {
  auto m = Match::start(g, scen, seed);
  EXPECT_TRUE(m.is_ok());
  return std::move(m).value();
}

TEST(Match, LogsActionsAndEvents) {
  RaceGame g;
  auto m = started(g);
  ASSERT_TRUE(m->apply_text("step 2").is_ok());
  ASSERT_TRUE(m->apply_text("roll").is_ok());
  ASSERT_EQ(m->size(), 2u);
  EXPECT_EQ(m->log()[0].action, "step 2");
  EXPECT_EQ(m->log()[0].side, 0);
  EXPECT_FALSE(m->log()[0].reveals());
  EXPECT_EQ(m->log()[1].side, 1);
  EXPECT_TRUE(m->log()[1].reveals());
  EXPECT_EQ(m->log()[1].events[0].kind, "roll");
  EXPECT_EQ(m->log()[1].events[0].rule, "R3");
}

TEST(Match, IllegalActionCitesRuleAndChangesNothing) {
  RaceGame g;
  auto m = started(g);
  ASSERT_TRUE(m->apply_text("reveal").is_ok());
  ASSERT_TRUE(m->apply_text("reveal").is_ok());  // blue reveals
  const uint64_t before = m->state().state_hash();
  const Json full_before = m->state().full_json();
  Status s = m->apply_text("reveal");  // red again: R4
  ASSERT_FALSE(s.is_ok());
  EXPECT_EQ(s.error().rule, "R4");
  s = m->apply_text("step 5");
  ASSERT_FALSE(s.is_ok());
  EXPECT_EQ(s.error().rule, "R2");
  EXPECT_FALSE(m->apply_text("fly away").is_ok());
  EXPECT_EQ(m->state().state_hash(), before);
  EXPECT_EQ(m->state().full_json(), full_before);
  EXPECT_EQ(m->size(), 2u);
}

TEST(Match, ReplayReproducesHashBitForBit) {
  RaceGame g;
  auto m = started(g, "standard", 99);
  for (const char* a : {"step 1", "roll", "reveal", "step 2", "roll", "roll"})
    ASSERT_TRUE(m->apply_text(a).is_ok());
  auto r = m->replay(m->size());
  ASSERT_TRUE(r.is_ok());
  EXPECT_EQ((*r)->state_hash(), m->state().state_hash());
  EXPECT_EQ((*r)->full_json(), m->state().full_json());
  auto r3 = m->replay(3);
  ASSERT_TRUE(r3.is_ok());
  EXPECT_EQ((*r3)->state_hash(), m->log()[2].hash_after);
}

TEST(Match, UndoStopsAtRevealedInformation) {
  RaceGame g;
  auto m = started(g);
  ASSERT_TRUE(m->apply_text("step 1").is_ok());
  const uint64_t after_first = m->state().state_hash();
  ASSERT_TRUE(m->apply_text("step 2").is_ok());
  EXPECT_EQ(m->undoable(), 2u);
  ASSERT_TRUE(m->undo().is_ok());
  EXPECT_EQ(m->state().state_hash(), after_first);
  EXPECT_EQ(m->size(), 1u);
  ASSERT_TRUE(m->apply_text("roll").is_ok());  // reveals a die roll
  ASSERT_TRUE(m->apply_text("step 1").is_ok());
  EXPECT_EQ(m->undoable(), 1u);
  const uint64_t before = m->state().state_hash();
  Status s = m->undo(2);
  ASSERT_FALSE(s.is_ok());
  EXPECT_NE(s.error().message.find("revealed information"), std::string::npos) << s.error().message;
  EXPECT_EQ(m->state().state_hash(), before);
  EXPECT_EQ(m->size(), 3u);
  ASSERT_TRUE(m->undo(1).is_ok());
  EXPECT_FALSE(m->undo(1).is_ok());
  // The state after undo still logs events into the match.
  ASSERT_TRUE(m->apply_text("step 2").is_ok());
  EXPECT_FALSE(m->log().back().events.empty());
}

TEST(Match, PerSideLogHidesOtherSidesPrivateEvents) {
  RaceGame g;
  auto m = started(g);
  ASSERT_TRUE(m->apply_text("step 1").is_ok());  // red
  const Json red = m->log_json(0), blue = m->log_json(1), all = m->log_json(-1);
  EXPECT_EQ(all[0]["events"].size(), 2u);
  EXPECT_EQ(red[0]["events"].size(), 2u);
  EXPECT_EQ(blue[0]["events"].size(), 1u);
  EXPECT_TRUE(red[0].contains("action"));
  EXPECT_FALSE(blue[0].contains("action"));
}

TEST(Saves, RoundTripThroughFile) {
  RaceGame g;
  auto m = started(g, "standard", 12345678901234ULL);
  for (int i = 0; i < 30 && !m->state().is_terminal(); ++i)
    ASSERT_TRUE(m->apply_text(i % 3 ? "step 1" : "roll").is_ok());
  const auto file = std::filesystem::temp_directory_path() / "steppe_match_test.json";
  ASSERT_TRUE(m->save_file(file, 7).is_ok());
  EXPECT_FALSE(std::filesystem::exists(file.string() + ".steppe.tmp"));
  auto j = read_save_file(file);
  ASSERT_TRUE(j.is_ok());
  EXPECT_EQ((*j)["format"], "steppe-save");
  EXPECT_EQ((*j)["format_version"], 1);
  EXPECT_EQ((*j)["seed"], 12345678901234ULL);
  EXPECT_EQ((*j)["checkpoints"].size(), 1 + m->size() / 7);
  EXPECT_GE(m->size(), 14u);
  auto loaded = Match::from_save_json(*j, g, file.string());
  ASSERT_TRUE(loaded.is_ok()) << loaded.error().to_string();
  EXPECT_EQ((*loaded)->state().state_hash(), m->state().state_hash());
  EXPECT_EQ((*loaded)->actions(), m->actions());
  EXPECT_EQ((*loaded)->log().size(), m->log().size());
  std::filesystem::remove(file);
}

TEST(Saves, OtherRulesDataIsRefusedClearly) {
  RaceGame g("rules-A"), other("rules-B");
  auto m = started(g);
  ASSERT_TRUE(m->apply_text("roll").is_ok());
  auto loaded = Match::from_save_json(m->save_json(), other, "x.json");
  ASSERT_FALSE(loaded.is_ok());
  EXPECT_NE(loaded.error().to_string().find(
                "this save was made with other rules data (save rules-A, installed rules-B)"),
            std::string::npos)
      << loaded.error().to_string();
}

TEST(Saves, TamperedSaveIsDetected) {
  RaceGame g;
  auto m = started(g);
  for (const char* a : {"step 1", "step 2", "step 1"}) ASSERT_TRUE(m->apply_text(a).is_ok());
  Json j = m->save_json(1);
  j["actions"][1] = "step 1";  // legal, but not what was played: the hashes catch it
  auto loaded = Match::from_save_json(j, g);
  ASSERT_FALSE(loaded.is_ok());
  EXPECT_NE(loaded.error().message.find("replay diverged"), std::string::npos) << loaded.error().to_string();

  Json k = m->save_json();
  k["actions"][0] = "step 9";
  auto refused = Match::from_save_json(k, g);
  ASSERT_FALSE(refused.is_ok());
  EXPECT_NE(refused.error().to_string().find("R2"), std::string::npos) << refused.error().to_string();
  EXPECT_NE(refused.error().where.find("/actions/0"), std::string::npos);
  EXPECT_EQ(loaded.error().message.find("written by Steppe"), std::string::npos)  // same engine: no note
      << loaded.error().to_string();

  // A save from another engine version that no longer replays names both versions.
  j["engine_version"] = "0.0.1";
  auto old = Match::from_save_json(j, g);
  ASSERT_FALSE(old.is_ok());
  EXPECT_NE(old.error().message.find("written by Steppe 0.0.1, this is Steppe " STEPPE_VERSION),
            std::string::npos)
      << old.error().to_string();
}

TEST(Saves, GarbageGetsClearErrorsNeverACrash) {
  RaceGame g;
  const std::vector<std::string> bad = {
      "[]",
      "3",
      "{}",
      R"({"format":"steppe-save"})",
      R"({"format":"steppe-save","format_version":2})",
      R"({"format":"steppe-save","format_version":1,"engine_version":"x","game":"race","scenario":"standard","rules_hash":"race-rules-1","seed":-4,"actions":[]})",
      R"({"format":"steppe-save","format_version":1,"engine_version":"x","game":"race","scenario":"nope","rules_hash":"race-rules-1","seed":1,"actions":[]})",
      R"({"format":"steppe-save","format_version":1,"engine_version":"x","game":"race","scenario":"standard","rules_hash":"race-rules-1","seed":1,"actions":[1]})",
      R"({"format":"steppe-save","format_version":1,"engine_version":"x","game":"race","scenario":"standard","rules_hash":"race-rules-1","seed":1,"actions":[],"checkpoints":[{"after":5,"hash":"00"}]})",
      R"({"format":"steppe-save","format_version":1,"engine_version":"x","game":"race","scenario":"standard","rules_hash":"race-rules-1","seed":1,"actions":[],"final_hash":"zz"})",
      R"({"format":"steppe-save","format_version":1,"engine_version":"x","game":"chess","scenario":"standard","rules_hash":"race-rules-1","seed":1,"actions":[]})",
  };
  for (const auto& text : bad) {
    auto loaded = Match::from_save_json(Json::parse(text), g, "f.json");
    ASSERT_FALSE(loaded.is_ok()) << text;
    EXPECT_FALSE(loaded.error().message.empty());
  }
  const auto file = std::filesystem::temp_directory_path() / "steppe_garbage.json";
  { std::ofstream(file) << "{\"format\": \"steppe-sa"; }
  auto j = read_save_file(file);
  ASSERT_FALSE(j.is_ok());
  EXPECT_NE(j.error().message.find("not valid JSON"), std::string::npos);
  EXPECT_FALSE(read_save_file("/nonexistent/dir/x.json").is_ok());
  std::filesystem::remove(file);
}

TEST(Saves, AtomicWriteReplacesWholeFile) {
  const auto file = std::filesystem::temp_directory_path() / "steppe_atomic.txt";
  ASSERT_TRUE(write_file_atomically(file, std::string(100000, 'a')).is_ok());
  ASSERT_TRUE(write_file_atomically(file, "short").is_ok());
  std::ifstream in(file);
  std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(s, "short");
  EXPECT_FALSE(write_file_atomically("/nonexistent/dir/x", "x").is_ok());
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace steppe
