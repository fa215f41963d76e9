module example.com/n

go 1.22
