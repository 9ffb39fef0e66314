package ketama_test

import (
	"errors"
	"fmt"

	ketama "github.com/ketama/ketama/go"
)

func Example() {
	servers := []ketama.Server{
		{Label: "10.0.0.1:11211", Weight: 1},
		{Label: "10.0.0.2:11211", Weight: 1},
		{Label: "10.0.0.3:11211", Weight: 1},
	}
	// The ring php-memcached builds with OPT_LIBKETAMA_COMPATIBLE.
	r, err := ketama.New("php-memcached", "", servers)
	if err != nil {
		panic(err)
	}
	s, _ := r.Get("user:42")
	fmt.Println(s)
	_, err = r.Get("")
	fmt.Println(errors.Is(err, ketama.ErrKeyRejected))
	h, _ := ketama.HashKey("KETAMA_HASH", []byte("apple"))
	fmt.Println(h)
	// Output:
	// 10.0.0.1:11211
	// true
	// 3195025439
}
