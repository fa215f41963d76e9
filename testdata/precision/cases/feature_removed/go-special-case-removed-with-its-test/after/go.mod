module example.com/loc

go 1.22
