// Errors as values: every refusal (a bad file, a bad request, an illegal move) is an
// Error that says what was wrong and, for rules, which rulebook section refused it.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace steppe {

struct Error {
  std::string message;  // human-readable, complete sentence
  std::string rule;     // rulebook section that refuses ("10.3"), empty if none
  std::string where;    // file / field path / line for data and parse errors

  std::string to_string() const {
    std::string s;
    if (!where.empty()) s += where + ": ";
    s += message;
    if (!rule.empty()) s += " [" + rule + "]";
    return s;
  }
};

inline Error rule_error(std::string rule, std::string message) {
  return Error{std::move(message), std::move(rule), {}};
}

// Status: success or an Error.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error e) : err_(std::move(e)) {}  // NOLINT(google-explicit-constructor)
  static Status ok() { return {}; }
  bool is_ok() const { return !err_.has_value(); }
  explicit operator bool() const { return is_ok(); }
  const Error& error() const { return *err_; }

 private:
  std::optional<Error> err_;
};

// Result<T>: a value or an Error.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T v) : v_(std::move(v)) {}      // NOLINT(google-explicit-constructor)
  Result(Error e) : v_(std::move(e)) {}  // NOLINT(google-explicit-constructor)
  bool is_ok() const { return std::holds_alternative<T>(v_); }
  explicit operator bool() const { return is_ok(); }
  const T& value() const& { return std::get<T>(v_); }
  T& value() & { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  const T& operator*() const& { return value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const { return std::get<Error>(v_); }
  Status status() const { return is_ok() ? Status() : Status(error()); }

 private:
  std::variant<T, Error> v_;
};

}  // namespace steppe
