// One verb table per game (issue 19, deliverable 2): each row is one kind of action with
// everything the engine does with it (Wesnoth's one-file-per-action, as a table), so that
// parsing, printing, legal-action generation, checking and application cannot drift
// apart. A game declares `constexpr VerbRow<MyState> kVerbs[] = {...}` in its own file and
// its State methods dispatch through a VerbTable over it.
#pragma once

#include <algorithm>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kernel/action.h"
#include "kernel/error.h"
#include "kernel/views.h"

namespace steppe {

template <class S>
struct VerbRow {
  uint16_t id = 0;  // Action::verb; 0 is never a verb
  // The leading word(s) of the notation, "move"; a name of several words ("setup dl",
  // "logistics pause") lets verbs share a first word: parse() takes the longest name that
  // the text begins with.
  std::string_view name;
  std::string_view usage;  // "move UNIT HEX [HEX...]", shown in errors and help
  std::string_view rule;   // the section the verb carries out, "7.1"
  // Appends this verb's legal actions now (nullptr: the verb is never generated, e.g. a
  // verb only the scenario tests or a client send).
  void (*generate)(const S&, std::vector<Action>&) = nullptr;
  // Why `a` is illegal now, citing the rule, or ok.
  Status (*check)(const S&, const Action&) = nullptr;
  // Precondition: check(s, a) is ok.
  void (*apply)(S&, const Action&) = nullptr;
  // The notation of `a`.
  std::string (*print)(const S&, const Action&) = nullptr;
  // Reads the words after the verb name into an action (the names are resolved against `s`).
  Result<Action> (*parse)(const S&, std::span<const std::string_view> args) = nullptr;
  // Optional: what `a` means for the UI (nullptr: the notation only).
  void (*describe)(const S&, const Action&, ActionDescription&) = nullptr;
};

template <class S>
class VerbTable {
 public:
  constexpr explicit VerbTable(std::span<const VerbRow<S>> rows) : rows_(rows) {}

  const VerbRow<S>* find(uint16_t id) const {
    for (const auto& r : rows_)
      if (r.id == id) return &r;
    return nullptr;
  }
  const VerbRow<S>* find(std::string_view name) const {
    for (const auto& r : rows_)
      if (r.name == name) return &r;
    return nullptr;
  }
  std::span<const VerbRow<S>> rows() const { return rows_; }

  // The row whose name is the longest run of leading `words` (nullptr if none); `used` gets
  // the number of words of that name.
  const VerbRow<S>* match(std::span<const std::string_view> words, size_t& used) const {
    const VerbRow<S>* best = nullptr;
    used = 0;
    for (const auto& r : rows_) {
      const auto name = split(r.name);
      if (name.empty() || name.size() > words.size() || name.size() <= used) continue;
      if (std::equal(name.begin(), name.end(), words.begin())) {
        best = &r;
        used = name.size();
      }
    }
    return best;
  }
  // The name as one token ("setup dl" -> "setup-dl"): for a UI or a log field.
  static std::string token(std::string_view name) {
    std::string t(name);
    std::replace(t.begin(), t.end(), ' ', '-');
    return t;
  }
  // Each parseable verb's usage, "; "-separated, in table order: the forms for an error.
  std::string usages() const {
    std::string out;
    for (const auto& r : rows_)
      if (r.parse != nullptr)
        out += (out.empty() ? "" : "; ") + std::string(r.usage.empty() ? r.name : r.usage);
    return out;
  }
  // `text` split on spaces.
  static std::vector<std::string_view> split(std::string_view text) {
    std::vector<std::string_view> words;
    size_t at = 0;
    while (at < text.size()) {
      while (at < text.size() && text[at] == ' ') ++at;
      const size_t end = std::min(text.find(' ', at), text.size());
      if (end > at) words.push_back(text.substr(at, end - at));
      at = end;
    }
    return words;
  }

  // Every verb's legal actions, in table order (the order is part of determinism).
  void generate(const S& s, std::vector<Action>& out) const {
    out.clear();
    for (const auto& r : rows_)
      if (r.generate != nullptr) r.generate(s, out);
  }
  Status check(const S& s, const Action& a) const {
    const auto* r = find(a.verb);
    if (r == nullptr || r->check == nullptr)
      return Error{"unknown action (verb " + std::to_string(a.verb) + ")", "", ""};
    return r->check(s, a);
  }
  void apply(S& s, const Action& a) const {
    if (const auto* r = find(a.verb); r != nullptr && r->apply != nullptr) r->apply(s, a);
  }
  std::string print(const S& s, const Action& a) const {
    const auto* r = find(a.verb);
    return r == nullptr || r->print == nullptr ? "?" : r->print(s, a);
  }
  // Splits `text` on spaces and hands the words after the verb's name to its parser.
  Result<Action> parse(const S& s, std::string_view text) const {
    const std::vector<std::string_view> words = split(text);
    if (words.empty()) return Error{"empty action", "", ""};
    size_t used = 0;
    const auto* r = match(words, used);
    if (r == nullptr || r->parse == nullptr) {
      std::string known;
      for (const auto& row : rows_)
        if (row.parse != nullptr) known += (known.empty() ? "" : ", ") + std::string(row.name);
      return Error{"unknown action '" + std::string(words[0]) + "' (the actions are: " + known + ")", "", ""};
    }
    return r->parse(s, std::span<const std::string_view>(words).subspan(used));
  }

 private:
  std::span<const VerbRow<S>> rows_;
};

}  // namespace steppe
