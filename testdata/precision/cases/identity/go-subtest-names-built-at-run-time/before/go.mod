module example.com/sq

go 1.22
