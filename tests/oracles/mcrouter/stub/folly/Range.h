#pragma once
// oracle stub of folly::Range: only the members WeightedCh3HashFunc uses (a pointer + length view);
// the real folly/Range.h drags in Boost and fmt. The hashing code itself is mcrouter's and folly's.
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <cassert>
#include <cstring>
#include <string>
#include <vector>
#include <folly/Likely.h>
namespace folly {
template <class Iter>
class Range {
 public:
  using value_type = typename std::remove_const<typename std::remove_pointer<Iter>::type>::type;
  Range(Iter b, std::size_t n) : b_(b), n_(n) {}
  Range(const char* s) : b_(s), n_(std::strlen(s)) {}
  Range(const std::string& s) : b_(s.data()), n_(s.size()) {}
  Range(const std::vector<value_type>& v) : b_(v.data()), n_(v.size()) {}
  Iter data() const { return b_; }
  std::size_t size() const { return n_; }
  const value_type& operator[](std::size_t i) const { return b_[i]; }
 private:
  Iter b_;
  std::size_t n_;
};
using StringPiece = Range<const char*>;
}
