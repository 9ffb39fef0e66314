package ketama_test

import (
	"fmt"
	"time"

	core "github.com/ketama/ketama/go"
	ketama "github.com/ketama/ketama/go/goredis"
	"github.com/redis/go-redis/v9"
)

// The package documentation's example (on loopback addresses): a go-redis Ring placing keys
// as libketama does.
func ExampleNewHook() {
	ring, err := core.New("libketama", "", []core.Server{
		{Label: "127.0.0.1:6379", Weight: 1}, {Label: "127.0.0.2:6379", Weight: 1},
	})
	if err != nil {
		panic(err)
	}
	hook, err := ketama.NewHook(ring)
	if err != nil {
		panic(err)
	}
	rdb := redis.NewRing(&redis.RingOptions{
		Addrs:             hook.Addrs(),
		NewConsistentHash: hook.NewConsistentHash,
		// the example sends no command, so no connection is made; no heartbeat either
		HeartbeatFrequency: 24 * time.Hour,
	})
	defer rdb.Close()
	for _, key := range []string{"user:1", "user:2"} {
		c, _ := rdb.GetShardClientForKey(key)
		fmt.Println(key, c.Options().Addr)
	}
	// Output:
	// user:1 127.0.0.1:6379
	// user:2 127.0.0.2:6379
}
