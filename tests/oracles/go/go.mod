module ketama-oracles/go

go 1.20

require (
	github.com/bradfitz/gomemcache v0.0.0-20260422231931-4d751bb6e37c
	github.com/golang/groupcache v0.0.0-20241129210726-2c02b8208cf8
)
