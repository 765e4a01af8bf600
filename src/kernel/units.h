// Units, their locations and the stacks index, as plain flat data so that a game State
// copies them cheaply (a few vectors, no heap per unit; the display names are shared
// between copies and only copied when a unit with a new name is added).
//
// A unit has a stable id (its index here, never reused, what actions and saves refer to),
// separate from its display name ("4Pz", "16A"), as in FreeCiv: names can repeat across
// sides and change without breaking saves. Side, nation and type are small ints of the
// game's own vocabularies; factors' meanings (attack, defence, movement...) are the
// game's too.
//
// Location: a map node (hex or area index), an off-map box of the game (RVGK box, dead
// pile...; boxes are numbered by the game), eliminated, or nowhere (not yet arrived).
// UnitSet::move keeps the node/box -> units index consistent; stacks list units in id
// order whatever the move history, so stack order never leaks into hashes or replays.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kernel/error.h"
#include "kernel/json_data.h"
#include "kernel/vocabulary.h"

namespace steppe {

struct UnitLocation {
  enum class Kind : uint8_t { kNowhere, kNode, kBox, kEliminated };
  Kind kind = Kind::kNowhere;
  int32_t index = -1;  // node or box index

  static UnitLocation nowhere() { return {}; }
  static UnitLocation node(int n) { return {Kind::kNode, n}; }
  static UnitLocation box(int b) { return {Kind::kBox, b}; }
  static UnitLocation eliminated() { return {Kind::kEliminated, -1}; }
  bool on_map() const { return kind == Kind::kNode; }
  bool in_box() const { return kind == Kind::kBox; }
  friend bool operator==(const UnitLocation&, const UnitLocation&) = default;
};

struct Unit {
  static constexpr int kMaxFactors = 4;
  int16_t type = 0;
  int16_t nation = 0;
  int8_t side = 0;
  int8_t steps = 1;      // current steps (or strength points)
  int8_t max_steps = 1;  // full strength
  uint8_t pad_ = 0;
  std::array<int16_t, kMaxFactors> factors{};  // game-defined meaning per index
  uint32_t markers = 0;                        // status marker bits (game vocabulary)
  bool has_marker(int m) const { return m >= 0 && ((markers >> m) & 1u) != 0; }
};

class UnitSet {
 public:
  // One stack slot per map node and per off-map box.
  UnitSet(int node_count, int box_count);
  UnitSet() : UnitSet(0, 0) {}

  // Adds a unit at `loc`; returns its id (ids are 0, 1, 2... in order of adding).
  int add(const Unit& u, std::string_view name, UnitLocation loc = UnitLocation::nowhere());
  int size() const { return static_cast<int>(units_.size()); }
  bool valid(int id) const { return id >= 0 && id < size(); }
  int node_count() const { return node_count_; }
  int box_count() const { return box_count_; }

  const Unit& unit(int id) const { return units_[id]; }
  // Steps, factors and markers may be changed freely; the location only through move()
  // and the side only through set_side() (both keep the stacks index right).
  Unit& edit(int id) { return units_[id]; }
  // A unit changing sides (BD 8.25: Romanian defection).
  void set_side(int id, int side);
  const std::string& name(int id) const { return (*names_)[name_index_[id]]; }
  // First unit with this name (of `side`, unless side < 0), -1 if none.
  int find(std::string_view name, int side = -1) const;

  UnitLocation location(int id) const { return loc_[id]; }
  void move(int id, UnitLocation to);
  void eliminate(int id) { move(id, UnitLocation::eliminated()); }

  // Units in a node / box, in id order: for (int u : units.at(node)) ...
  class StackRange {
   public:
    class iterator {
     public:
      iterator(const int32_t* next, int32_t cur) : next_(next), cur_(cur) {}
      int operator*() const { return cur_; }
      iterator& operator++() {
        cur_ = next_[cur_];
        return *this;
      }
      bool operator!=(const iterator& o) const { return cur_ != o.cur_; }

     private:
      const int32_t* next_;
      int32_t cur_;
    };
    StackRange(const int32_t* next, int32_t head) : next_(next), head_(head) {}
    iterator begin() const { return {next_, head_}; }
    iterator end() const { return {next_, -1}; }
    bool empty() const { return head_ < 0; }

   private:
    const int32_t* next_;
    int32_t head_;
  };
  StackRange at(int node) const { return {next_.data(), head_[node]}; }
  StackRange in_box(int box) const { return {next_.data(), head_[node_count_ + box]}; }
  int count_at(int node) const;
  int steps_at(int node) const;
  // Bit s set when a unit of side s is in the node (sides 0..7).
  uint8_t sides_at(int node) const { return sides_[node]; }
  bool occupied_by_other_side(int node, int side) const { return (sides_[node] & ~(1u << side)) != 0; }

  // Mixes every unit's data and location into an FNV-1a hash (for state_hash).
  uint64_t hash(uint64_t h) const;
  // Checks the stacks index against the locations (for tests and debugging).
  bool consistent() const;

 private:
  int slot_of(UnitLocation loc) const;
  void link(int id, int slot);
  void unlink(int id, int slot);
  void recompute_sides(int node);

  int node_count_ = 0, box_count_ = 0;
  std::vector<Unit> units_;
  std::vector<UnitLocation> loc_;
  std::vector<int32_t> name_index_;
  std::shared_ptr<const std::vector<std::string>> names_;
  std::vector<int32_t> head_;   // [node_count + box_count] first unit of the slot, -1 empty
  std::vector<int32_t> next_;   // [unit] next unit in the same slot, -1 last
  std::vector<uint8_t> sides_;  // [node] bitmask of sides present
};

// Stacking limits as data (a game configures one per map, or per side or phase):
//   {"rule": "6.3", "max_units": 5, "max_steps": null,
//    "exempt_types": ["fortress-command"], "exempt_markers": ["static"],
//    "limits": [{"name": "satellite armies", "types": ["army"],
//                "nations": ["hungarian", "romanian"], "max": 1, "rule": "6.4"}]}
// Exempt units don't count towards max_units/max_steps, but per-type limits count
// every unit matching them (BD 6.5: cavalry groups are free but at most 1 per hex).
struct StackingRule {
  struct Limit {
    std::string name;
    FeatureBits types = 0;    // 0 = any type
    FeatureBits nations = 0;  // 0 = any nation
    int max = 0;
    std::string rule;
  };
  std::string rule;    // section cited when max_units / max_steps is exceeded
  int max_units = -1;  // -1: no limit
  int max_steps = -1;
  FeatureBits exempt_types = 0;
  uint32_t exempt_markers = 0;
  std::vector<Limit> limits;

  // Type, nation and marker names resolve against the game's vocabularies (ids < 64).
  static Result<StackingRule> from_json(const JsonReader& r, const Vocabulary& types,
                                        const Vocabulary& nations, const Vocabulary& markers);

  static constexpr size_t kMaxLimits = 16;  // per-type limits; fixed so check() never allocates

  static bool has_bit(FeatureBits bits, int i) { return i >= 0 && i < 64 && ((bits >> i) & 1u) != 0; }
  bool counts(const Unit& u) const {
    return !has_bit(exempt_types, u.type) && (u.markers & exempt_markers) == 0;
  }
  // Is the stack of `side` at `node` legal if `arriving` units (not yet there; units
  // already there are not counted twice) join it? The error cites the rule and says by
  // how much the limit is exceeded. `place` names the node in the message ("2514").
  Status check(const UnitSet& units, int node, int side, std::span<const int> arriving,
               const std::string& place) const;
};

}  // namespace steppe
