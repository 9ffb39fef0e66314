// Declarations the oracle needs from outside the compiled EnyimMemcached files: the two
// interfaces IMemcachedNode's signatures name (the locators never call those members), and the
// namespaces of two `using`s whose types the compiled files never use.
namespace Enyim.Caching.Memcached.Protocol { }
namespace Enyim.Caching.Memcached.Results { public interface IOperationResult { } }
namespace Enyim.Caching.Memcached { public interface IOperation { } }
namespace System.Web { }
