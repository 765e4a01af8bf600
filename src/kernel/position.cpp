#include "kernel/position.h"

#include <utility>

namespace steppe {

Result<Json> position_document(const State& s) {
  auto part = s.position();
  if (!part) return part.error();
  Json j;
  j["format"] = kPositionFormat;
  j["format_version"] = kPositionFormatVersion;
  j["engine_version"] = STEPPE_VERSION;
  j["game"] = s.game().id();
  j["rules_hash"] = s.game().rules_hash();
  j["turn"] = s.game_turn();
  j["state"] = std::move(part).value();
  return j;
}

Result<std::unique_ptr<State>> state_from_position_document(const Game& game, const Json& doc,
                                                            const std::string& where) {
  JsonReader r(doc, where);
  if (!r.is_object()) return Error{"not a steppe position (the document is not a JSON object)", "", where};
  if (r.str_or("format", "") != kPositionFormat)
    return Error{"not a steppe position (\"format\" is not \"steppe-position\")", "", where + ": /format"};
  const int64_t version = r.integer_or("format_version", -1);
  if (version != kPositionFormatVersion)
    return Error{"position format version " + std::to_string(version) +
                     " is not readable by this engine (it reads " + std::to_string(kPositionFormatVersion) +
                     ")",
                 "", where + ": /format_version"};
  const std::string g = r.str_or("game", "");
  if (g != game.id())
    return Error{"position of game '" + g + "', not '" + game.id() + "'", "", where + ": /game"};
  if (!r.ok()) return r.error();
  if (!doc.contains("state") || !doc["state"].is_object())
    return Error{"position has no \"state\" object", "", where + ": /state"};
  auto s = game.state_from_position(doc["state"]);
  if (!s) {
    Error e = s.error();
    // The game's reader names paths inside the state part; anchor them in the document.
    if (e.where.rfind("position", 0) == 0) e.where = where + e.where.substr(8);
    return e;
  }
  return s;
}

void write_dice(Json& out, const Dice& d) { out = Json{{"seed", d.seed()}, {"counter", d.counter()}}; }

void read_dice(const JsonReader& r, Dice& d) {
  uint64_t v[2] = {0, 0};
  const char* keys[2] = {"seed", "counter"};
  for (int i = 0; i < 2; ++i) {
    const JsonReader x = r.at(keys[i]);
    const Json& j = x.json();
    if (!j.is_number_unsigned() && !(j.is_number_integer() && j.get<int64_t>() >= 0)) {
      x.fail_value(std::string("the dice ") + keys[i] + " must be an unsigned integer");
      return;
    }
    v[i] = j.get<uint64_t>();
  }
  d.restore(v[0], v[1]);
}

}  // namespace steppe
