module github.com/ketama/ketama/go/gomemcache

go 1.19

require (
	github.com/bradfitz/gomemcache v0.0.0-20260422231931-4d751bb6e37c
	github.com/ketama/ketama/go v0.0.0
)

// The core package is the module one folder up (this repository).
replace github.com/ketama/ketama/go => ../
