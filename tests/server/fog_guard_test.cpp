// The hidden-information guard every installed game gets for free: random games played
// through the real `steppe serve` with both seats, everything each seat is sent collected
// (views and events over HTTP and the WebSocket, refusals, previews and reaches), and every
// mention of the other side's units checked against what this seat may know at that moment.
//
// The truth is the other seat's own view: a string (a unit label, a hidden choice) that the
// owner's observation carries and this seat's observation does not, before and after the
// action, is hidden from this seat then. No event that is not a revealing one (a die roll,
// an odds computation's reveal) may name it; no view may carry it; a preview, a reach or a
// refusal may name it only as the seat's own words echoed back.
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "child_server.h"
#include "test_client.h"
#include "text_words.h"

namespace fs = std::filesystem;
using namespace steppe;
using namespace steppe::testing;

namespace {

// A word that can name a unit: it has a capital letter or a digit, and is not a number (a
// hex id, a factor). Lower-case words are the games' vocabulary ("dl", "oder", "rvgk").
bool label_like(const std::string& w) {
  bool cap_or_digit = false, all_digits = true;
  for (char ch : w) {
    const bool digit = ch >= '0' && ch <= '9';
    cap_or_digit = cap_or_digit || digit || (ch >= 'A' && ch <= 'Z');
    all_digits = all_digits && digit;
  }
  return cap_or_digit && !all_digits;
}

// What one seat may know after action n (n = 0: the start): its observation's strings.
using Known = std::vector<std::set<std::string>>;

// Strings the owner's observation holds and the viewer's does not, both before and after
// action `n` (index into the per-step sets; `n + 1` is after).
bool hidden_around(const Known& owner, const Known& viewer, size_t n, const std::string& w) {
  if (!label_like(w)) return false;
  for (size_t k : {n, n + 1}) {
    if (k >= owner.size()) continue;
    if (owner[k].count(w) == 0 || viewer[k].count(w) != 0) return false;
  }
  return true;
}

struct Leak {
  std::string where, word, text;
};

void play_and_check(uint16_t port, const std::string& game_id, const std::string& scenario, uint64_t seed,
                    int actions, size_t* checked_mentions, size_t* hidden_seen, std::vector<Leak>* leaks) {
  Reply c = http_post(port, "/api/games", Json{{"game", game_id}, {"scenario", scenario}, {"seed", seed}});
  ASSERT_EQ(c.status, 200) << c.raw;
  const std::string id = c.body["game"]["id"];
  std::vector<std::string> tokens;
  for (const auto& s : c.body["seats"]) tokens.push_back(s["token"]);
  const size_t n_seats = tokens.size();
  ASSERT_GE(n_seats, 2u);
  std::vector<std::unique_ptr<WsClient>> ws;
  for (const auto& t : tokens)
    ws.push_back(std::make_unique<WsClient>(port, "/api/games/" + id + "/ws?token=" + t));
  std::vector<Known> known(n_seats);               // per seat, per step: its observation's strings
  std::vector<Json> view_now(n_seats);             // per seat: its view now
  std::vector<std::vector<Json>> pushed(n_seats);  // per seat, the WebSocket views: (step, view)
  std::vector<std::vector<std::pair<size_t, std::string>>> replies(n_seats);  // (step, text) answers
  auto snapshot = [&]() {
    for (size_t s = 0; s < n_seats; ++s) {
      Reply v = http_get(port, "/api/games/" + id + "/view", tokens[s]);
      ASSERT_EQ(v.status, 200) << v.raw;
      view_now[s] = v.body["view"];
      std::set<std::string> strs;
      strings_in(view_now[s]["observation"], strs);
      known[s].push_back(std::move(strs));
    }
  };
  snapshot();
  uint64_t x = seed * 0x9E3779B97F4A7C15ULL + 1;
  auto next = [&]() {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return x >> 33;
  };
  for (int i = 0; i < actions; ++i) {
    const size_t step = known[0].size() - 1;  // actions applied so far
    const int to_move = view_now[0].value("current_player", -1);
    if (to_move < 0 || static_cast<size_t>(to_move) >= n_seats) break;
    const auto side = static_cast<size_t>(to_move);
    const Json legal = offered_actions(port, id, tokens[side], view_now[side], next());
    if (legal.empty()) break;
    // Queries the browser asks: a preview of an attack the seat may make, the reach of a
    // unit; for every unit label hidden from a seat now, the reach too (it must be refused
    // or answered without telling anything).
    for (size_t s = 0; s < n_seats && i % 4 == 0; ++s) {
      std::vector<std::string> asks;
      if (s == side)
        for (const auto& a : legal) {
          const std::string t = a["text"];
          if ((t.rfind("attack ", 0) == 0 || t.rfind("mobile-assault ", 0) == 0) && asks.size() < 2)
            asks.push_back("preview " + t);
        }
      for (size_t o = 0; o < n_seats; ++o) {
        if (o == s) continue;
        int n = 0;
        for (const auto& w : known[o][step])
          if (label_like(w) && known[s][step].count(w) == 0 && n++ < 3) asks.push_back("reach " + w);
      }
      for (const auto& q : asks) {
        const auto space = q.find(' ');
        const std::string what = q.substr(0, space), arg = q.substr(space + 1);
        const std::string param = what == "preview" ? "?action=" : "?unit=";
        Reply r = http_get(port, "/api/games/" + id + "/" + what + param + url_encode(arg), tokens[s]);
        replies[s].push_back({step, q + "\n" + r.raw});
      }
    }
    // Mostly random, with a pull towards ending phases so that a few hundred actions reach
    // the later phases (the RVGK, combat, reinforcements) of a turn.
    const Json* pick = &legal[static_cast<size_t>(next() % legal.size())];
    if (next() % 3 == 0)
      for (const auto& a : legal)
        if (a["text"].get<std::string>().find("end") != std::string::npos) pick = &a;
    // A refused action: an attack on a hex the seat sees, naming a unit hidden from it (the
    // refusal must not name what is hidden either).
    const Json& stacks = view_now[side]["observation"].value("stacks", Json::array());
    if (i % 4 == 0 && !stacks.empty() && stacks[0].contains("hex"))
      for (size_t o = 0; o < n_seats; ++o) {
        if (o == side) continue;
        for (const auto& w : known[o][step]) {
          if (!label_like(w) || known[side][step].count(w) != 0) continue;
          const std::string bad_text = "attack " + stacks[0]["hex"].get<std::string>() + " with " + w;
          Reply bad =
              http_post(port, "/api/games/" + id + "/action", Json{{"action", bad_text}}, tokens[side]);
          EXPECT_NE(bad.status, 200) << bad_text;
          replies[side].push_back({step, bad_text + "\n" + bad.raw});
          break;
        }
      }
    Reply r =
        http_post(port, "/api/games/" + id + "/action", Json{{"action", (*pick)["text"]}}, tokens[side]);
    ASSERT_EQ(r.status, 200) << r.raw;
    snapshot();
    for (size_t s = 0; s < n_seats; ++s) {
      const size_t n = known[s].size() - 1;
      // Each message parsed once, as it comes: the socket's views of BD are large.
      size_t parsed = 0;
      bool got = false;
      const bool arrived = ws[s]->wait_for([&](const std::vector<std::string>& ms) {
        for (; parsed < ms.size(); ++parsed) {
          Json j = Json::parse(ms[parsed], nullptr, false);
          if (!j.is_object() || !j.contains("view")) continue;
          got = got || j["view"].value("actions_count", size_t{0}) == n;
          pushed[s].push_back(std::move(j));
        }
        return got;
      });
      EXPECT_TRUE(arrived) << "no socket update after action " << n << " for side " << s;
      ws[s]->messages.clear();
    }
    if (::testing::Test::HasFatalFailure()) return;
  }
  const size_t steps = known[0].size();
  for (size_t v = 0; v < n_seats; ++v) {
    for (size_t o = 0; o < n_seats; ++o) {
      if (o == v) continue;
      for (size_t k = 0; k < steps; ++k)
        for (const auto& w : known[o][k]) *hidden_seen += label_like(w) && known[v][k].count(w) == 0;
      // The events, in order: a revealing event shows what it names from then on.
      const Reply log = http_get(port, "/api/games/" + id + "/log", tokens[v]);
      ASSERT_EQ(log.status, 200);
      std::set<std::string> shown;
      std::map<std::string, size_t> shown_by;  // word -> first action whose events revealed it
      for (const auto& e : log.body["events"]) {
        const size_t n = e.value("action_index", size_t{0});
        const std::string text = e["text"];
        if (e.value("reveals", false)) {
          for (const auto& w : words_of(text)) {
            shown.insert(w);
            shown_by.emplace(w, n);
          }
          continue;
        }
        for (const auto& w : words_of(text)) {
          ++*checked_mentions;
          if (shown.count(w) == 0 && hidden_around(known[o], known[v], n, w))
            leaks->push_back({"event to side " + std::to_string(v), w, text});
        }
      }
      // Revealed to the seat by the first `n` actions.
      auto shown_after = [&](const std::string& w, size_t n) {
        const auto it = shown_by.find(w);
        return it != shown_by.end() && it->second < n;
      };
      // The views the socket pushed: nothing hidden at that step.
      for (const auto& m : pushed[v]) {
        const size_t n = m["view"].value("actions_count", size_t{0});
        if (n >= steps) continue;
        std::set<std::string> strs;
        strings_in(m["view"], strs);
        for (const auto& w : strs)
          if (label_like(w) && known[o][n].count(w) != 0 && known[v][n].count(w) == 0 && !shown_after(w, n))
            leaks->push_back({"socket view to side " + std::to_string(v), w, ""});
      }
      // Previews, reaches and refusals: only the seat's own words may come back.
      for (const auto& [n, text] : replies[v]) {
        const auto nl = text.find('\n');
        const auto asked = words_of(text.substr(0, nl));
        std::set<std::string> strs;
        const Json j = Json::parse(text.substr(nl + 1), nullptr, false);
        strings_in(j, strs);
        std::string all;
        for (const auto& s : strs) all += s + " ";
        for (const auto& w : words_of(all)) {
          ++*checked_mentions;
          if (asked.count(w) == 0 && !shown_after(w, n) && label_like(w) && known[o][n].count(w) != 0 &&
              known[v][n].count(w) == 0)
            leaks->push_back({"reply to side " + std::to_string(v), w, text});
        }
      }
    }
  }
}

}  // namespace

TEST(InstalledGames, NoSeatIsToldOfAnEnemyUnitItMayNotKnow) {
  const fs::path dir = server_temp_dir("fog-guard");
  ChildServer p =
      spawn_server({STEPPE_SERVE_BIN, "serve", "--db", (dir / "steppe.db").string(), "--port", "0"});
  ASSERT_GT(p.port, 0);
  const Reply cat = http_get(p.port, "/api/catalog");
  int games = 0;
  for (const auto& g : cat.body["games"]) {
    if (g["available"] != true) continue;
    // Every scenario but the test-only empty one, each a short random game.
    size_t mentions = 0, hidden = 0;
    std::vector<Leak> leaks;
    int scenarios = 0;
    for (const auto& sc : g["scenarios"]) {
      if (sc["id"] == "empty") continue;
      play_and_check(p.port, g["id"], sc["id"], 7 + static_cast<uint64_t>(scenarios), 100, &mentions, &hidden,
                     &leaks);
      ++scenarios;
      if (::testing::Test::HasFatalFailure()) break;
    }
    std::cout << "[ info     ] " << g["id"].get<std::string>() << ": " << scenarios << " scenarios, "
              << mentions << " words checked, " << hidden << " hidden strings, " << leaks.size()
              << " leaks\n";
    std::set<std::string> reported;  // each (channel, word) once
    for (const auto& l : leaks)
      if (reported.insert(l.where + " " + l.word).second && reported.size() <= 30)
        ADD_FAILURE() << g["id"] << ": " << l.where << " names hidden '" << l.word << "': " << l.text;
    // The games whose rules hide units from the other side (BD 11.7, Moscow '41 1.5) must
    // have had hidden names to check, or the scan itself is broken. The Dark Valley, Army
    // Group Center and the A&A game show every unit to both sides: nothing of theirs is
    // hidden in an observation (the DV chit cup's order is kept in the state, not shown).
    if (g["id"] == "bd" || g["id"] == "moscow41") {
      EXPECT_GT(hidden, 0u) << g["id"] << ": nothing hidden was ever checked";
    }
    ++games;
  }
  p.stop_gently();
  if (games == 0) GTEST_SKIP() << "skipped: no game installed";
}
