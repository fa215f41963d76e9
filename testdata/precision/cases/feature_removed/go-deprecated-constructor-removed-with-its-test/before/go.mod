module ex.com/cli

go 1.22
