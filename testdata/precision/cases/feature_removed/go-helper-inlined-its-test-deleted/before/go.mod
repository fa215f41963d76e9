module example.com/cli

go 1.22
