module example.com/sorts

go 1.20
