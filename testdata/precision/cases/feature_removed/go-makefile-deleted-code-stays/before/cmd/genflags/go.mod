module example.com/cli/cmd/genflags

go 1.22
