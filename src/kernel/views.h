// Typed views of a State that the server, the UI and the agents read (issue 19, deliverable
// 3): what an action means (`describe`), what it would lead to before it is committed
// (`preview`: odds, every shift with its reason and rule, the outcome distribution) and where
// a unit can go (`reach`: destinations with their cost and path). A game answers them from
// its rules code, the same code apply() uses, so the preview can never disagree with the
// result table; the scenario-test hooks are never the way to ask.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace steppe {

// What one action is, in words and in structure: the server lists it, the UI draws it
// (an arrow for a move, a marker for an attack) without parsing the notation.
struct ActionDescription {
  std::string text;                // the notation, "move 4Pz 2614"
  std::string verb;                // "move"
  std::string summary;             // a sentence for a player, "4th Panzer Group moves to 2614"
  std::string rule;                // the section the verb carries out, "7.1"
  std::vector<std::string> units;  // the units it concerns, by id
  std::vector<std::string> from;   // locations (hex or area ids) it starts from, if any
  std::vector<std::string> to;     // locations it ends on or targets, if any
  nlohmann::json detail;           // game-specific extras (a path, a column), may be null
};

// One column shift (or die modifier) of a combat, with its reason and the rule that gives it.
struct PreviewShift {
  int shift = 0;       // columns: +1 = one right (better for the attacker); or a die modifier
  std::string reason;  // "rough terrain"
  std::string rule;    // "11.14"
};

// One result of the table and its probability.
struct PreviewOutcome {
  std::string result;  // "DE", "AS", "1 hit on the defender"
  double probability = 0;
  std::string meaning;  // "defender eliminated"
  std::string rule;     // where the result is defined
};

// What an action would lead to, computed before it is committed. `outcomes` is the exact
// distribution (probabilities sum to 1) when the game can give it, else empty.
struct Preview {
  std::string kind;     // "combat", "move", ...
  std::string summary;  // "12 vs 3 = 4:1, 1R -> 5:1"
  int attack = 0;       // total attack strength (0 when not a combat)
  int defense = 0;      // total defence strength
  std::string raw;      // the column or odds before shifts, "4:1"
  std::string final;    // the column used after shifts, "5:1"
  std::string rule;     // the table's section, "11.25"
  std::vector<PreviewShift> shifts;
  std::vector<PreviewOutcome> outcomes;
  nlohmann::json detail;  // game-specific extras (each attacker's factor and supply, ...)
};

// One place a unit can reach now, with what it costs and the path it takes there.
struct ReachDestination {
  std::string location;           // hex or area id
  int cost = 0;                   // movement points spent (game units)
  std::vector<std::string> path;  // from the unit's location (excluded) to `location` (included)
  std::string note;               // "ends in an enemy ZOC (7.4)", may be empty
};

struct Reach {
  std::string unit;
  std::string from;
  int allowance = 0;  // movement points the unit has this phase
  std::vector<ReachDestination> destinations;
};

nlohmann::json to_json(const ActionDescription& d);
nlohmann::json to_json(const Preview& p);
nlohmann::json to_json(const Reach& r);

}  // namespace steppe
