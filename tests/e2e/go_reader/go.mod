module ketama-e2e/go_reader

go 1.19

require (
	github.com/bradfitz/gomemcache v0.0.0-20260422231931-4d751bb6e37c
	github.com/ketama/ketama/go v0.0.0
	github.com/ketama/ketama/go/gomemcache v0.0.0
)

replace (
	github.com/ketama/ketama/go => ../../../go
	github.com/ketama/ketama/go/gomemcache => ../../../go/gomemcache
)
