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
  j["state"] = std::move(*part);
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
  const JsonReader seed = r.at("seed");
  const JsonReader counter = r.at("counter");
  if (!seed.json().is_number_unsigned() &&
      !(seed.json().is_number_integer() && seed.json().get<int64_t>() >= 0)) {
    seed.fail_value("the dice seed must be an unsigned integer");
    return;
  }
  if (!counter.json().is_number_unsigned() &&
      !(counter.json().is_number_integer() && counter.json().get<int64_t>() >= 0)) {
    counter.fail_value("the dice counter must be an unsigned integer");
    return;
  }
  d.restore(seed.json().get<uint64_t>(), counter.json().get<uint64_t>());
}

}  // namespace steppe
