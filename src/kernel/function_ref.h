// FunctionRef<R(Args...)>: a non-owning reference to any callable, two pointers wide.
// Path-finding and supply tracing take game rules as callbacks on their hot path;
// std::function could allocate for a capturing lambda, this never does. The callable
// must outlive the call it is passed to (pass lambdas directly as arguments). The
// converting constructor is implicit on purpose (lambdas convert at the call site) and
// constrained so it never hides the copy constructor.
#pragma once

#include <memory>
#include <type_traits>
#include <utility>

namespace steppe {

template <typename Signature>
class FunctionRef;

template <typename R, typename... Args>
class FunctionRef<R(Args...)> {
 public:
  template <typename F>
  requires(!std::is_same_v<std::remove_cvref_t<F>, FunctionRef> && std::is_invocable_r_v<R, F&, Args...>)
      FunctionRef(F&& f)  // NOLINT(google-explicit-constructor,bugprone-forwarding-reference-overload)
      : obj_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* obj, Args... args) -> R {
          return (*static_cast<std::remove_reference_t<F>*>(obj))(std::forward<Args>(args)...);
        }) {}

  R operator()(Args... args) const { return call_(obj_, std::forward<Args>(args)...); }

 private:
  void* obj_;
  R (*call_)(void*, Args...);
};

}  // namespace steppe
