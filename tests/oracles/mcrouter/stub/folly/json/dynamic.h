#pragma once
// oracle stub: folly::dynamic is only named by the JSON constructor, which the oracle never calls
namespace folly { struct dynamic; }
