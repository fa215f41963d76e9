module example.com/trace

go 1.22
