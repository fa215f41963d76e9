module example.com/flags

go 1.22
