module github.com/ketama/ketama/go

go 1.19
