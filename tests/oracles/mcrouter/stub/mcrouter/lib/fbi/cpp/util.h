#pragma once
// oracle stub of mcrouter's checkLogic (argument check only; the message is not formatted)
#include <stdexcept>
#include <folly/Range.h>
namespace facebook { namespace memcache {
template <typename... Args>
void checkLogic(bool condition, folly::StringPiece fmt, Args&&...) {
  if (!condition) throw std::logic_error(std::string(fmt.data(), fmt.size()));
}
}}
